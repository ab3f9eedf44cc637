// A mock on Redis that loses Redis: every request answers 503 SERVICE_UNAVAILABLE with the Error
// body and an X-Request-Id, at once (never a 500, a crash or a request that hangs); when Redis is
// back the mock reconnects by itself and serves the state it had acknowledged (the test's Redis
// syncs its append-only file on every write).
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { startMock, type RunningMock } from '../../mock/package';
import { freePort } from '../../scripts/free-port';
import { describeWithRedis, uniquePrefix } from '../support/redis-suite';
import { startRedisServer, type RedisServer } from '../support/redis-server';
import { until } from '../support/waits';

interface Answer {
  status: number;
  requestId: string | null;
  body: { code?: string; message?: string; accessToken?: string; data?: Array<{ id: string }> };
}

/**
 * A hang guard on each call: ten times the mock's 3 s Redis command time-out, the longest a
 * request may wait on a lost Redis before its 503. An answer is waited for however long a busy
 * machine takes; only a request still unanswered this long (one waiting for Redis to come back)
 * fails, saying so.
 */
const ANSWER_GUARD_MS = 30_000;

async function call(mock: RunningMock, path: string, init: RequestInit = {}): Promise<Answer> {
  const what = `${init.method ?? 'GET'} ${path}`;
  const res = await fetch(`${mock.url}${path}`, { ...init, signal: AbortSignal.timeout(ANSWER_GUARD_MS) }).catch((error: Error) => {
    if (error.name !== 'TimeoutError') throw error;
    throw new Error(`${what} got no answer after ${ANSWER_GUARD_MS} ms: it hangs (hang guard)`);
  });
  return { status: res.status, requestId: res.headers.get('x-request-id'), body: (await res.json()) as Answer['body'] };
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
  });

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
    // Each call above came back (Redis still down: none waited for it to return, see ANSWER_GUARD_MS).
    for (const answer of down) {
      expect(answer.status).toBe(503);
      expect(answer.body.code).toBe('SERVICE_UNAVAILABLE');
      expect(answer.requestId).toMatch(/^[0-9a-f-]{36}$/);
    }

    await redis.restart();
    // Asked again until the mock has reconnected by itself, however long that takes on a busy machine.
    const after = await until(
      'the mock to serve 200 again once Redis is back',
      () => call(mock, '/api/accounts?limit=5', { headers: auth }),
      (answer) => answer.status === 200,
      { pauseMs: 100 },
    );
    expect(after.body.data?.map((a) => a.id)).toEqual(before.body.data?.map((a) => a.id));
  });

  it('a Redis that cannot be reached at start-up stops startMock with one message naming it', async () => {
    const port = await freePort();
    await expect(startMock({ redisUrl: `redis://127.0.0.1:${port}` })).rejects.toThrow(
      `fos-mock: cannot reach Redis at redis://127.0.0.1:${port}`,
    );
  });
});
