// The one error serialiser (mock/http/error-handler.ts) and the body reader, on their own: which
// failures are the client's (and how each is named), which are the mock's own 500, what is logged,
// and an error after the answer has begun.
import { describe, expect, it } from '@jest/globals';
import { PassThrough } from 'node:stream';
import { Writable } from 'node:stream';
import type { IncomingMessage, ServerResponse } from 'node:http';
import request from 'supertest';
import pino from 'pino';
import { ServiceError } from '../../mock/errors/catalogue';
import { jsonBodyReader } from '../../mock/http/body';
import { answerError, toServiceError } from '../../mock/http/error-handler';
import { assignRequestId } from '../../mock/http/request-id';

const notWhole = { fields: [{ field: 'body', message: 'was not received whole' }] };
const unreadable = { fields: [{ field: 'body', message: 'could not be read or decoded' }] };
const answered = (error: unknown) => {
  const e = toServiceError(error);
  return e && { status: e.status, code: e.code, details: e.details };
};

/** A request stream as Node gives it, with the headers given. */
function fakeRequest(headers: Record<string, string>): PassThrough & IncomingMessage {
  return Object.assign(new PassThrough(), { headers }) as unknown as PassThrough & IncomingMessage;
}
const fakeResponse = () => ({}) as ServerResponse;

describe('a body not received whole is 400 VALIDATION_ERROR "was not received whole"', () => {
  it('a body shorter than its Content-Length', async () => {
    const req = fakeRequest({ 'content-type': 'application/json', 'content-length': '10' });
    const read = jsonBodyReader(1024)(req, fakeResponse());
    req.end('{}');
    const error = await read.catch((e: unknown) => e);
    expect(answered(error)).toEqual({ status: 400, code: 'VALIDATION_ERROR', details: notWhole });
  });

  it('a request the client aborted', async () => {
    const req = fakeRequest({ 'content-type': 'application/json', 'transfer-encoding': 'chunked' });
    const read = jsonBodyReader(1024)(req, fakeResponse());
    req.write('{"a":');
    req.emit('aborted');
    req.end();
    const error = await read.catch((e: unknown) => e);
    expect(answered(error)).toEqual({ status: 400, code: 'VALIDATION_ERROR', details: notWhole });
  });

  it('a request stream already set to decode text', async () => {
    const req = fakeRequest({ 'content-type': 'application/json', 'content-length': '2' });
    req.setEncoding('utf8');
    const read = jsonBodyReader(1024)(req, fakeResponse());
    req.end('{}');
    const error = await read.catch((e: unknown) => e);
    expect(answered(error)).toEqual({ status: 400, code: 'VALIDATION_ERROR', details: notWhole });
  });
});

describe('the body reader', () => {
  it('resolves the parsed body, and undefined when no body was sent', async () => {
    const req = fakeRequest({ 'content-type': 'application/json', 'content-length': '8' });
    const read = jsonBodyReader(1024)(req, fakeResponse());
    req.end('{"a":12}');
    await expect(read).resolves.toEqual({ a: 12 });
    await expect(jsonBodyReader(1024)(fakeRequest({}), fakeResponse())).resolves.toBeUndefined();
  });
});

describe('other client errors (a 4xx status Express or body-parser exposes)', () => {
  it('a 413 is PAYLOAD_TOO_LARGE and a 415 UNSUPPORTED_MEDIA_TYPE with its reason, whatever their type', () => {
    expect(answered({ status: 413, expose: true })).toEqual({ status: 413, code: 'PAYLOAD_TOO_LARGE', details: undefined });
    expect(answered({ statusCode: 415, message: 'no such charset' })).toEqual({
      status: 415,
      code: 'UNSUPPORTED_MEDIA_TYPE',
      details: { reason: 'no such charset' },
    });
  });

  it('any other 4xx, 400 to 499, is 400 VALIDATION_ERROR: on the path for a URIError, on the body otherwise', () => {
    for (const status of [400, 403, 499]) {
      expect(answered({ status })).toEqual({ status: 400, code: 'VALIDATION_ERROR', details: unreadable });
    }
    expect(answered(Object.assign(new URIError('URI malformed'), { status: 400 }))).toEqual({
      status: 400,
      code: 'VALIDATION_ERROR',
      details: { fields: [{ field: 'path', message: 'is not a valid percent-encoded path' }] },
    });
  });

  it('a status outside 400-499, no numeric status, an error marked not to expose, and no error at all are not client errors', () => {
    for (const error of [
      { status: 399 },
      { status: 500 },
      { status: '400' },
      { status: 400, expose: false },
      new Error('boom'),
      undefined,
      null,
    ]) {
      expect(toServiceError(error)).toBeUndefined();
    }
  });

  it('a ServiceError is answered as it is', () => {
    const error = new ServiceError('QUOTE_EXPIRED');
    expect(toServiceError(error)).toBe(error);
  });
});

describe('answering an error', () => {
  function capture() {
    const lines: Array<Record<string, unknown>> = [];
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(JSON.parse(chunk.toString()) as Record<string, unknown>);
        done();
      },
    });
    return { lines, logger: pino({ level: 'info' }, sink) };
  }

  it('an unknown error is a generic 500 INTERNAL_ERROR, logged with the request id, method and URL, and never its message', async () => {
    const { lines, logger } = capture();
    let requestId = '';
    const res = await request((req: IncomingMessage, res: ServerResponse) => {
      requestId = assignRequestId(res);
      answerError(new Error('secret detail'), req, res, logger);
    })
      .post('/somewhere?x=1')
      .expect(500);
    expect(res.body).toEqual({ code: 'INTERNAL_ERROR', message: 'The mock failed to handle the request.' });
    expect(res.headers['x-request-id']).toBe(requestId);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ level: 50, msg: 'unhandled error', requestId, method: 'POST', url: '/somewhere?x=1' });
    expect((lines[0]!.err as { message: string }).message).toBe('secret detail');
  });

  it('a client error is answered with its status and Error body and not logged', async () => {
    const { lines, logger } = capture();
    const res = await request((req: IncomingMessage, res: ServerResponse) => answerError({ status: 413 }, req, res, logger))
      .get('/x')
      .expect(413);
    expect(res.body).toEqual({ code: 'PAYLOAD_TOO_LARGE', message: 'The request body is larger than the limit.' });
    expect(lines).toEqual([]);
  });

  it('an error after the answer has begun cuts the connection instead of writing a second answer', async () => {
    let thrown: unknown;
    const outcome = await request((req: IncomingMessage, res: ServerResponse) => {
      res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': '100' });
      res.write('{"partial":');
      try {
        answerError(new ServiceError('QUOTE_EXPIRED'), req, res, pino({ level: 'silent' }));
      } catch (error) {
        thrown = error;
        res.destroy();
      }
    })
      .get('/x')
      .then(
        () => 'answered',
        (error: Error) => error.message,
      );
    expect(thrown).toBeUndefined();
    expect(outcome).not.toBe('answered');
  });
});
