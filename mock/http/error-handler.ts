// The one error serialiser: every error, from any layer, leaves as the seed's Error body with
// its status and the request's X-Request-Id. Unknown errors are logged and answered as a
// generic 500, never with a stack trace.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { NextFunction, Request, Response } from 'express';
import type { Logger } from 'pino';
import { errorBody, ServiceError } from '../errors/catalogue';
import { requestIdOf } from './request-id';
import { lingerForUnreadBody } from './unread-body';
import { writeJson } from './write-json';

/** Maps body-parser and other well-known failures onto the catalogue. */
export function toServiceError(error: unknown): ServiceError | undefined {
  if (error instanceof ServiceError) return error;
  const e = error as { type?: string; status?: number; message?: string; limit?: number };
  switch (e?.type) {
    case 'entity.too.large':
      return new ServiceError('PAYLOAD_TOO_LARGE', { limitBytes: e.limit });
    case 'entity.parse.failed':
      return new ServiceError('VALIDATION_ERROR', { fields: [{ field: 'body', message: 'is not well-formed JSON' }] });
    case 'request.aborted':
    case 'request.size.invalid':
    case 'stream.encoding.set':
      return new ServiceError('VALIDATION_ERROR', { fields: [{ field: 'body', message: 'was not received whole' }] });
    default:
      // An unsupported charset or Content-Encoding too: body-parser's 415, answered with its reason.
      return fromClientError(e);
  }
}

/**
 * Any other error Express or body-parser marks as the client's (a 4xx `status` with `expose`):
 * a path with a malformed percent-escape, a body that does not decode under its
 * Content-Encoding. It is a bad request, never a 500.
 */
function fromClientError(
  e: { status?: number; statusCode?: number; expose?: boolean; message?: string } | undefined,
): ServiceError | undefined {
  const status = e?.status ?? e?.statusCode;
  if (typeof status !== 'number' || status < 400 || status > 499 || e?.expose === false) return undefined;
  if (status === 413) return new ServiceError('PAYLOAD_TOO_LARGE');
  if (status === 415) return new ServiceError('UNSUPPORTED_MEDIA_TYPE', { reason: e?.message });
  const field = e instanceof URIError ? 'path' : 'body';
  const message = field === 'path' ? 'is not a valid percent-encoded path' : 'could not be read or decoded';
  return new ServiceError('VALIDATION_ERROR', { fields: [{ field, message }] });
}

/** Answers any error as the Error body (a 500 for what is not a known client error); the one way errors leave. */
export function answerError(error: unknown, req: IncomingMessage, res: ServerResponse, logger: Logger): void {
  let serviceError = toServiceError(error);
  if (!serviceError) {
    const url = (req as IncomingMessage & { originalUrl?: string }).originalUrl ?? req.url;
    logger.error({ err: error, requestId: requestIdOf(res), method: req.method, url }, 'unhandled error');
    serviceError = new ServiceError('INTERNAL_ERROR');
  }
  if (res.headersSent) {
    res.destroy();
    return;
  }
  const body = errorBody(serviceError);
  lingerForUnreadBody(req, res);
  writeJson(res, serviceError.status, JSON.stringify(body), body);
}

export function errorHandler(logger: Logger) {
  return (error: unknown, req: Request, res: Response, _next: NextFunction): void => answerError(error, req, res, logger);
}
