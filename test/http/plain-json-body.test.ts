// The usual request body (JSON of a declared length, in UTF-8, not compressed) is read without
// body-parser (mock/http/body.ts, plainJson): it must be answered exactly as body-parser answers
// it, for any bytes in any chunks. Each case is read twice, once on that path and once with a
// Transfer-Encoding header that sends the same bytes to body-parser.
import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { gzipSync } from 'node:zlib';
import { PassThrough, Readable } from 'node:stream';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { jsonBodyReader } from '../../mock/http/body';
import { toServiceError } from '../../mock/http/error-handler';
import { localsOf } from '../../mock/http/request-id';

const LIMIT = 256;
const notWhole = { fields: [{ field: 'body', message: 'was not received whole' }] };

function fakeRequest(headers: Record<string, string>): PassThrough & IncomingMessage {
  return Object.assign(new PassThrough(), { headers }) as unknown as PassThrough & IncomingMessage;
}

/** What the reader answered: the body and the size the journal keeps, or the Error body's status, code and details. */
async function read(chunks: Buffer[], headers: Record<string, string>) {
  const req = fakeRequest(headers);
  const res = {} as ServerResponse;
  const reading = jsonBodyReader(LIMIT)(req, res);
  for (const chunk of chunks) req.write(chunk);
  req.end();
  try {
    return { body: await reading, bytes: localsOf(res).requestBytes };
  } catch (error) {
    const e = toServiceError(error);
    return { status: e?.status, code: e?.code, details: e?.details };
  }
}

/** The bytes cut into pieces at the given points. */
function cut(bytes: Buffer, points: number[]): Buffer[] {
  const at = [...new Set(points.map((p) => p % (bytes.length + 1)))].sort((a, b) => a - b);
  const pieces: Buffer[] = [];
  let from = 0;
  for (const p of [...at, bytes.length]) {
    if (p > from) pieces.push(bytes.subarray(from, p));
    from = Math.max(from, p);
  }
  return pieces;
}

const BOM = Buffer.from([0xef, 0xbb, 0xbf]);
const bodies = fc
  .oneof(
    fc.json().map((text) => Buffer.from(text)),
    fc.json().map((text) => Buffer.concat([BOM, Buffer.from(` ${text}\n`)])),
    fc.string({ unit: 'binary' }).map((text) => Buffer.from(text)),
    fc.uint8Array({ minLength: 1, maxLength: 40 }).map((bytes) => Buffer.from(bytes)),
    fc.constantFrom(BOM, Buffer.from('{"a":'), Buffer.from([0x7b, 0xff, 0x7d]), Buffer.from('"\u00e9"')),
  )
  // No body at all is no body on either path (hasBody), not a case of reading one.
  .filter((bytes) => bytes.length > 0);

