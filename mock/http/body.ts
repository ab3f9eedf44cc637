// Request bodies: JSON only, at most the configured size. A body on an operation that takes
// none is ignored, as the document defines none.
import express, { type NextFunction, type Request, type Response } from 'express';
import { ServiceError } from '../errors/catalogue';

export function hasBody(req: Request): boolean {
  return req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length'] ?? 0) > 0;
}

export function isJson(req: Request): boolean {
  const type = (req.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  return type === 'application/json' || /^application\/[a-z0-9.+-]+\+json$/.test(type);
}

/** express.json, configured once; its errors are translated by the error serialiser. */
export function jsonBodyParser(limitBytes: number) {
  const parse = express.json({ limit: limitBytes, strict: false, type: () => true });
  return (req: Request, res: Response, next: NextFunction) => {
    if (!hasBody(req)) return next();
    if (!isJson(req)) return next(new ServiceError('UNSUPPORTED_MEDIA_TYPE', { contentType: req.headers['content-type'] ?? null }));
    parse(req, res, next);
  };
}
