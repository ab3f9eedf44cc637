// The HTTP server's protocol limits (mock/server.ts), on a real loopback port with raw sockets:
// a request head over the header limit is 431, a request that never finishes arriving is cut
// with 408 after the request time-out, garbage is 400; each with the Error body and an
// X-Request-Id, the connection closed, and the server still serving everyone else. Nothing
// here measures time: a time-out shows as the answer and the closed socket.
import { describe, expect, it } from '@jest/globals';
import type { Server } from 'node:http';
import { configFrom, defaultConfig, parseRateLimit } from '../../mock/config';
import { createServer, serverOptions } from '../../mock/server';
import { errorLog } from '../reliability/support/error-log';
import { useRealServer } from './real-server';
import { exchange, head, type RawExchange, type RawResponse } from '../reliability/support/raw-http';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const MAX_HEADER_BYTES = 4096;
const REQUEST_TIMEOUT_MS = 300;
const HEADERS_TIMEOUT_MS = 200;

const errors = errorLog();
const real = useRealServer({
  logger: errors.logger,
  config: { maxHeaderBytes: MAX_HEADER_BYTES, requestTimeoutMs: REQUEST_TIMEOUT_MS, headersTimeoutMs: HEADERS_TIMEOUT_MS },
});

const accountsHead = (extra: Array<[string, string | number]> = []) =>
  head('GET /api/accounts?limit=1 HTTP/1.1', [
    ['Host', 'x'],
    ['Authorization', `Bearer ${real().token}`],
    ...extra,
    ['Connection', 'close'],
  ]);

async function expectServing(): Promise<void> {
  const result = await exchange(real().port, [accountsHead()]);
  expect(result.responses.map((r) => r.status)).toEqual([200]);
}

/** The one answer of an exchange the server refused: the Error body, an X-Request-Id, the connection closed by the server. */
function refusal(result: RawExchange, status: number, code: string): RawResponse {
  if (result.timedOut) throw new Error(`waited for the server to answer ${status} and close the connection: it did neither (hang guard)`);
  expect(result.closed).toBe(true);
  expect(result.responses).toHaveLength(1);
  const response = result.responses[0]!;
  expect(response.status).toBe(status);
  expect(response.headers['x-request-id']).toMatch(UUID);
  expect(response.headers['content-type']).toMatch(/^application\/json/);
  expect(response.headers.connection).toBe('close');
  const body = JSON.parse(response.body) as { code: string; message: string };
  expect(body.code).toBe(code);
  expect(typeof body.message).toBe('string');
  return response;
}

describe('the header limit (MAX_HEADER_BYTES)', () => {
  it('a request head over the limit is answered 431 HEADERS_TOO_LARGE, and the server keeps serving', async () => {
    const result = await exchange(real().port, [accountsHead([['X-Padding', 'a'.repeat(MAX_HEADER_BYTES)]])]);
    refusal(result, 431, 'HEADERS_TOO_LARGE');
    await expectServing();
  });

  it('many small headers adding up to more than the limit are refused the same way', async () => {
    const many = Array.from({ length: 200 }, (_, i) => [`X-H${i}`, 'v'.repeat(20)] as [string, string]);
    refusal(await exchange(real().port, [accountsHead(many)]), 431, 'HEADERS_TOO_LARGE');
    await expectServing();
  });

  it('a head under the limit is served', async () => {
    const result = await exchange(real().port, [accountsHead([['X-Padding', 'a'.repeat(MAX_HEADER_BYTES / 2)]])]);
    expect(result.responses.map((r) => r.status)).toEqual([200]);
  });
});

describe('the request time-outs (REQUEST_TIMEOUT_MS, HEADERS_TIMEOUT_MS)', () => {
  it(
    'a body that never completes is cut with 408 REQUEST_TIMEOUT and the connection closed; ' + 'others are served meanwhile and after',
    async () => {
      const body = '{"clientId":"demo-client",';
      const slow = exchange(real().port, [
        head('POST /api/oauth/client/token HTTP/1.1', [
          ['Host', 'x'],
          ['Content-Type', 'application/json'],
          ['Content-Length', 200],
        ]),
        body,
      ]);
      // While the slow request hangs, other connections are answered.
      await expectServing();
      const result = await slow;
      refusal(result, 408, 'REQUEST_TIMEOUT');
      await expectServing();
    },
  );

  it('a request head that never completes is cut with 408 and the connection closed', async () => {
    const result = await exchange(real().port, ['GET /api/accounts HTTP/1.1\r\nHost: x\r\nX-Slow: ']);
    refusal(result, 408, 'REQUEST_TIMEOUT');
    await expectServing();
  });

  it('an idle keep-alive connection is closed by the server, no answer owed', async () => {
    const result = await exchange(real().port, [
      head('GET /api/accounts?limit=1 HTTP/1.1', [
        ['Host', 'x'],
        ['Authorization', `Bearer ${real().token}`],
      ]),
    ]);
    expect(result.timedOut).toBe(false);
    expect(result.closed).toBe(true);
    expect(result.responses.map((r) => r.status)).toEqual([200]);
  });
});