describe('a plain JSON body is read as body-parser reads it', () => {
  it('any bytes, in any chunks, with or without a charset: the same body and size, or the same error', async () => {
    await fc.assert(
      fc.asyncProperty(
        bodies,
        fc.array(fc.nat(), { maxLength: 4 }),
        fc.constantFrom('application/json', 'Application/JSON; charset=UTF-8', 'application/json;charset=utf-8'),
        async (bytes, points, type) => {
          const headers = { 'content-type': type, 'content-length': String(bytes.length) };
          const plain = await read(cut(bytes, points), headers);
          const parsed = await read(cut(bytes, points), { ...headers, 'transfer-encoding': 'identity' });
          expect(plain).toEqual(parsed);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('a body sent past the limit is 413 PAYLOAD_TOO_LARGE on both paths', async () => {
    // Declared within the limit, sent past it: only a stream that is not a socket's can.
    const big = Buffer.from(JSON.stringify({ pad: 'x'.repeat(LIMIT) }));
    const tooLarge = { status: 413, code: 'PAYLOAD_TOO_LARGE', details: { limitBytes: LIMIT } };
    const headers = { 'content-type': 'application/json', 'content-length': '10' };
    expect(await read([big], headers)).toEqual(tooLarge);
    expect(await read([big], { ...headers, 'transfer-encoding': 'identity' })).toEqual(tooLarge);
  });

  it('a body shorter than declared, or aborted mid-way, is 400 VALIDATION_ERROR "was not received whole"', async () => {
    const short = { status: 400, code: 'VALIDATION_ERROR', details: notWhole };
    expect(await read([Buffer.from('{}')], { 'content-type': 'application/json', 'content-length': '3' })).toEqual(short);
    const req = fakeRequest({ 'content-type': 'application/json', 'content-length': '20' });
    const reading = jsonBodyReader(LIMIT)(req, {} as ServerResponse);
    req.write('{"a":');
    req.emit('aborted');
    const e = toServiceError(await reading.catch((error: unknown) => error));
    expect({ status: e?.status, code: e?.code, details: e?.details }).toEqual(short);
  });

  it('a declared length of 0 is no body at all', async () => {
    expect(await read([], { 'content-type': 'application/json', 'content-length': '0' })).toEqual({ body: undefined, bytes: undefined });
  });

  it('a body of exactly the limit is read; a compressed one goes to body-parser, which inflates it', async () => {
    const exact = Buffer.from(JSON.stringify({ pad: 'x'.repeat(LIMIT - 10) }));
    expect(exact.length).toBe(LIMIT);
    expect(await read([exact], { 'content-type': 'application/json', 'content-length': String(LIMIT) })).toEqual({
      body: JSON.parse(exact.toString()),
      bytes: LIMIT,
    });
    const zipped = gzipSync('{"a":1}');
    const headers = { 'content-type': 'application/json', 'content-length': String(zipped.length), 'content-encoding': 'gzip' };
    expect(await read([zipped], headers)).toEqual({ body: { a: 1 }, bytes: 7 });
  });

  it('a stream that fails mid-body is 400 "could not be read or decoded", as body-parser makes a stream error', async () => {
    // body-parser's side cannot be read here: raw-body waits on a stream that is not a socket's.
    const req = fakeRequest({ 'content-type': 'application/json', 'content-length': '20' });
    const reading = jsonBodyReader(LIMIT)(req, {} as ServerResponse);
    req.write('{"a":');
    req.destroy(new Error('connection reset'));
    const e = toServiceError(await reading.catch((error: unknown) => error));
    expect({ status: e?.status, code: e?.code, details: e?.details }).toEqual({
      status: 400,
      code: 'VALIDATION_ERROR',
      details: { fields: [{ field: 'body', message: 'could not be read or decoded' }] },
    });
  });

  it('a stream closed mid-body without an error is 400 "was not received whole", and no read leaves a listener behind', async () => {
    const events = ['data', 'end', 'aborted', 'close', 'error'] as const;
    const closed = fakeRequest({ 'content-type': 'application/json', 'content-length': '20' });
    const reading = jsonBodyReader(LIMIT)(closed, {} as ServerResponse);
    closed.write('{"a":');
    closed.destroy();
    expect(toServiceError(await reading.catch((error: unknown) => error))?.details).toEqual(notWhole);
    for (const event of events) expect(closed.listenerCount(event)).toBe(0);
    const whole = fakeRequest({ 'content-type': 'application/json', 'content-length': '2' });
    const read = jsonBodyReader(LIMIT)(whole, {} as ServerResponse);
    whole.end('{}');
    await expect(read).resolves.toEqual({});
    for (const event of events) expect(whole.listenerCount(event)).toBe(0);
  });

  it("a request its client left before its body was read (during a fault's latency) is no body, as body-parser finds it", async () => {
    // A server's request (readable only, not complete, its socket gone), destroyed: body-parser sees it finished and reads nothing.
    const headers = { 'content-type': 'application/json', 'content-length': '20' };
    const req = Object.assign(new Readable({ read() {} }), { headers, complete: false }) as unknown as Readable & IncomingMessage;
    req.destroy();
    await new Promise((resolve) => setImmediate(resolve));
    let settled: unknown = 'pending';
    void jsonBodyReader(LIMIT)(req, {} as ServerResponse).then((body) => (settled = body));
    // A few turns of the event loop: nothing is left to come on a destroyed stream.
    for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve));
    expect(settled).toBeUndefined();
  });
});
