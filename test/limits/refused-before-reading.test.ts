// A request is refused before its body is read when the refusal does not depend on it: a body
// declared over BODY_LIMIT_BYTES is 413 at once (not 408 once the request time-out has waited for
// bytes that may never come), and a request without a valid token is 401 without its body read.
// What the client still sends after such an answer is read and discarded, so neither it nor a
// proxy in front of the mock sees a reset in place of the answer (mock/http/unread-body.ts).
// The request time-out is set far beyond the exchanges' own limit (a guard against a hang, not a
// measure: an answer that waits for the body never comes before the request time-out).
import { describe, expect, it, jest } from '@jest/globals';
import { useRealServer } from './real-server';
import { exchange, head, type RawExchange } from '../reliability/support/raw-http';
import { startRoundRobin } from '../support/round-robin';

const BODY_LIMIT_BYTES = 1024 * 1024;
const HANG_GUARD_MS = 60_000;
jest.setTimeout(2 * HANG_GUARD_MS);
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const real = useRealServer({ config: { bodyLimitBytes: BODY_LIMIT_BYTES, requestTimeoutMs: 600_000, headersTimeoutMs: 600_000 } });

/** The head of a POST that declares `length` bytes of JSON and sends none of them. */
const postHead = (path: string, length: number, extra: Array<[string, string]> = []) =>
  head(`POST ${path} HTTP/1.1`, [
    ['Host', '127.0.0.1'],
    ['Content-Type', 'application/json'],
    ['Content-Length', String(length)],
    ...extra,
  ]);

/** The one answer of an exchange, with the Error body's code. */
function answer(result: RawExchange): { status: number; code: string; requestId?: string } {
  expect(result.timedOut).toBe(false);
  expect(result.responses).toHaveLength(1);
  const response = result.responses[0]!;
  return {
    status: response.status,
    code: (JSON.parse(response.body) as { code: string }).code,
    requestId: response.headers['x-request-id'],
  };
}

describe('a body declared over the limit', () => {
  const auth = (): Array<[string, string]> => [
    ['Authorization', `Bearer ${real().token}`],
    ['X-Idempotency-Key', 'k-413'],
  ];

  it('is refused at once with 413 PAYLOAD_TOO_LARGE and an X-Request-Id; the connection closes when the body never comes', async () => {
    const result = await exchange(real().port, [postHead('/v1/quotes', 10 * BODY_LIMIT_BYTES, auth())], HANG_GUARD_MS);
    expect(answer(result)).toEqual({ status: 413, code: 'PAYLOAD_TOO_LARGE', requestId: expect.stringMatching(UUID) });
    expect(result.closed).toBe(true);
  });

  it('on the token call too, which takes no token', async () => {
    const result = await exchange(real().port, [postHead('/api/oauth/client/token', BODY_LIMIT_BYTES + 1)], HANG_GUARD_MS);
    expect(answer(result)).toMatchObject({ status: 413, code: 'PAYLOAD_TOO_LARGE' });
  });

  it('sent whole anyway, is discarded, and the connection answers the next request', async () => {
    const declared = BODY_LIMIT_BYTES + 1024;
    const health = head('GET /_mock/health HTTP/1.1', [
      ['Host', '127.0.0.1'],
      ['Connection', 'close'],
    ]);
    const result = await exchange(
      real().port,
      [postHead('/v1/quotes', declared, auth()), Buffer.alloc(declared, 0x20), health],
      HANG_GUARD_MS,
    );
    expect(result.error).toBeUndefined();
    expect(result.responses.map((r) => r.status)).toEqual([413, 200]);
  });

  it('through a proxy still writing the body upstream, reaches the client as 413, not as a reset', async () => {
    const proxy = await startRoundRobin([`http://127.0.0.1:${real().port}`]);
    try {
      for (let i = 0; i < 5; i++) {
        const res = await fetch(`${proxy.url}/v1/quotes`, {
          method: 'POST',
          headers: { authorization: `Bearer ${real().token}`, 'x-idempotency-key': `k-proxy-${i}`, 'content-type': 'application/json' },
          body: JSON.stringify({ pad: 'x'.repeat(BODY_LIMIT_BYTES + 1024) }),
        });
        expect(res.status).toBe(413);
        expect(((await res.json()) as { code: string }).code).toBe('PAYLOAD_TOO_LARGE');
      }
    } finally {
      await proxy.close();
    }
  });
});

describe('a request without a valid token', () => {
  it('is answered 401 UNAUTHORIZED without waiting for the body it declared', async () => {
    const result = await exchange(real().port, [postHead('/v1/quotes', 100, [['Connection', 'close']])], HANG_GUARD_MS);
    expect(answer(result)).toMatchObject({ status: 401, code: 'UNAUTHORIZED' });
  });

  it('with a forged token, likewise', async () => {
    const forged: Array<[string, string]> = [
      ['Authorization', 'Bearer a.b.c'],
      ['Connection', 'close'],
    ];
    const result = await exchange(real().port, [postHead('/v1/quotes', 100, forged)], HANG_GUARD_MS);
    expect(answer(result)).toMatchObject({ status: 401, code: 'UNAUTHORIZED' });
  });
});

describe('a request with a valid token and a body within the limit', () => {
  it('is read and answered as before', async () => {
    const body = JSON.stringify({ accountId: 'not-a-uuid', sourceAsset: 'BRL', targetAsset: 'USDT', sourceAmount: '1.00' });
    const headers: Array<[string, string]> = [
      ['Authorization', `Bearer ${real().token}`],
      ['X-Idempotency-Key', 'k-ok'],
      ['Connection', 'close'],
    ];
    const result = await exchange(real().port, [postHead('/v1/quotes', Buffer.byteLength(body), headers) + body], HANG_GUARD_MS);
    expect(answer(result)).toMatchObject({ status: 400, code: 'VALIDATION_ERROR' });
  });
});
