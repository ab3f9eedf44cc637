// Which bucket a request counts against (mock/http/rate-limit.ts), how many buckets are kept, and
// buckets shared by replicas (REDIS_URL), with an in-memory compare-and-set stand-in for Redis.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { ServerResponse } from 'node:http';
import { createClock } from '../../mock/clock';
import { RateLimiter, type SharedBuckets } from '../../mock/http/rate-limit';
import { CLOCK_START, DEMO, startMock, type Harness } from '../http/harness';

const TOKEN = '/api/oauth/client/token';

describe('the token call, counted per client id its body names (3 per second)', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startMock({ config: { rateLimit: { requests: 3, perMs: 1000 } } });
  });
  afterAll(() => h?.close());
  const nextSecond = () => h.mock.deps.clock.advance(1000);

  it.each([
    ['no body', undefined, 400],
    ['an empty object', {}, 400],
    ['an empty client id', { clientId: '', clientSecret: 'x' }, 400],
    ['a client id that is not a string', { clientId: 42, clientSecret: 'x' }, 400],
    ['a client id over 200 characters', { clientId: 'c'.repeat(201), clientSecret: 'x' }, 401],
  ])('a body with %s names no bucket: never 429, answered as it would be', async (_name, body, status) => {
    nextSecond();
    for (let i = 0; i < 6; i++) {
      const req = h.http.post(TOKEN);
      const res = await (body === undefined ? req : req.send(body));
      expect(res.status).toBe(status);
    }
  });

  it('a client id of exactly 200 characters has its own bucket: the 4th call in the second is 429', async () => {
    nextSecond();
    const body = { clientId: 'c'.repeat(200), clientSecret: 'x' };
    for (let i = 0; i < 3; i++) await h.http.post(TOKEN).send(body).expect(401);
    const res = await h.http.post(TOKEN).send(body).expect(429);
    expect(res.headers['retry-after']).toBe('1');
    expect(res.body).toMatchObject({ code: 'RATE_LIMITED', details: { limit: 3, periodMs: 1000, retryAfterSeconds: 1 } });
    await h.http.post(TOKEN).send(DEMO.customer1).expect(200);
  });
});

describe('how many buckets are kept', () => {
  const clock = () => createClock({ start: CLOCK_START, frozen: true });

  it('up to 10,000 buckets nothing is forgotten, not even full ones', () => {
    const c = clock();
    const limiter = new RateLimiter({ requests: 1, perMs: 1_000 }, c);
    limiter.take('a');
    c.advance(1_000);
    limiter.take('b');
    expect(limiter.trackedKeys).toBe(2);
  });

  it('a sweep that forgets little waits for the count to double before the next one', () => {
    const c = clock();
    const limiter = new RateLimiter({ requests: 1, perMs: 1_000 }, c);
    // 10,001 buckets, none full: the sweep at the 10,001st forgets nothing.
    for (let i = 0; i <= 10_000; i++) limiter.take(`k-${i}`);
    expect(limiter.trackedKeys).toBe(10_001);
    c.advance(1_000);
    // All full now, but the next sweep waits until there are more than 20,002.
    limiter.take('one-more');
    expect(limiter.trackedKeys).toBe(10_002);
  });
});

/** Redis's compare-and-set of mock/store/redis/shared-state.ts, in memory, with each call a round trip. */
class MemoryBuckets implements SharedBuckets {
  readonly values = new Map<string, string>();
  readonly writes: Array<{ name: string; ttlMs: number }> = [];
  failedWrites = 0;

  async getValue(name: string): Promise<string | null> {
    await Promise.resolve();
    return this.values.get(name) ?? null;
  }
  async casValue(name: string, expected: string | null, next: string, ttlMs: number): Promise<boolean> {
    await Promise.resolve();
    if ((this.values.get(name) ?? null) !== expected) {
      this.failedWrites++;
      return false;
    }
    this.values.set(name, next);
    this.writes.push({ name, ttlMs });
    return true;
  }
}

describe('buckets shared by replicas', () => {
  const clock = () => createClock({ start: CLOCK_START, frozen: true });

  it('two replicas hand out N tokens in all, per key, and refill on the mock clock', async () => {
    const c = clock();
    const shared = new MemoryBuckets();
    const one = new RateLimiter({ requests: 2, perMs: 1_000 }, c, shared);
    const two = new RateLimiter({ requests: 2, perMs: 1_000 }, c, shared);
    expect(await one.takeShared('a', shared)).toEqual({ ok: true });
    expect(await two.takeShared('a', shared)).toEqual({ ok: true });
    expect(await one.takeShared('a', shared)).toEqual({ ok: false, retryAfterSeconds: 1 });
    expect(await two.takeShared('b', shared)).toEqual({ ok: true });
    c.advance(500);
    expect(await two.takeShared('a', shared)).toEqual({ ok: true });
    expect(await one.takeShared('a', shared)).toEqual({ ok: false, retryAfterSeconds: 1 });
  });

  it('a bucket another replica wrote since it was read is read again: the last token is never handed out twice', async () => {
    const c = clock();
    const shared = new MemoryBuckets();
    const one = new RateLimiter({ requests: 1, perMs: 10_000 }, c, shared);
    const two = new RateLimiter({ requests: 1, perMs: 10_000 }, c, shared);
    const outcomes = await Promise.all([one.takeShared('a', shared), two.takeShared('a', shared)]);
    expect(shared.failedWrites).toBe(1);
    expect(outcomes).toEqual([{ ok: true }, { ok: false, retryAfterSeconds: 10 }]);
  });

  it('a bucket is kept as bucket:<key>, forgotten an hour (real time) after its last write, or one period if that is longer', async () => {
    const shared = new MemoryBuckets();
    await new RateLimiter({ requests: 5, perMs: 1_000 }, clock(), shared).takeShared('customer:c1', shared);
    await new RateLimiter({ requests: 5, perMs: 7_200_000 }, clock(), shared).takeShared('client:x', shared);
    expect(shared.writes).toEqual([
      { name: 'bucket:customer:c1', ttlMs: 3_600_000 },
      { name: 'bucket:client:x', ttlMs: 7_200_000 },
    ]);
  });

  it('with a shared state, a request over the limit is 429 RATE_LIMITED with Retry-After, counted in the shared bucket', async () => {
    const shared = new MemoryBuckets();
    const limiter = new RateLimiter({ requests: 1, perMs: 5_000 }, clock(), shared);
    const headers = new Map<string, string>();
    const res = { setHeader: (name: string, value: string) => headers.set(name, value) } as unknown as ServerResponse;
    await limiter.enforce({ customerId: 'c1' }, res);
    expect(shared.values.has('bucket:customer:c1')).toBe(true);
    await expect(limiter.enforce({ customerId: 'c1' }, res)).rejects.toMatchObject({
      code: 'RATE_LIMITED',
      details: { limit: 1, periodMs: 5_000, retryAfterSeconds: 5 },
    });
    expect(headers.get('Retry-After')).toBe('5');
  });
});
