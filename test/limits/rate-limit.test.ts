// The optional per-customer rate limit (mock/http/rate-limit.ts; RATE_LIMIT, off by default):
// 429 RATE_LIMITED with Retry-After, the Error body and X-Request-Id, per customer, on the
// mock clock (tests move time, they never sleep), and documented on every operation.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { createClock } from '../../mock/clock';
import { RateLimiter } from '../../mock/http/rate-limit';
import { CLOCK_START, contract, DEMO, startMock, type Harness } from '../http/harness';
import { demo } from '../http/fixture-ids';
import { errorLog } from '../reliability/support/error-log';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const d = demo();
const account = d.funded(d.c1.id);
const quoteBody = { accountId: account.id, sourceAsset: 'BRL', targetAsset: 'BRL', sourceAmount: '1.00' };

describe('off by default', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startMock();
  });
  afterAll(() => h?.close());

  it('the default configuration has no rate limit', () => {
    expect(h.mock.deps.config.rateLimit).toBeNull();
  });

  it('many requests of one customer at one mock instant are never 429', async () => {
    const api = await h.as();
    const statuses = new Set<number>();
    for (let i = 0; i < 60; i++) statuses.add((await api.get('/api/accounts?limit=1')).status);
    for (let i = 0; i < 20; i++) statuses.add((await h.http.post('/api/oauth/client/token').send(DEMO.customer1)).status);
    expect([...statuses]).toEqual([200]);
  });
});

describe('on, with 3 requests per second', () => {
  let h: Harness;
  const errors = errorLog();
  beforeAll(async () => {
    // Strict response validation is on in the harness: a 429 the document did not allow would be a 500.
    h = await startMock({ logger: errors.logger, config: { rateLimit: { requests: 3, perMs: 1000 } } });
    await h.token('customer1');
    await h.token('customer2');
  });
  afterAll(() => h?.close());

  /** A fresh second of mock time: every bucket is full again. */
  const nextSecond = () => h.mock.deps.clock.advance(1000);

  it('the 4th request in the second is 429 RATE_LIMITED with Retry-After, the Error body and X-Request-Id', async () => {
    nextSecond();
    const api = await h.as();
    for (let i = 0; i < 3; i++) await api.get('/api/accounts?limit=1').expect(200);
    const res = await api.get('/api/accounts?limit=1').expect(429);
    expect(res.headers['retry-after']).toBe('1');
    expect(res.headers['x-request-id']).toMatch(UUID);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.body).toEqual({
      code: 'RATE_LIMITED',
      message: expect.any(String),
      details: { limit: 3, periodMs: 1000, retryAfterSeconds: 1 },
    });
    expect(
      contract()
        .byId.get('listAccounts')!
        .checkResponse(429, { 'x-request-id': res.headers['x-request-id'], 'retry-after': res.headers['retry-after'] }, res.body),
    ).toEqual({ errors: [], drift: [] });
  });

  it('another customer is not limited by the first one’s requests', async () => {
    nextSecond();
    const one = await h.as('customer1');
    const two = await h.as('customer2');
    for (let i = 0; i < 3; i++) await one.get('/v1/operations?limit=1').expect(200);
    await one.get('/v1/operations?limit=1').expect(429);
    for (let i = 0; i < 3; i++) await two.get('/v1/operations?limit=1').expect(200);
    await two.get('/v1/operations?limit=1').expect(429);
  });

  it('advancing the mock clock by 1 s lets requests through again, 3 more', async () => {
    nextSecond();
    const api = await h.as();
    for (let i = 0; i < 3; i++) await api.get('/v1/reference/resources').expect(200);
    await api.get('/v1/reference/resources').expect(429);
    // A third of the period gives one request back; the next waits again, and Retry-After says so.
    h.mock.deps.clock.advance(334);
    await api.get('/v1/reference/resources').expect(200);
    expect((await api.get('/v1/reference/resources').expect(429)).headers['retry-after']).toBe('1');
    h.mock.deps.clock.advance(1000);
    for (let i = 0; i < 3; i++) await api.get('/v1/reference/resources').expect(200);
    await api.get('/v1/reference/resources').expect(429);
  });

  it('every operation counts, reads and writes alike, and so does an invalid request', async () => {
    nextSecond();
    const api = await h.as();
    await api.post('/v1/quotes', quoteBody).expect(201);
    await api.get('/v1/quotes/not-a-uuid').expect(400);
    await api.get('/api/accounts?limit=1').expect(200);
    await api.post('/v1/quotes', quoteBody).expect(429);
  });

  it('a request refused with 429 does not burn its idempotency key: the same key goes through later', async () => {
    nextSecond();
    const api = await h.as();
    for (let i = 0; i < 3; i++) await api.get('/api/accounts?limit=1').expect(200);
    const key = randomUUID();
    await api.post('/v1/quotes', quoteBody, key).expect(429);
    nextSecond();
    const created = await api.post('/v1/quotes', quoteBody, key).expect(201);
    expect(created.headers['x-idempotent-replayed']).toBeUndefined();
    const replay = await api.post('/v1/quotes', quoteBody, key).expect(201);
    expect(replay.headers['x-idempotent-replayed']).toBe('true');
    expect(replay.body.id).toBe(created.body.id);
  });

  it('an unauthenticated request is 401, not counted against anyone', async () => {
    nextSecond();
    for (let i = 0; i < 5; i++) await h.http.get('/api/accounts').expect(401);
    const api = await h.as();
    for (let i = 0; i < 3; i++) await api.get('/api/accounts?limit=1').expect(200);
  });

  it('the token call is counted per client id, apart from the customer’s requests', async () => {
    nextSecond();
    for (let i = 0; i < 3; i++) await h.http.post('/api/oauth/client/token').send(DEMO.customer1).expect(200);
    const res = await h.http.post('/api/oauth/client/token').send(DEMO.customer1).expect(429);
    expect(res.headers['retry-after']).toBe('1');
    expect(res.body.code).toBe('RATE_LIMITED');
    // A wrong secret for the same client id is refused before the credentials are checked.
    await h.http
      .post('/api/oauth/client/token')
      .send({ ...DEMO.customer1, clientSecret: 'guess' })
      .expect(429);
    // Another client id has its own bucket; an unknown one too (and is then 401).
    await h.http.post('/api/oauth/client/token').send(DEMO.customer2).expect(200);
    await h.http.post('/api/oauth/client/token').send({ clientId: 'nobody', clientSecret: 'x' }).expect(401);
    // The customer's API requests have their own bucket.
    const api = await h.as('customer1');
    for (let i = 0; i < 3; i++) await api.get('/api/accounts?limit=1').expect(200);
  });

  it('the control API is never limited', async () => {
    nextSecond();
    for (let i = 0; i < 10; i++) await h.http.get('/_mock/health').expect(200);
    expect((await h.http.get('/_mock/config').expect(200)).body.rateLimit).toEqual({ requests: 3, perMs: 1000 });
  });

  it('logged no internal error (a 429 is an answer, not a failure)', () => {
    expect(errors.describe()).toEqual([]);
  });
});