describe('other requests Node refuses before any route', () => {
  it('garbage instead of a request line is 400 VALIDATION_ERROR with the Error body, and the server keeps serving', async () => {
    const response = refusal(await exchange(real().port, ['GARBAGE\r\n\r\n']), 400, 'VALIDATION_ERROR');
    expect(JSON.parse(response.body).details.fields[0].field).toBe('request');
    refusal(await exchange(real().port, [Buffer.from([0x16, 0x03, 0x01, 0x00, 0xa5, 0x01, 0x00])]), 400, 'VALIDATION_ERROR');
    await expectServing();
  });

  it('an HTTP/1.1 request without a Host header is 400 VALIDATION_ERROR naming headers.host, with the Error body', async () => {
    const noHost = head('GET /api/accounts?limit=1 HTTP/1.1', [['Authorization', `Bearer ${real().token}`]]);
    const response = refusal(await exchange(real().port, [noHost]), 400, 'VALIDATION_ERROR');
    expect(JSON.parse(response.body).details.fields).toEqual([{ field: 'headers.host', message: 'is required in HTTP/1.1' }]);
    await expectServing();
  });

  it('an HTTP/1.0 request needs no Host header, and is answered', async () => {
    const result = await exchange(real().port, [head('GET /api/accounts?limit=1 HTTP/1.0', [['Authorization', `Bearer ${real().token}`]])]);
    expect(result.responses.map((r) => r.status)).toEqual([200]);
  });

  it('a pipelined request after a good one: the good one is answered first, then the refusal', async () => {
    const result = await exchange(real().port, [
      head('GET /api/accounts?limit=1 HTTP/1.1', [
        ['Host', 'x'],
        ['Authorization', `Bearer ${real().token}`],
      ]) + 'GARBAGE\r\n\r\n',
    ]);
    expect(result.responses.map((r) => r.status)).toEqual([200, 400]);
    await expectServing();
  });
});

describe('the server options', () => {
  it('apply the configured limits to the Node server', () => {
    expect((real().server as Server & { maxHeaderSize?: number }).maxHeaderSize).toBe(MAX_HEADER_BYTES);
    expect(real().server.requestTimeout).toBe(REQUEST_TIMEOUT_MS);
    expect(real().server.headersTimeout).toBe(HEADERS_TIMEOUT_MS);
    expect(real().server.keepAliveTimeout).toBe(HEADERS_TIMEOUT_MS);
  });

  it('by default: 16 KiB heads, 30 s per request, 10 s per head, 5 s idle keep-alive, swept every second', () => {
    const config = defaultConfig();
    expect([config.maxHeaderBytes, config.requestTimeoutMs, config.headersTimeoutMs, config.rateLimit]).toEqual([
      16384,
      30000,
      10000,
      null,
    ]);
    expect(serverOptions(config)).toEqual({
      maxHeaderSize: 16384,
      requestTimeout: 30000,
      headersTimeout: 10000,
      keepAliveTimeout: 5000,
      connectionsCheckingInterval: 1000,
    });
  });

  it('never give the head longer than the whole request (Node would refuse to start)', () => {
    expect(serverOptions({ maxHeaderBytes: 8192, requestTimeoutMs: 1000, headersTimeoutMs: 5000 })).toMatchObject({
      requestTimeout: 1000,
      headersTimeout: 1000,
    });
    expect(serverOptions({ maxHeaderBytes: 8192, requestTimeoutMs: 1000, headersTimeoutMs: 0 })).toMatchObject({
      requestTimeout: 1000,
      headersTimeout: 1000,
    });
    const off = serverOptions({ maxHeaderBytes: 8192, requestTimeoutMs: 0, headersTimeoutMs: 0 });
    expect(off).toMatchObject({ requestTimeout: 0, headersTimeout: 0, keepAliveTimeout: 5000 });
    const server = createServer(real().h.mock.app, { maxHeaderBytes: 8192, requestTimeoutMs: 1000, headersTimeoutMs: 5000 });
    expect(server.headersTimeout).toBe(1000);
  });
});

describe('configuration from the environment', () => {
  it('reads MAX_HEADER_BYTES, REQUEST_TIMEOUT_MS, HEADERS_TIMEOUT_MS and RATE_LIMIT', () => {
    const config = configFrom({ MAX_HEADER_BYTES: '8192', REQUEST_TIMEOUT_MS: '5000', HEADERS_TIMEOUT_MS: '0', RATE_LIMIT: '100/1s' });
    expect(config).toMatchObject({
      maxHeaderBytes: 8192,
      requestTimeoutMs: 5000,
      headersTimeoutMs: 0,
      rateLimit: { requests: 100, perMs: 1000 },
    });
    expect(configFrom({ RATE_LIMIT: 'off' }).rateLimit).toBeNull();
  });

  it.each([
    ['100/1s', { requests: 100, perMs: 1000 }],
    ['600/1m', { requests: 600, perMs: 60000 }],
    ['5/250ms', { requests: 5, perMs: 250 }],
    ['10/s', { requests: 10, perMs: 1000 }],
    ['1000/1h30m', { requests: 1000, perMs: 5400000 }],
    ['7/2000', { requests: 7, perMs: 2000 }],
    ['off', null],
    ['OFF', null],
  ])('RATE_LIMIT=%s', (value, expected) => {
    expect(parseRateLimit(value)).toEqual(expected);
  });

  it.each(['', 'on', '100', '0/1s', '10/0s', '-1/1s', '1.5/1s', '10/1x', '10/', '/1s'])(
    'RATE_LIMIT=%s stops start-up with a clear message',
    (value) => {
      expect(() => configFrom({ RATE_LIMIT: value })).toThrow(/RATE_LIMIT must be off or <requests>\/<period>/);
    },
  );

  it.each([
    ['MAX_HEADER_BYTES', '512'],
    ['MAX_HEADER_BYTES', 'lots'],
    ['REQUEST_TIMEOUT_MS', '-1'],
    ['HEADERS_TIMEOUT_MS', '1.5'],
  ])('%s=%s stops start-up', (name, value) => {
    expect(() => configFrom({ [name]: value })).toThrow(new RegExp(name));
  });
});

describe('the mock itself', () => {
  it('logged no internal error through all of the above', () => {
    expect(errors.describe()).toEqual([]);
  });
});
