// The request pipeline of one documented operation, the same for all: version, auth, body,
// idempotency key, validation against the document, idempotency, the handler, and (strict
// mode) a check of the response against the document before it is sent.
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type { Logger } from 'pino';
import type { OperationContract } from '../../spec/contract';
import type { Clock } from '../clock';
import type { Config } from '../config';
import { errorBody, ServiceError } from '../errors/catalogue';
import type { Services } from '../services';
import type { Store } from '../store/store';
import { toServiceError } from './error-handler';
import { fingerprint, runIdempotent } from './idempotency';
import type { RateLimiter } from './rate-limit';
import type { Handler, HandlerResult } from './types';
import { checkVersion } from './version';

export interface RouteDeps {
  services: Services;
  store: Store;
  clock: Clock;
  config: Config;
  logger: Logger;
  /** The per-customer rate limit when it is on (service routes only; never the control API). */
  rateLimiter?: RateLimiter;
}

export function operationRoute(op: OperationContract, handler: Handler, deps: RouteDeps): RequestHandler {
  return async (req: Request, res: Response, next: NextFunction) => {
    let result: HandlerResult;
    let replayed = false;
    try {
      checkVersion(req.headers['x-service-version']);
      const customerId = op.security ? await deps.services.tokens.verify(req.headers.authorization) : '';
      // Rate limit (off by default; mock/http/rate-limit.ts): after authentication, before the request is checked.
      deps.rateLimiter?.enforce(op.security ? { customerId } : { body: req.body }, res);
      if (op.idempotent && req.headers['x-idempotency-key'] === undefined) throw new ServiceError('IDEMPOTENCY_KEY_REQUIRED');
      const body = op.hasBody ? req.body : undefined;
      const check = op.checkRequest({ params: req.params, query: req.query as Record<string, unknown>, headers: req.headers, body });
      if (check.errors.length > 0) throw new ServiceError('VALIDATION_ERROR', { fields: check.errors });
      const ctx = { customerId, params: check.params as Record<string, string>, query: check.query, sentQuery: req.query as Record<string, unknown>, body, services: deps.services };
      if (op.idempotent) {
        const key = `${customerId}:${String(req.headers['x-idempotency-key']).toLowerCase()}`;
        const outcome = await runIdempotent(deps.store, deps.clock, deps.config.idempotencyTtlMs, key, fingerprint(req.method, req.originalUrl, body), () => handler(ctx));
        result = outcome.result;
        replayed = outcome.replayed;
      } else {
        result = await handler(ctx);
      }
    } catch (error) {
      const serviceError = toServiceError(error);
      if (!serviceError) return next(error);
      result = { status: serviceError.status, body: errorBody(serviceError) };
    }
    if (replayed) res.setHeader('X-Idempotent-Replayed', 'true');
    send(op, result, req, res, deps);
  };
}

function send(op: OperationContract, result: HandlerResult, req: Request, res: Response, deps: RouteDeps): void {
  if (deps.config.strictResponses) {
    const check = op.checkResponse(result.status, lowerCaseHeaders(res), result.body);
    const violations = [...check.errors, ...check.drift];
    if (violations.length > 0) {
      // Loud on purpose: in tests this turns a drifting mock into a failing test.
      deps.logger.error({ operationId: op.operationId, status: result.status, violations, requestId: res.locals.requestId, url: req.originalUrl }, 'response breaks the API document');
      const error = new ServiceError('INTERNAL_ERROR', { reason: 'the mock built a response that breaks the API document', operationId: op.operationId, violations });
      res.status(error.status).json(errorBody(error));
      return;
    }
  }
  if (result.body === undefined) res.status(result.status).end();
  else res.status(result.status).json(result.body);
}

function lowerCaseHeaders(res: Response): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(res.getHeaders())) out[name.toLowerCase()] = value;
  return out;
}
