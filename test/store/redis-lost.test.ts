// A mock on Redis that loses Redis: every request answers 503 SERVICE_UNAVAILABLE with the Error
// body and an X-Request-Id, at once (never a 500, a crash or a request that hangs); when Redis is
// back the mock reconnects by itself and serves the state it had acknowledged (the test's Redis
// syncs its append-only file on every write).
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { startMock, type RunningMock } from '../../mock/package';
import { freePort } from '../../scripts/free-port';
import { describeWithRedis, uniquePrefix } from '../support/redis-suite';
import { startRedisServer, type RedisServer } from '../support/redis-server';

interface Answer {
  status: number;
  requestId: string | null;
  body: { code?: string; message?: string; accessToken?: string; data?: Array<{ id: string }> };
  ms: number;
}

async function call(mock: RunningMock, path: string, init: RequestInit = {}): Promise<Answer> {
  const started = Date.now();
  const res = await fetch(`${mock.url}${path}`, { ...init, signal: AbortSignal.timeout(15_000) });
  return {
    status: res.status,
    requestId: res.headers.get('x-request-id'),
    body: (await res.json()) as Answer['body'],
    ms: Date.now() - started,
  };
}

describeWithRedis('a mock whose Redis goes away', () => {
  let redis: RedisServer;
  let mock: RunningMock;
  let token: string;

  beforeAll(async () => {
    redis = await startRedisServer({ appendfsync: 'always' });
    mock = await startMock({ redisUrl: redis.url, redisPrefix: uniquePrefix(), autoSettleMs: null });
    const answer = await call(mock, '/api/oauth/client/token', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ clientId: mock.clientId, clientSecret: mock.clientSecret }),
    });
    token = answer.body.accessToken as string;
  }, 60_000);

  afterAll(async () => {
    await mock?.close();
    await redis?.stop();
  });

  it('answers 503 SERVICE_UNAVAILABLE with the Error body while Redis is down, and serves the same state once it is back', async () => {
    const auth = { authorization: `Bearer ${token}` };
    const before = await call(mock, '/api/accounts?limit=5', { headers: auth });
    expect(before.status).toBe(200);

    await redis.kill();
    const down = await Promise.all([
      call(mock, '/api/accounts?limit=5', { headers: auth }),
      call(mock, '/api/oauth/client/token', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ clientId: mock.clientId, clientSecret: mock.clientSecret }),
      }),
      call(mock, '/_mock/clock'),
      call(mock, '/no/such/path'),
    ]);
    for (const answer of down) {
      expect(answer.status).toBe(503);
      expect(answer.body.code).toBe('SERVICE_UNAVAILABLE');
      expect(answer.requestId).toMatch(/^[0-9a-f-]{36}$/);
      // Within a few seconds: the command time-out is 3 s, a closed connection fails at once.
      expect(answer.ms).toBeLessThan(5_000);
    }

    await redis.restart();
    let after: Answer | undefined;
    for (let i = 0; i < 100 && after?.status !== 200; i++) {
      after = await call(mock, '/api/accounts?limit=5', { headers: auth });
      if (after.status !== 200) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(after?.status).toBe(200);
    expect(after?.body.data?.map((a) => a.id)).toEqual(before.body.data?.map((a) => a.id));
  }, 60_000);

  it('a Redis that cannot be reached at start-up stops startMock with one message naming it', async () => {
    const port = await freePort();
    await expect(startMock({ redisUrl: `redis://127.0.0.1:${port}` })).rejects.toThrow(
      `fos-mock: cannot reach Redis at redis://127.0.0.1:${port}`,
    );
  }, 30_000);
});
