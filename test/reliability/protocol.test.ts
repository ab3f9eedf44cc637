// Raw protocol abuse over net sockets against the mock on a real port: truncated and lying
// bodies, a 10 MiB body, a thousand headers, a slow sender, invalid JSON, chunked framing. After
// each, the server still answers a normal request on another connection; no answer is ever a
// 5xx or carries a stack trace; every answer the app itself gives has the Error body and an
// X-Request-Id.
import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import { startMock, type Harness } from '../http/harness';
import { demo } from '../http/fixture-ids';
import { STACK } from './support/checks';
import { report, size } from './support/env';
import { errorLog } from './support/error-log';
import { exchange, head, type RawExchange, type RawResponse } from './support/raw-http';

/** How long the slow sender dribbles its request, a byte every 50 ms. */
const SLOW_MS = size('RELIABILITY_SLOW_SENDER_MS', 1500);
const HEADER_COUNT = size('RELIABILITY_HEADER_COUNT', 1000);

const d = demo();
let h: Harness;
let server: Server;
let port: number;
let token: string;
const errors = errorLog();
const stats: Record<string, number | string> = { exchanges: 0, bytesSent: 0, healthChecks: 0 };
const outcome = (result: RawExchange) =>
  result.responses.length > 0 ? String(result.responses[0]!.status) : result.closed ? 'closed' : 'open';