describe('the document', () => {
  it('documents 429 TooManyRequests, with X-Request-Id and Retry-After, on every operation', () => {
    for (const op of contract().operations) {
      const response = op.responses.get('429');
      expect([op.operationId, response?.requiredHeaders.sort()]).toEqual([op.operationId, ['retry-after', 'x-request-id']]);
    }
    const doc = contract().document as unknown as { components: { responses: Record<string, Record<string, unknown>> } };
    expect(doc.components.responses.TooManyRequests!['x-assumption']).toMatch(/off by default/);
  });
});

describe('the token bucket', () => {
  const clock = () => createClock({ start: CLOCK_START, frozen: true });

  it('gives a burst of N, then one back every period / N; Retry-After is the whole seconds until the next, at least 1', () => {
    const c = clock();
    const limiter = new RateLimiter({ requests: 1, perMs: 10_000 }, c);
    expect(limiter.take('a')).toEqual({ ok: true });
    expect(limiter.take('a')).toEqual({ ok: false, retryAfterSeconds: 10 });
    c.advance(4_000);
    expect(limiter.take('a')).toEqual({ ok: false, retryAfterSeconds: 6 });
    c.advance(5_500);
    expect(limiter.take('a')).toEqual({ ok: false, retryAfterSeconds: 1 });
    c.advance(500);
    expect(limiter.take('a')).toEqual({ ok: true });
  });

  it('refills continuously, never above N, with exact arithmetic', () => {
    const c = clock();
    const limiter = new RateLimiter({ requests: 3, perMs: 1_000 }, c);
    for (let i = 0; i < 3; i++) expect(limiter.take('a').ok).toBe(true);
    expect(limiter.take('a').ok).toBe(false);
    c.advance(333);
    expect(limiter.take('a').ok).toBe(false);
    c.advance(1);
    expect(limiter.take('a').ok).toBe(true);
    c.advance(86_400_000);
    for (let i = 0; i < 3; i++) expect(limiter.take('a').ok).toBe(true);
    expect(limiter.take('a').ok).toBe(false);
  });

  it('keeps keys apart and gives nothing back when the mock clock is set back', () => {
    const c = clock();
    const limiter = new RateLimiter({ requests: 2, perMs: 1_000 }, c);
    expect([limiter.take('a').ok, limiter.take('a').ok, limiter.take('a').ok]).toEqual([true, true, false]);
    expect(limiter.take('b').ok).toBe(true);
    c.freeze(CLOCK_START - 60_000);
    expect(limiter.take('a').ok).toBe(false);
    c.advance(500);
    expect(limiter.take('a').ok).toBe(true);
  });

  it('forgets full buckets once there are many (a full bucket is the same as none), and still limits the busy ones', () => {
    const c = clock();
    const limiter = new RateLimiter({ requests: 1, perMs: 1_000 }, c);
    for (let i = 0; i < 10_000; i++) limiter.take(`idle-${i}`);
    expect(limiter.trackedKeys).toBe(10_000);
    c.advance(1_000);
    expect(limiter.take('busy').ok).toBe(true);
    expect(limiter.trackedKeys).toBe(1);
    expect(limiter.take('busy').ok).toBe(false);
    expect(limiter.take('idle-5').ok).toBe(true);
    expect(limiter.take('idle-5').ok).toBe(false);
  });
});
