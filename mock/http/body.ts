// Request bodies: JSON only, at most the configured size. A body on an operation that takes
// none is ignored, as the document defines none.
import type { IncomingMessage, ServerResponse } from 'node:http';
import express from 'express';
import { ServiceError } from '../errors/catalogue';
import { localsOf } from './request-id';

type Next = (error?: Error) => void;

export function hasBody(req: IncomingMessage): boolean {
  return req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length'] ?? 0) > 0;
}

export function isJson(req: IncomingMessage): boolean {
  const header = req.headers['content-type'] ?? '';
  const end = header.indexOf(';');
  const type = (end === -1 ? header : header.slice(0, end)).trim().toLowerCase();
  return type === 'application/json' || /^application\/[a-z0-9.+-]+\+json$/.test(type);
}

/** express.json (body-parser), configured once; its errors are translated by the error serialiser. */
export function jsonBodyParser(limitBytes: number) {
  // The size as read (a chunked body declares none): the journal keeps only small bodies.
  const parse = express.json({
    limit: limitBytes,
    strict: false,
    type: () => true,
    verify: (_req, res, buf) => void (localsOf(res).requestBytes = buf.length),
  });
  return (req: IncomingMessage, res: ServerResponse, next: Next) => {
    if (!hasBody(req)) return next();
    if (!isJson(req)) return next(new ServiceError('UNSUPPORTED_MEDIA_TYPE', { contentType: req.headers['content-type'] ?? null }));
    parse(req, res, next);
  };
}

/**
 * The body parser for a plain Node request: resolves the parsed body (undefined when none was sent).
 * The usual request (a JSON body of a declared length, in UTF-8, not compressed) is read here
 * with the same answers body-parser gives it (plainJson); any other goes to body-parser.
 */
export function jsonBodyReader(limitBytes: number) {
  const parse = jsonBodyParser(limitBytes);
  return (req: IncomingMessage, res: ServerResponse) => {
    const length = plainJsonLength(req, limitBytes);
    if (length !== undefined) return plainJson(req, res, length, limitBytes);
    return new Promise<unknown>((resolve, reject) =>
      parse(req, res, (error) => {
        if (!error) return resolve((req as IncomingMessage & { body?: unknown }).body);
        // body-parser's errors (http-errors) and this parser's (ServiceError) are Errors.
        reject(error);
      }),
    );
  };
}

/**
 * The declared length of a body plainJson reads: JSON with no charset but UTF-8's, a
 * Content-Length within the limit, no Content-Encoding or Transfer-Encoding, a stream not set to
 * decode. Undefined for anything else (body-parser's to read, refuse or inflate).
 */
function plainJsonLength(req: IncomingMessage, limitBytes: number): number | undefined {
  const { headers } = req;
  // A body sent in chunks declares no length: body-parser's either way.
  // Stryker disable next-line ConditionalExpression,StringLiteral: equivalent, see above
  if (headers['transfer-encoding'] !== undefined) return undefined;
  // A request already destroyed (its client left while a fault's latency ran) is body-parser's,
  // which finds it finished and reads no body: plainJson would wait for events already emitted.
  if (headers['content-encoding'] !== undefined || req.readableEncoding !== null || req.destroyed) return undefined;
  const type = headers['content-type'];
  if (type === undefined || !PLAIN_JSON.has(type.toLowerCase())) return undefined;
  const declared = headers['content-length'];
  // A length plainJson does not take (none, not digits, over the limit) goes to body-parser, which
  // answers it as plainJson would: which of the two reads a body changes no answer, only the time
  // (the property test reads the same bytes both ways).
  // Stryker disable next-line ConditionalExpression,LogicalOperator: equivalent, see above
  const length = declared !== undefined && DIGITS.test(declared) ? Number(declared) : 0;
  // Not 0 (declared, or none given): there body-parser finds no body at all (hasBody), where plainJson would read {}.
  if (length === 0) return undefined;
  // Over the limit, raw-body answers 413 as plainJson does.
  // Stryker disable next-line ConditionalExpression,EqualityOperator: equivalent, see above
  return length <= limitBytes ? length : undefined;
}

/** The Content-Types plainJson takes: JSON, in UTF-8 (body-parser's default charset) or saying so. */
const PLAIN_JSON = new Set(['application/json', 'application/json; charset=utf-8', 'application/json;charset=utf-8']);
const DIGITS = /^\d{1,15}$/;

/**
 * What body-parser answers for a body plainJsonLength takes: the JSON text after a byte-order mark,
 * {} for none, and its errors with the types the error serialiser names (toServiceError).
 * Why by hand: body-parser's path (its content-type, charset and type checks, raw-body's stream
 * handling, iconv-lite's decoder, debug's calls) was about 6% of a quote's CPU in the
 * throughput benchmark, for what a Buffer's UTF-8 text and JSON.parse do here.
 */
function plainJson(req: IncomingMessage, res: ServerResponse, length: number, limitBytes: number): Promise<unknown> {
  return new Promise<unknown>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let received = 0;
    const done = (error: Error | undefined, body?: unknown) => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('aborted', onAborted);
      req.off('close', onAborted);
      req.off('error', onError);
      // Stryker disable next-line ConditionalExpression: a settled promise ignores a second answer.
      if (error) reject(error);
      else resolve(body);
    };
    const onData = (chunk: Buffer) => {
      received += chunk.length;
      // raw-body's check as the bytes come (only a stream that is not a socket's can send more than it declared).
      if (received > limitBytes) done(readError(413, 'entity.too.large', { limit: limitBytes }));
      else chunks.push(chunk);
    };
    const onEnd = () => {
      if (received !== length) return done(readError(400, 'request.size.invalid'));
      // Stryker disable next-line ConditionalExpression: Buffer.concat of one chunk is the same bytes, copied.
      const bytes = chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, received);
      localsOf(res).requestBytes = received;
      let text = bytes.toString('utf8');
      // iconv-lite, which body-parser decodes with, drops a leading byte-order mark.
      if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
      // body-parser's special case: an empty body (here, one that was only a byte-order mark) is {}.
      if (text.length === 0) return done(undefined, {});
      try {
        done(undefined, JSON.parse(text));
      } catch (error) {
        done(Object.assign(error as Error, { status: 400, type: 'entity.parse.failed' }));
      }
    };
    const onAborted = () => done(readError(400, 'request.aborted'));
    // body-parser makes a stream's error a 400 (http-errors' createError(400, error)): the client's.
    const onError = (error: Error) => done(Object.assign(error, { status: 400 }));
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('aborted', onAborted);
    req.on('close', onAborted);
    req.on('error', onError);
  });
}

/** An error as raw-body makes it, with what toServiceError reads of it: its type (named by the message too), status and limit. */
function readError(status: number, type: string, more: Record<string, unknown> = {}): Error {
  return Object.assign(new Error(type), { status, type, ...more });
}
