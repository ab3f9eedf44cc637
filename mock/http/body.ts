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

/** The body parser for a plain Node request: resolves the parsed body (undefined when none was sent). */
export function jsonBodyReader(limitBytes: number) {
  const parse = jsonBodyParser(limitBytes);
  return (req: IncomingMessage, res: ServerResponse) =>
    new Promise<unknown>((resolve, reject) =>
      parse(req, res, (error) => {
        if (!error) return resolve((req as IncomingMessage & { body?: unknown }).body);
        // body-parser's errors (http-errors) and this parser's (ServiceError) are Errors.
        reject(error);
      }),
    );
}
