// What an injected fault does to a request, seen from outside: on routes the service does not
// document (the fault middleware), what the journal records, what is refused when the fault is
// added, and that a request a fault answered or dropped never reaches its operation.
import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { startMock, type Authed, type Harness } from '../http/harness';
import { errorLog } from '../reliability/support/error-log';
import { control, eventually, funded } from './support';

let h: Harness;
let api: Authed;
const errors = errorLog();

beforeAll(async () => {
  h = await startMock({ logger: errors.logger });
  api = await h.as();
});
afterEach(async () => {
  await control(h).delete('/faults').expect(204);
});
afterAll(() => h?.close());

const addFault = async (fault: Record<string, unknown>) => (await control(h).post('/faults', fault).expect(201)).body;
const journalFor = async (requestId: string) =>
  ((await control(h).get('/journal').expect(200)).body.data as Array<{ requestId: string; fault?: unknown; status: number }>).find(
    (e) => e.requestId === requestId,
  );
const quoteBody = { accountId: funded.id, sourceAsset: 'BRL', targetAsset: 'BRL', sourceAmount: '1.00' };

describe('faults on paths the service does not document', () => {
  it('an unknown path is 404 ROUTE_NOT_FOUND until a fault on it answers its error, with the Error body and X-Request-Id', async () => {
    expect((await api.get('/v1/nothing-here').expect(404)).body.code).toBe('ROUTE_NOT_FOUND');
    const fault = await addFault({ path: '/v1/nothing-here', error: { status: 503 } });
    const res = await api.get('/v1/nothing-here').expect(503);
    expect(res.body).toEqual({
      code: 'INJECTED_FAULT',
      message: 'A fault injected through the control API.',
      details: { faultId: fault.id },
    });
    expect(res.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(await journalFor(res.headers['x-request-id'] as string)).toMatchObject({ status: 503, fault: { id: fault.id, error: 503 } });
  });

  it('a latency-only fault on an unknown path delays it, then the usual 404 is answered', async () => {
    const fault = await addFault({ path: '/v1/nothing-here', latencyMs: 3 });
    const res = await api.get('/v1/nothing-here').expect(404);
    expect(res.body.code).toBe('ROUTE_NOT_FOUND');
    expect(await journalFor(res.headers['x-request-id'] as string)).toMatchObject({ status: 404, fault: { id: fault.id, latencyMs: 3 } });
  });

  it('a method the path does not answer (405) is faulted by a fault on that method only', async () => {
    await addFault({ method: 'DELETE', path: '/api/accounts', error: { status: 502 } });
    await api.get('/api/accounts').expect(200);
    expect((await api.delete('/api/accounts').expect(502)).body.code).toBe('INJECTED_FAULT');
  });

  it('a dot in a pattern is a dot: /api/accounts.json matches itself only', async () => {
    await addFault({ path: '/api/accounts.json', error: { status: 500 } });
    await api.get('/api/accountsXjson').expect(404);
    await api.get('/api/accounts.json').expect(500);
  });
});

describe('what the journal records of a fault', () => {
  it('an error-only fault records its id and status, and no latency', async () => {
    const fault = await addFault({ path: '/api/accounts', error: { status: 503 } });
    const res = await api.get('/api/accounts').expect(503);
    expect((await journalFor(res.headers['x-request-id'] as string))!.fault).toEqual({ id: fault.id, error: 503 });
  });

  it('a fault that only waits records its id and latency, and neither an error nor a drop', async () => {
    const fault = await addFault({ path: '/api/accounts', latencyMs: { min: 4, max: 4 } });
    const res = await api.get('/api/accounts').expect(200);
    expect((await journalFor(res.headers['x-request-id'] as string))!.fault).toEqual({ id: fault.id, latencyMs: 4 });
  });
});

describe('a faulted request never reaches its operation', () => {
  it('an injected error answers before the quote is made: the same idempotency key then creates it afresh', async () => {
    await addFault({ method: 'POST', path: '/v1/quotes', error: { status: 503 }, times: 1 });
    const key = randomUUID();
    await api.post('/v1/quotes', quoteBody, key).expect(503);
    const created = await api.post('/v1/quotes', quoteBody, key).expect(201);
    expect(created.headers['x-idempotent-replayed']).toBeUndefined();
  });

  it('a dropped request makes nothing: the same idempotency key then creates the quote afresh', async () => {
    const fault = await addFault({ method: 'POST', path: '/v1/quotes', drop: true, times: 1 });
    const key = randomUUID();
    await expect(api.post('/v1/quotes', quoteBody, key)).rejects.toThrow(/socket hang up|ECONNRESET/);
    await eventually(async () => expect((await control(h).get('/faults').expect(200)).body.data).toEqual([]));
    const created = await api.post('/v1/quotes', quoteBody, key).expect(201);
    expect(created.headers['x-idempotent-replayed']).toBeUndefined();
    const dropped = ((await control(h).get('/journal').expect(200)).body.data as Array<{ fault?: { id: string } }>).filter(
      (e) => e.fault?.id === fault.id,
    );
    expect(dropped).toEqual([expect.objectContaining({ status: 0, fault: { id: fault.id, drop: true } })]);
  });
  it('a dropped delete deletes nothing: the subscription is still there', async () => {
    const url = 'https://hooks.example.com/fault-effects';
    const sub = (
      await api.post('/api/subscriptions', { url, resources: [{ name: 'OPERATION', events: ['OPERATION_COMPLETED'] }] }).expect(201)
    ).body;
    await addFault({ method: 'DELETE', path: '/v1/subscriptions/*', drop: true, times: 1 });
    await expect(api.delete(`/v1/subscriptions/${sub.id}`)).rejects.toThrow(/socket hang up|ECONNRESET/);
    expect((await api.get(`/v1/subscriptions/${sub.id}`).expect(200)).body.id).toBe(sub.id);
    await api.delete(`/v1/subscriptions/${sub.id}`).expect(204);
  });
});

describe('what a fault may be', () => {
  it.each(['/_mock', '/_mock/health', '/_mock/faults'])('a fault on %s is refused: faults apply to the service API only', async (path) => {
    const res = await control(h)
      .post('/faults', { path, error: { status: 500 } })
      .expect(400);
    expect(res.body).toMatchObject({
      code: 'VALIDATION_ERROR',
      details: { fields: [{ field: 'body.path', message: 'faults apply to the service API, not to /_mock' }] },
    });
  });

  it('a fault pattern of many stars does not hold up requests to long paths: each is answered, faulted or not', async () => {
    await addFault({ path: '/*a*a*a*a*a*a*a*ab', error: { status: 500 } });
    await api.get(`/${'a'.repeat(4000)}`).expect(404);
    await api.get(`/${'a'.repeat(4000)}b`).expect(500);
  });

  it('/_mockery is a service path like any other, and may be faulted', async () => {
    await addFault({ path: '/_mockery', error: { status: 500 } });
    await api.get('/_mockery').expect(500);
  });

  it('a latency range with min above max is refused on body.latencyMs.max; min equal to max is a fixed delay', async () => {
    const res = await control(h)
      .post('/faults', { path: '/api/accounts', latencyMs: { min: 6, max: 5 } })
      .expect(400);
    expect(res.body).toMatchObject({
      code: 'VALIDATION_ERROR',
      details: { fields: [{ field: 'body.latencyMs.max', message: 'must not be less than min' }] },
    });
    expect((await addFault({ path: '/api/accounts', latencyMs: { min: 5, max: 5 } })).latencyMs).toEqual({ min: 5, max: 5 });
  });

  it('a trailing / of the pattern is ignored', async () => {
    await addFault({ path: '/api/accounts/', error: { status: 500 } });
    await api.get('/api/accounts').expect(500);
  });
});

describe('with the control API off', () => {
  let off: Harness;
  beforeAll(async () => {
    off = await startMock({ logger: errors.logger, config: { controlApi: false } });
  });
  afterAll(() => off?.close());

  it('/_mock paths are unknown paths that a fault on /** still never touches; /_mockery is faulted', async () => {
    await off.mock.faults.add({ path: '/**', error: { status: 503 } });
    for (const path of ['/_mock', '/_mock/health', '/_mock/faults']) {
      expect([path, (await off.http.get(path)).body.code]).toEqual([path, 'ROUTE_NOT_FOUND']);
    }
    expect((await off.http.get('/_mockery').expect(503)).body.code).toBe('INJECTED_FAULT');
  });
});

it('logged no internal error (an injected fault is an answer, not a failure)', () => {
  expect(errors.describe()).toEqual([]);
});
