// What replicas share besides records (mock/store/redis/shared-state.ts), against a real Redis:
// each step that many replicas may take at once is one atomic step there.
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { createClock } from '../../mock/clock';
import { RateLimiter } from '../../mock/http/rate-limit';
import { connectRedis, type RedisClient, RedisSharedState } from '../../mock/store/redis';
import { describeWithRedis, uniquePrefix } from '../support/redis-suite';

describeWithRedis('the shared state in Redis', (redis) => {
  let client: RedisClient;

  beforeAll(async () => {
    client = await connectRedis({ url: redis().url, name: 'shared-state-test' });
  });

  afterAll(() => {
    // The server may be stopped already (its own afterAll): close without a round trip.
    client?.disconnect();
  });

  const fresh = () => new RedisSharedState(client, uniquePrefix());

  it('twenty advances of 1 s at once move a frozen shared clock by exactly 20 s', async () => {
    const shared = fresh();
    await shared.initClock({ offset: 0, frozenAt: 1_000_000 });
    await Promise.all(Array.from({ length: 20 }, () => shared.advanceClock(1_000)));
    expect((await shared.readControl()).clock).toEqual({ offset: 0, frozenAt: 1_020_000 });
  });

  it('a second replica starting later keeps the first replica’s clock', async () => {
    const shared = fresh();
    await shared.initClock({ offset: 5, frozenAt: null });
    await shared.initClock({ offset: 99, frozenAt: 42 });
    expect((await shared.readControl()).clock).toEqual({ offset: 5, frozenAt: null });
  });

  it('a fault for 3 requests hit 10 times at once fires exactly 3 times, then is gone', async () => {
    const shared = fresh();
    await shared.faultPut('f', JSON.stringify({ id: 'f', hits: 0, remaining: 3, order: '1' }));
    const hits = await Promise.all(Array.from({ length: 10 }, () => shared.faultHit('f')));
    expect(hits.filter((hit) => hit !== null)).toHaveLength(3);
    expect(await shared.faultsList()).toEqual([]);
  });

  it('journal entries pushed one by one are read newest first once flushed', async () => {
    const shared = fresh();
    for (let i = 1; i <= 5; i++) shared.journalPush(JSON.stringify({ n: i }), 1000);
    await shared.journalFlush();
    expect((await shared.journalLatest(3)).map((json) => (JSON.parse(json) as { n: number }).n)).toEqual([5, 4, 3]);
  });

  it('the first secret written is every replica’s', async () => {
    const shared = fresh();
    expect(await shared.secret('first')).toBe('first');
    expect(await shared.secret('second')).toBe('first');
  });

  it('a shared rate-limit bucket hands out its tokens once across racing takers, and is forgotten after an hour unused', async () => {
    const prefix = uniquePrefix();
    const shared = new RedisSharedState(client, prefix);
    const clock = createClock({ start: 0, frozen: true });
    const limiter = new RateLimiter({ requests: 5, perMs: 60_000 }, clock, shared);
    const outcomes = await Promise.all(Array.from({ length: 12 }, () => limiter.takeShared('customer:c', shared)));
    expect(outcomes.filter((o) => o.ok)).toHaveLength(5);
    const ttl = await client.pttl(`${prefix}c:bucket:customer:c`);
    expect(ttl).toBeGreaterThan(59 * 60 * 1000);
    expect(ttl).toBeLessThanOrEqual(60 * 60 * 1000);
  });
});