beforeAll(async () => {
  h = await startMock({ logger: errors.logger });
  token = await h.token();
  server = createServer(h.mock.app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await h.close();
  report('protocol.test.ts', { ...stats, slowSenderMs: SLOW_MS, headers: HEADER_COUNT });
});

// After every abuse, the server answers a normal request from another connection.
afterEach(async () => {
  await expectHealthy();
});

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

async function expectHealthy(): Promise<void> {
  const result = await play([
    head('GET /api/accounts?limit=1 HTTP/1.1', [
      ['Host', 'x'],
      ['Authorization', `Bearer ${token}`],
      ['Connection', 'close'],
    ]),
  ]);
  expect(result.responses.map((r) => r.status)).toEqual([200]);
  (stats.healthChecks as number)++;
}

/**
 * Plays the steps and waits for the end of the exchange: the server closes the connection (every
 * exchange here asks for that, or makes the server do it) or the steps destroy it. What came back
 * is then all there is to check; an exchange still open at the hang guard fails saying so.
 */
async function play(steps: Parameters<typeof exchange>[1]): Promise<RawExchange> {
  for (const step of steps) if (typeof step === 'string' || Buffer.isBuffer(step)) (stats.bytesSent as number) += Buffer.byteLength(step);
  (stats.exchanges as number)++;
  const result = await exchange(port, steps);
  if (result.timedOut)
    throw new Error(`the server neither closed the connection nor was it destroyed (hang guard); got: ${result.raw.slice(0, 300)}`);
  expectNoServerError(result);
  return result;
}

/** Whatever came back: no 5xx, no stack trace; the app's own answers carry X-Request-Id and the Error body. */
function expectNoServerError(result: RawExchange): void {
  expect(result.raw).not.toMatch(/^HTTP\/1\.[01] 5\d\d/m);
  expect(result.raw).not.toMatch(STACK);
  for (const response of result.responses) {
    expect(response.status).toBeLessThan(500);
    const fromApp = response.headers['x-request-id'] !== undefined;
    if (fromApp) {
      expect(response.headers['x-request-id']).toMatch(UUID);
      if (response.status >= 400) expectErrorBody(response);
    } else {
      // Node's own HTTP parser refused the bytes before the app saw them.
      expect([400, 413, 431]).toContain(response.status);
    }
  }
}

function expectErrorBody(response: RawResponse, code?: string): void {
  const body = JSON.parse(response.body) as { code: unknown; message: unknown };
  expect(typeof body.code).toBe('string');
  expect(typeof body.message).toBe('string');
  if (code) expect(body.code).toBe(code);
}

const tokenBody = JSON.stringify({ clientId: d.c1.clientId, clientSecret: d.c1.clientSecret });
const tokenHead = (length: number | undefined, extra: Array<[string, string | number]> = []) =>
  head('POST /api/oauth/client/token HTTP/1.1', [
    ['Host', 'x'],
    ['Content-Type', 'application/json'],
    ...(length === undefined ? [] : ([['Content-Length', length]] as Array<[string, number]>)),
    ...extra,
  ]);
const quoteHead = (extra: Array<[string, string | number]>) =>
  head('POST /v1/quotes HTTP/1.1', [
    ['Host', 'x'],
    ['Authorization', `Bearer ${token}`],
    ['X-Idempotency-Key', randomUUID()],
    ['Content-Type', 'application/json'],
    ...extra,
  ]);

describe('bodies that are not what their headers say', () => {
  it('a truncated body (Content-Length larger than sent, then the client closes) leaves the server serving', async () => {
    const result = await play([tokenHead(tokenBody.length + 100), tokenBody, 'end']);
    // The client is gone: the answer, if any, is a 400 "not received whole", never a 5xx.
    for (const r of result.responses) expect(r.status).toBe(400);
  });

  it('a truncated body followed by a reset connection leaves the server serving', async () => {
    await play([tokenHead(10_000), tokenBody.slice(0, 10), { wait: 50 }, 'destroy']);
  });

  it('a Content-Length smaller than the body: the cut body is answered 400, the tail is refused as a bad next request', async () => {
    const body = JSON.stringify({ accountId: d.funded(d.c1.id).id, sourceAsset: 'BRL', targetAsset: 'BRL', sourceAmount: '1.00' });
    // The tail arrives after the app answered the first five bytes: it is parsed as the next request.
    const result = await play([quoteHead([['Content-Length', 5]]), body.slice(0, 5), { wait: 100 }, body.slice(5)]);
    expect(result.responses[0]?.status).toBe(400);
    expectErrorBody(result.responses[0]!, 'VALIDATION_ERROR');
    for (const r of result.responses.slice(1)) expect(r.status).toBe(400);
    // Sent in one write, Node's parser may refuse the tail (400, close) before the app answers: still never a 5xx.
    const atOnce = await play([quoteHead([['Content-Length', 5]]) + body]);
    for (const r of atOnce.responses) expect(r.status).toBe(400);
  });

  it('invalid JSON with a correct Content-Length is 400 VALIDATION_ERROR naming the body', async () => {
    for (const bad of ['{"clientId": "demo-client", ', "{'a':1}", '{"a":1}}', '\u0000\u0001', 'true false']) {
      const result = await play([tokenHead(Buffer.byteLength(bad), [['Connection', 'close']]), bad]);
      expect(result.responses).toHaveLength(1);
      expect(result.responses[0]!.status).toBe(400);
      expectErrorBody(result.responses[0]!, 'VALIDATION_ERROR');
      expect(JSON.parse(result.responses[0]!.body).details.fields[0].field).toBe('body');
    }
  });

  it('bytes that are not UTF-8 inside a JSON string are refused with a 4xx', async () => {
    const body = Buffer.concat([Buffer.from('{"clientId":"'), Buffer.from([0xff, 0xfe, 0xc3, 0x28]), Buffer.from('","clientSecret":"x"}')]);
    const result = await play([tokenHead(body.length, [['Connection', 'close']]), body]);
    expect(result.responses).toHaveLength(1);
    expect(result.responses[0]!.status).toBeGreaterThanOrEqual(400);
  });

  it('both Content-Length and Transfer-Encoding (request smuggling) are refused', async () => {
    const result = await play([
      tokenHead(tokenBody.length, [
        ['Transfer-Encoding', 'chunked'],
        ['Connection', 'close'],
      ]),
      `${tokenBody.length.toString(16)}\r\n${tokenBody}\r\n0\r\n\r\n`,
    ]);
    expect(result.responses.every((r) => r.status === 400)).toBe(true);
  });
});

describe('size limits', () => {
  const TEN_MIB = 10 * 1024 * 1024;

  it('a 10 MiB body with its Content-Length is answered 413 (or the connection closed), never a hang', async () => {
    const body = Buffer.alloc(TEN_MIB, 0x20);
    const result = await play([tokenHead(TEN_MIB, [['Connection', 'close']]), body]);
    stats.tenMiB = outcome(result);
    expect(result.timedOut).toBe(false);
    if (result.responses.length > 0) {
      expect(result.responses[0]!.status).toBe(413);
      expectErrorBody(result.responses[0]!, 'PAYLOAD_TOO_LARGE');
    } else {
      expect(result.closed).toBe(true);
    }
  });

  it('a 10 MiB chunked body (no Content-Length) is answered 413 (or the connection closed), never a hang', async () => {
    const chunk = Buffer.alloc(1024 * 1024, 0x20);
    const chunks: Buffer[] = [];
    for (let i = 0; i < 10; i++) chunks.push(Buffer.from(`${chunk.length.toString(16)}\r\n`), chunk, Buffer.from('\r\n'));
    chunks.push(Buffer.from('0\r\n\r\n'));
    const result = await play([
      tokenHead(undefined, [
        ['Transfer-Encoding', 'chunked'],
        ['Connection', 'close'],
      ]),
      ...chunks,
    ]);
    stats.tenMiBChunked = outcome(result);
    expect(result.timedOut).toBe(false);
    if (result.responses.length > 0) {
      expect(result.responses[0]!.status).toBe(413);
      expectErrorBody(result.responses[0]!, 'PAYLOAD_TOO_LARGE');
    } else {
      expect(result.closed).toBe(true);
    }
  });

  it(`${HEADER_COUNT} headers are served or refused with 431, never a 5xx`, async () => {
    const many: Array<[string, string]> = Array.from({ length: HEADER_COUNT }, (_, i) => [`X-Filler-${i}`, 'v']);
    const result = await play([
      head('GET /api/accounts?limit=1 HTTP/1.1', [['Host', 'x'], ['Authorization', `Bearer ${token}`], ...many, ['Connection', 'close']]),
    ]);
    stats.manyHeaders = outcome(result);
    expect(result.responses).toHaveLength(1);
    expect([200, 431]).toContain(result.responses[0]!.status);
  });

  it(`${HEADER_COUNT} long headers (over Node's 16 KiB header limit) are refused with 431, never a 5xx`, async () => {
    const many: Array<[string, string]> = Array.from({ length: HEADER_COUNT }, (_, i) => [`X-Filler-${i}`, 'v'.repeat(64)]);
    const result = await play([
      head('GET /api/accounts?limit=1 HTTP/1.1', [['Host', 'x'], ['Authorization', `Bearer ${token}`], ...many, ['Connection', 'close']]),
    ]);
    expect(result.responses.map((r) => r.status)).toEqual([431]);
  });
});

describe('slow and chunked senders', () => {
  it(
    `a sender dribbling a byte every 50 ms for ${SLOW_MS} ms does not stop the server answering others meanwhile, ` +
      'and is served when it finishes',
    async () => {
      const request = tokenHead(tokenBody.length, [['Connection', 'close']]) + tokenBody;
      const dribbled = Math.min(Math.floor(SLOW_MS / 50), request.length - 1);
      const steps: Parameters<typeof exchange>[1] = [];
      for (let i = 0; i < dribbled; i++) steps.push(request[i]!, { wait: 50 });
      steps.push(request.slice(dribbled));
      const slow = play(steps);
      // While it dribbles, other connections are served.
      for (let i = 0; i < 5; i++) await expectHealthy();
      const result = await slow;
      expect(result.responses.map((r) => r.status)).toEqual([200]);
    },
  );

  it('a well-formed chunked JSON body is parsed like any other', async () => {
    const parts = [tokenBody.slice(0, 7), tokenBody.slice(7, 20), tokenBody.slice(20)];
    const framed = parts.map((p) => `${Buffer.byteLength(p).toString(16)}\r\n${p}\r\n`).join('') + '0\r\n\r\n';
    const result = await play([
      tokenHead(undefined, [
        ['Transfer-Encoding', 'chunked'],
        ['Connection', 'close'],
      ]),
      framed,
    ]);
    expect(result.responses.map((r) => r.status)).toEqual([200]);
    expect(JSON.parse(result.responses[0]!.body).tokenType).toBe('Bearer');
  });

  it('a chunked body that is not JSON is 400 VALIDATION_ERROR', async () => {
    const result = await play([
      tokenHead(undefined, [
        ['Transfer-Encoding', 'chunked'],
        ['Connection', 'close'],
      ]),
      '5\r\n{"a":\r\n0\r\n\r\n',
    ]);
    expect(result.responses.map((r) => r.status)).toEqual([400]);
    expectErrorBody(result.responses[0]!, 'VALIDATION_ERROR');
  });

  it('a chunk size that is not hex, or a chunked body cut short, never yields a 5xx', async () => {
    await play([
      tokenHead(undefined, [
        ['Transfer-Encoding', 'chunked'],
        ['Connection', 'close'],
      ]),
      'zz\r\n{}\r\n0\r\n\r\n',
    ]);
    await play([tokenHead(undefined, [['Transfer-Encoding', 'chunked']]), `${(1000).toString(16)}\r\n{"clientId":`, 'end']);
    await play([tokenHead(undefined, [['Transfer-Encoding', 'chunked']]), `5\r\n{"a":\r\n`, { wait: 50 }, 'destroy']);
  });
});

describe('request lines and framing', () => {
  it('garbage instead of a request line is refused, and the server keeps serving', async () => {
    await play(['GARBAGE\r\n\r\n']);
    await play(['GET / HTTP/9.9\r\nHost: x\r\n\r\n']);
    await play([Buffer.from([0x16, 0x03, 0x01, 0x00, 0xa5, 0x01, 0x00])]); // a TLS ClientHello on a plain port
  });

  it('two pipelined requests on one connection are answered in order', async () => {
    const first = head('GET /v1/reference/resources HTTP/1.1', [
      ['Host', 'x'],
      ['Authorization', `Bearer ${token}`],
    ]);
    const second = head('GET /v1/quotes/not-a-uuid HTTP/1.1', [
      ['Host', 'x'],
      ['Authorization', `Bearer ${token}`],
      ['Connection', 'close'],
    ]);
    const result = await play([first + second]);
    expect(result.responses.map((r) => r.status)).toEqual([200, 400]);
    expect(result.responses[0]!.headers['x-request-id']).not.toBe(result.responses[1]!.headers['x-request-id']);
  });

  it('an HTTP/1.0 request without Host is served', async () => {
    const result = await play([`GET /v1/reference/eventTypes?limit=1 HTTP/1.0\r\nAuthorization: Bearer ${token}\r\n\r\n`]);
    expect(result.responses.map((r) => r.status)).toEqual([200]);
  });

  it('a header with a CR/LF injection attempt or an obsolete line fold is refused', async () => {
    await play([`GET /api/accounts HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${token}\r\n X-Folded: yes\r\nConnection: close\r\n\r\n`]);
    await play([`GET /api/accounts HTTP/1.1\r\nHost: x\r\nX-Bad: a\rb\r\nConnection: close\r\n\r\n`]);
  });
});

describe('the mock itself', () => {
  it('logged no internal error through all of the above', () => {
    expect(errors.describe()).toEqual([]);
  });
});
