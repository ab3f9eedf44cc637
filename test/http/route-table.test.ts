// The service front door's route table finds operations as Express's router would, and says
// which methods a path has, so the 404 and 405 answers follow the same rules.
import { describe, expect, it } from '@jest/globals';
import { RouteTable } from '../../mock/http/route-table';
import { contract } from './harness';

const table = () => new RouteTable(contract().operations.map((op) => ({ op, target: op.operationId })));

describe('the route table', () => {
  it('finds a concrete path, in any case, with or without a trailing slash', () => {
    for (const path of ['/api/accounts', '/api/accounts/', '/API/Accounts'])
      expect(table().match('GET', path)?.target).toBe('listAccounts');
  });

  it('answers HEAD with the GET operation, as Express does', () => {
    expect(table().match('HEAD', '/v1/operations')?.target).toBe('listOperations');
  });

  it('reads path parameters as sent (decoding is the caller’s)', () => {
    expect(table().match('GET', '/v1/subscriptions/sub%201/executionLogs')).toMatchObject({
      target: 'listExecutionLogs',
      params: { subscriptionId: 'sub%201' },
    });
    expect(table().match('POST', '/v1/subscriptions/s-1/executionLogs/l-2/resend')).toMatchObject({
      target: 'resendExecutionLog',
      params: { subscriptionId: 's-1', executionLogId: 'l-2' },
    });
  });

  it('lets a concrete path own its URL: GET /v1/operations/deposits is not getOperation', () => {
    expect(table().match('POST', '/v1/operations/deposits')?.target).toBe('createDeposit');
    expect(table().match('GET', '/v1/operations/deposits')).toBeUndefined();
    expect(table().match('GET', '/v1/operations/3f1c2a4e-8b7d-4c59-9e21-6a0d5b7c8e90')?.target).toBe('getOperation');
  });

  it('says which methods a path has, by the same rules as it matches (the 405 Allow header)', () => {
    expect(table().methodsAt('/API/Accounts/')).toEqual(['GET']);
    expect(table().methodsAt('/v1/subscriptions/s-1')).toEqual(['GET', 'PATCH', 'DELETE']);
    expect(table().methodsAt('/v1/operations/deposits')).toEqual(['POST']);
    expect(table().methodsAt('/nowhere')).toEqual([]);
  });

  it('knows nothing of other methods, deeper paths or unknown ones (those are answered 404 or 405)', () => {
    expect(table().match('DELETE', '/api/accounts')).toBeUndefined();
    expect(table().match('GET', '/api/accounts/a/b')).toBeUndefined();
    expect(table().match('GET', '/nowhere')).toBeUndefined();
    expect(table().match('GET', '/_mock/health')).toBeUndefined();
  });
});
