// Faults injected into the service API: latency (fixed or a range), an error status, a dropped
// connection; for the next N calls or a share of them. Nothing here is timed: what a fault did
// is read from the journal, or seen in what the client got.
import { afterAll, afterEach, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { FaultRegistry, pathPattern } from '../../mock/http/faults';
import { withoutTrailingSlashes } from '../../mock/http/path-glob';
import { startMock, type Authed, type Harness } from '../http/harness';
import { control, eventually, funded } from './support';
import { within } from '../support/waits';

let h: Harness;
let api: Authed;

beforeAll(async () => {
  h = await startMock();
  api = await h.as();
});
afterEach(async () => {
  await control(h).delete('/faults').expect(204);
});
afterAll(() => h?.close());

/**
 * Holds the next timer of `ms` set through setTimeout (a fault's delay): it fires when the test
 * calls `release()`, not after any real time; other timers are untouched.
 */
function holdNextTimer(ms: number) {
  const real = globalThis.setTimeout;
  let fire: (() => void) | undefined;
  let started: () => void = () => undefined;
  const spy = jest.spyOn(globalThis, 'setTimeout').mockImplementation(((
    callback: (...args: unknown[]) => void,
    delay?: number,
    ...args: unknown[]
  ) => {
    if (delay !== ms || fire) return real(callback, delay, ...args);
    fire = () => callback(...args);
    spy.mockRestore();
    started();
    return real(() => undefined, 0);
  }) as typeof setTimeout);
  return {
    started: new Promise<void>((resolve) => (started = resolve)),
    release: () => fire!(),
    restore: () => spy.mockRestore(),
  };
}

const addFault = async (fault: Record<string, unknown>) => (await control(h).post('/faults', fault).expect(201)).body;
const journalFor = async (requestId: string) => {
  const entries = (await control(h).get('/journal').expect(200)).body.data as Array<{
    requestId: string;
    fault?: Record<string, unknown>;
    status: number;
  }>;
  return entries.find((e) => e.requestId === requestId);
};

describe('path patterns', () => {
  it.each([
    ['/v1/quotes', '/v1/quotes', true],
    ['/v1/quotes', '/v1/quotes/', true],
    ['/v1/quotes', '/v1/quotes/abc', false],
    ['/v1/operations/*', '/v1/operations/7a6b5c4d', true],
    ['/v1/operations/*', '/v1/operations/deposits', true],
    ['/v1/operations/*', '/v1/operations', false],
    ['/v1/operations/*', '/v1/operations/a/b', false],
    ['/v1/**', '/v1/subscriptions/a/executionLogs', true],
    ['/v1/subscriptions/*/executionLogs', '/v1/subscriptions/abc/executionLogs', true],
    ['/api/accounts.json', '/api/accountsXjson', false],
    ['/api/acc**', '/api/accounts/x/y', true],
    ['/v1/***/logs', '/v1/a/b/logs', true],
    ['/v1/*s', '/v1/quotes', true],
    ['/v1/*s', '/v1/quote', false],
    ['/v1/**/resend', '/v1/resend', false],
    ['/v1/**/resend', '/v1//resend', true],
    ['/', '/', true],
    ['/(a)+[b]', '/(a)+[b]', true],
  ])('%s against %s: %p', (pattern, path, matches) => {
    expect(pathPattern(pattern).test(withoutTrailingSlashes(path))).toBe(matches);
  });

  it('a pattern of many stars against a long path is decided at once (no backtracking), either way', () => {
    // A regular expression built from this pattern backtracked for seconds on 42 characters, minutes on more.
    const pattern = pathPattern('/*a*a*a*a*a*a*a*ab');
    expect(pattern.test(`/${'a'.repeat(5000)}`)).toBe(false);
    expect(pattern.test(`/${'a'.repeat(5000)}b`)).toBe(true);
    expect(pathPattern('/**a**a**a**a**a**a**b').test(`/${'a/'.repeat(3000)}`)).toBe(false);
  });

  it('a path of thousands of trailing slashes loses them by a loop, not a regular expression', () => {
    expect(withoutTrailingSlashes(`/v1/quotes${'/'.repeat(100_000)}`)).toBe('/v1/quotes');
    expect(withoutTrailingSlashes('/'.repeat(10))).toBe('/');
  });
});

describe('error faults', () => {
  it('an injected error answers its status with the Error body (INJECTED_FAULT by default) and an X-Request-Id', async () => {
    const fault = await addFault({ method: 'GET', path: '/api/accounts', error: { status: 503 } });
    const res = await api.get('/api/accounts').expect(503);
    expect(res.body).toEqual({ code: 'INJECTED_FAULT', message: expect.any(String), details: { faultId: fault.id } });
    expect(res.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(await journalFor(res.headers['x-request-id'] as string)).toMatchObject({ status: 503, fault: { id: fault.id, error: 503 } });
  });

  it('an error can carry its own code and message, and applies only to its method', async () => {
    await addFault({ method: 'POST', path: '/v1/quotes', error: { status: 422, code: 'QUOTE_EXPIRED', message: 'Too late.' } });
    await api.get('/api/accounts').expect(200);
    const res = await api
      .post('/v1/quotes', { accountId: funded.id, sourceAsset: 'BRL', targetAsset: 'BRL', sourceAmount: '1.00' })
      .expect(422);
    expect(res.body).toMatchObject({ code: 'QUOTE_EXPIRED', message: 'Too late.' });
  });

  it('a pattern with * matches one path segment', async () => {
    await addFault({ path: '/v1/operations/*', error: { status: 500 } });
    await api.get('/v1/operations/7a6b5c4d-3e2f-4a1b-9c8d-7e6f5a4b3c2d').expect(500);
    await api.get('/v1/operations').expect(200);
  });
});

describe('latency faults', () => {
  it('a fixed latency delays the request, which then answers normally; the journal records the delay', async () => {
    const fault = await addFault({ path: '/api/accounts', latencyMs: 15 });
    const res = await api.get('/api/accounts').expect(200);
    expect(res.body.data.length).toBeGreaterThan(0);
    expect(await journalFor(res.headers['x-request-id'] as string)).toMatchObject({ status: 200, fault: { id: fault.id, latencyMs: 15 } });
  });

  it('a latency range draws each delay within it', async () => {
    await addFault({ path: '/api/accounts', latencyMs: { min: 1, max: 20 } });
    for (let i = 0; i < 3; i++) {
      const res = await api.get('/api/accounts').expect(200);
      const entry = await journalFor(res.headers['x-request-id'] as string);
      expect(entry!.fault!.latencyMs).toBeGreaterThanOrEqual(1);
      expect(entry!.fault!.latencyMs).toBeLessThanOrEqual(20);
    }
  });

  it('a delayed request is still pending while a later request is answered (ordering, not time)', async () => {
    // The fault's 1000 ms delay is held by the test and let go only after the later request: the
    // order is certain on any machine, however long each step takes.
    const delay = holdNextTimer(1000);
    try {
      await addFault({ path: '/v1/reference/resources', latencyMs: 1000 });
      let slowDone = false;
      const slow = api.get('/v1/reference/resources').then((r) => {
        slowDone = true;
        return r.status;
      });
      // Once the fault has fired, the slow request is waiting out its delay.
      await within('the fault to start its delay', delay.started);
      expect((await control(h).get('/faults').expect(200)).body.data[0].hits).toBe(1);
      await api.get('/v1/reference/eventTypes').expect(200);
      expect(slowDone).toBe(false);
      delay.release();
      expect(await slow).toBe(200);
    } finally {
      delay.restore();
    }
  });

  it('latency and an error combine: the error comes after the delay', async () => {
    const fault = await addFault({ path: '/api/accounts', latencyMs: 5, error: { status: 504 } });
    const res = await api.get('/api/accounts').expect(504);
    expect(await journalFor(res.headers['x-request-id'] as string)).toMatchObject({ fault: { id: fault.id, latencyMs: 5, error: 504 } });
  });
});

describe('dropped connections', () => {
  it('a drop fault closes the connection without an answer; the journal records status 0', async () => {
    const fault = await addFault({ method: 'GET', path: '/api/accounts', drop: true, times: 1 });
    await expect(api.get('/api/accounts')).rejects.toThrow(/socket hang up|ECONNRESET/);
    const entry = await eventually(async () => {
      const found = ((await control(h).get('/journal').expect(200)).body.data as Array<{ fault?: { id: string } }>).find(
        (e) => e.fault?.id === fault.id,
      );
      expect(found).toBeDefined();
      return found;
    });
    expect(entry).toMatchObject({ method: 'GET', path: '/api/accounts', status: 0, fault: { id: fault.id, drop: true } });
    await api.get('/api/accounts').expect(200);
  });
});

describe('how often a fault fires', () => {
  it('times: the next N matching calls, then the fault removes itself', async () => {
    const fault = await addFault({ path: '/api/accounts', error: { status: 500 }, times: 2 });
    await api.get('/api/accounts').expect(500);
    expect((await control(h).get('/faults').expect(200)).body.data).toEqual([
      expect.objectContaining({ id: fault.id, remaining: 1, hits: 1 }),
    ]);
    await api.get('/api/accounts').expect(500);
    await api.get('/api/accounts').expect(200);
    expect((await control(h).get('/faults').expect(200)).body.data).toEqual([]);
    expect((await control(h).delete(`/faults/${fault.id}`).expect(404)).body.code).toBe('RESOURCE_NOT_FOUND');
  });

  it('percent 0 never fires', async () => {
    const fault = await addFault({ path: '/api/accounts', error: { status: 500 }, percent: 0 });
    for (let i = 0; i < 10; i++) await api.get('/api/accounts').expect(200);
    expect((await control(h).get('/faults').expect(200)).body.data[0]).toMatchObject({ id: fault.id, hits: 0 });
  });

  it('percent 100 always fires', async () => {
    await addFault({ path: '/api/accounts', error: { status: 500 }, percent: 100 });
    for (let i = 0; i < 10; i++) await api.get('/api/accounts').expect(500);
  });

  it('percent draws per request (a seeded draw)', async () => {
    const draws = [0.1, 0.9, 0.49, 0.5];
    const registry = new FaultRegistry(
      () => 'f',
      () => '2026-01-01T00:00:00.000Z',
      () => draws.shift() as number,
    );
    await registry.add({ path: '/x', error: { status: 500 }, percent: 50 });
    const fired: boolean[] = [];
    for (let i = 0; i < 4; i++) fired.push((await registry.take('GET', '/x')) !== undefined);
    expect(fired).toEqual([true, false, true, false]);
  });

  it('a request gets at most one fault: the oldest that matches', async () => {
    const first = await addFault({ path: '/api/accounts', error: { status: 502 } });
    await addFault({ path: '/api/**', error: { status: 503 } });
    expect((await api.get('/api/accounts').expect(502)).body.details.faultId).toBe(first.id);
  });
});

describe('managing faults', () => {
  it('lists faults oldest first, removes one, then all', async () => {
    const a = await addFault({ path: '/api/accounts', latencyMs: 1 });
    const b = await addFault({ method: 'POST', path: '/v1/quotes', error: { status: 500, message: 'down' } });
    expect(b).toMatchObject({
      method: 'POST',
      path: '/v1/quotes',
      error: { status: 500, code: 'INJECTED_FAULT', message: 'down' },
      drop: false,
      hits: 0,
    });
    expect((await control(h).get('/faults').expect(200)).body.data.map((f: { id: string }) => f.id)).toEqual([a.id, b.id]);
    await control(h).delete(`/faults/${a.id}`).expect(204);
    expect((await control(h).get('/faults').expect(200)).body.data.map((f: { id: string }) => f.id)).toEqual([b.id]);
    await control(h).delete('/faults').expect(204);
    expect((await control(h).get('/faults').expect(200)).body.data).toEqual([]);
  });

  it('refuses a fault with no effect, with both error and drop, with min above max, or aimed at /_mock', async () => {
    for (const body of [
      { path: '/api/accounts' },
      { path: '/api/accounts', drop: false },
      { path: '/api/accounts', drop: true, error: { status: 500 } },
      { path: '/api/accounts', latencyMs: { min: 10, max: 5 } },
      { path: '/api/accounts', error: { status: 200 } },
      { path: '/api/accounts', latencyMs: 1, percent: 101 },
      { path: '/_mock/health', error: { status: 500 } },
      { path: 'api/accounts', latencyMs: 1 },
    ]) {
      expect((await control(h).post('/faults', body).expect(400)).body.code).toBe('VALIDATION_ERROR');
    }
    expect((await control(h).get('/faults').expect(200)).body.data).toEqual([]);
  });

  it('faults never touch the control API', async () => {
    await addFault({ path: '/**', error: { status: 500 } });
    await control(h).get('/health').expect(200);
    await api.get('/api/accounts').expect(500);
  });
});
