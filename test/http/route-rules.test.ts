// Route-table rules for templated paths (any case; literal parts match only themselves) and the
// rule that only a replay is marked X-Idempotent-Replayed.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { RouteTable } from '../../mock/http/route-table';
import type { OperationContract } from '../../spec/contract';
import { contract, startMock, type Authed, type Harness } from './harness';

const table = () => new RouteTable(contract().operations.map((op) => ({ op, target: op.operationId })));

describe('templated routes', () => {
  it('match in any case, as Express’s router does', () => {
    expect(table().match('GET', '/V1/Subscriptions/s-1/EXECUTIONLOGS')).toMatchObject({
      target: 'listExecutionLogs',
      params: { subscriptionId: 's-1' },
    });
  });

  it('match their literal parts only as written, even parts with pattern characters', () => {
    const op = { method: 'get', path: '/v1/files.json/{fileId}', operationId: 'getFile' } as unknown as OperationContract;
    const routes = new RouteTable([{ op, target: 'getFile' }]);
    expect(routes.match('GET', '/v1/files.json/f-1')).toMatchObject({ target: 'getFile', params: { fileId: 'f-1' } });
    expect(routes.match('GET', '/v1/filesXjson/f-1')).toBeUndefined();
  });
});

describe('X-Idempotent-Replayed', () => {
  let h: Harness;
  let api: Authed;
  beforeAll(async () => {
    h = await startMock();
    api = await h.as();
  });
  afterAll(() => h?.close());

  it('is on a replay only: not on a read, a first request or a refused request', async () => {
    const read = await api.get('/api/accounts').expect(200);
    expect(read.headers['x-idempotent-replayed']).toBeUndefined();
    const refused = await h.http.get('/api/accounts').expect(401);
    expect(refused.headers['x-idempotent-replayed']).toBeUndefined();
    const body = { url: 'https://hooks.example.com/replay', resources: [{ name: 'OPERATION', events: ['OPERATION_REQUESTED'] }] };
    const key = randomUUID();
    const first = await api.post('/api/subscriptions', body, key).expect(201);
    expect(first.headers['x-idempotent-replayed']).toBeUndefined();
    const replay = await api.post('/api/subscriptions', body, key).expect(201);
    expect(replay.headers['x-idempotent-replayed']).toBe('true');
    expect(replay.body).toEqual(first.body);
  });
});
