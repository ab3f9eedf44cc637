// The checking client itself, against a fake server that answers what each test tells it: a
// response that breaks the document fails the call, drift fails against a mock and is only
// recorded otherwise, and requests find their operation by method and path template.
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { ApiClient, ContractViolation, findOperation } from './support/client';
import type { RunRecord } from './support/run';
import { contract } from './support/target';

interface Answer {
  status: number;
  headers?: Record<string, string>;
  body?: string;
}

let server: Server;
let baseUrl: string;
let next: Answer;
const records: RunRecord[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(next.status, next.headers ?? {});
      res.end(next.body);
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const client = (driftFails: boolean) =>
  new ApiClient({ baseUrl, contract: contract(), file: 'client.test.ts', driftFails, record: (r) => void records.push(r) });
const json = (status: number, body: unknown, headers: Record<string, string> = {}): Answer => ({
  status,
  headers: { 'content-type': 'application/json', 'x-request-id': randomUUID(), ...headers },
  body: JSON.stringify(body),
});
const page = (data: unknown[] = []) => ({ data, meta: { previousCursor: null, nextCursor: null, total: data.length } });
const call = (driftFails = true) => client(driftFails).get('/v1/subscriptions', { auth: 'Bearer x' });

describe('finding the operation', () => {
  it('When a concrete path and a template both fit, then the concrete path wins', () => {
    expect(findOperation(contract(), 'POST', '/v1/operations/deposits')?.operationId).toBe('createDeposit');
    expect(findOperation(contract(), 'GET', `/v1/operations/${randomUUID()}`)?.operationId).toBe('getOperation');
    expect(
      findOperation(contract(), 'POST', `/v1/subscriptions/${randomUUID()}/executionLogs/${randomUUID()}/resend?x=1`)?.operationId,
    ).toBe('resendExecutionLog');
    expect(findOperation(contract(), 'PUT', '/api/accounts')).toBeUndefined();
  });

  it('When a request names no operation of the document, then the client refuses to send it', async () => {
    await expect(client(true).get('/v1/nothing-here', { auth: 'none' })).rejects.toThrow(/not an operation of the document/);
  });
});

describe('checking every response', () => {
  it('When the answer matches the document, then the call returns it and records (operationId, status)', async () => {
    next = json(200, page());
    const res = await call();
    expect(res).toMatchObject({ operationId: 'listSubscriptions', status: 200, body: page() });
    expect(records.at(-1)).toEqual({ kind: 'call', file: 'client.test.ts', operationId: 'listSubscriptions', status: 200 });
  });

  it.each<[string, Answer, RegExp]>([
    ['a status the operation does not document', json(418, { code: 'TEAPOT', message: 'no' }), /status 418 is not documented/],
    [
      'no X-Request-Id',
      { status: 200, headers: { 'content-type': 'application/json' }, body: JSON.stringify(page()) },
      /X-Request-Id must be a uuid/,
    ],
    ['an X-Request-Id that is not a uuid', json(200, page(), { 'x-request-id': 'req-1' }), /X-Request-Id must be a uuid/],
    [
      'a body that is not JSON',
      { status: 200, headers: { 'content-type': 'text/html', 'x-request-id': randomUUID() }, body: '<html>' },
      /must be JSON/,
    ],
    ['a body missing a required field', json(200, { data: [] }), /body.*meta/],
    ['an error without its code', json(400, { message: 'bad' }), /code/],
    ['X-Idempotent-Replayed other than true', json(200, page(), { 'x-idempotent-replayed': 'yes' }), /X-Idempotent-Replayed/],
  ])('When the answer has %s, then the call fails as a contract violation', async (_name, answer, message) => {
    next = answer;
    const error = await call().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ContractViolation);
    expect((error as Error).message).toMatch(message);
    expect(records.at(-1)).toMatchObject({ kind: 'violation', operationId: 'listSubscriptions' });
  });

  it('When the answer drifts (an unknown field) and the target is a mock, then the call fails', async () => {
    next = json(200, { ...page(), extra: 1 });
    await expect(call(true)).rejects.toThrow(/drift: body.extra is not a known field/);
  });

  it('When the answer drifts and the target is not a mock, then the call passes and the drift is recorded', async () => {
    next = json(
      200,
      page([
        {
          id: randomUUID(),
          companyId: 'c',
          url: 'https://h.example.com',
          resources: [],
          allowRetry: false,
          createdAt: '2026-01-01T00:00:00Z',
          updatedAt: '2026-01-01T00:00:00Z',
          colour: 'blue',
        },
      ]),
    );
    const res = await call(false);
    expect(res.status).toBe(200);
    expect(records.at(-1)).toMatchObject({ kind: 'drift', operationId: 'listSubscriptions', field: 'body.data.0.colour' });
  });
});
