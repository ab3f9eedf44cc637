// The request pipeline of one documented operation, the same for all: version, auth, rate
// limit, idempotency key, validation against the document, idempotency, the handler, and
// (strict mode) a check of the response against the document before it is sent. It works on
// Node's own request and response: the service API's front door (service-listener.ts) calls
// it directly, and the control API's Express routes through `operationRoute`.
import type { IncomingHttpHeaders, ServerResponse } from 'node:http';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type { Logger } from 'pino';
import type { OperationContract } from '../../spec/contract';
import type { Clock } from '../clock';
import type { Config } from '../config';
import type { CustomerClocks } from '../jobs/customer-clocks';
import { errorBody, ServiceError } from '../errors/catalogue';
import type { Services } from '../services';
import type { Store } from '../store';
import { toServiceError } from './error-handler';
import { fingerprint, runIdempotent } from './idempotency';
import type { RateLimiter } from './rate-limit';
import { localsOf, requestIdOf } from './request-id';
import type { ResponseEncoder } from './response-encoder';
import type { HandlerResult, RouteHandler } from '../resources/types';
import { checkVersion } from './version';
import { writeJson } from './write-json';

export interface RouteDeps {
  services: Services;
  store: Store;
  clock: Clock;
  /** Each customer's clock (its own, or the mock's): its idempotency keys and rate-limit bucket run on it. */
  clocks?: Pick<CustomerClocks, 'cached' | 'clockOf'>;
  config: Config;
  logger: Logger;
  encoder: ResponseEncoder;
  /** The per-customer rate limit when it is on (service routes only; never the control API). */
  rateLimiter?: RateLimiter;
}

/** What the pipeline needs of a request, whoever parsed it. */
export interface OperationRequest {
  method: string;
  /** Path and query as sent: the idempotency fingerprint covers them. */
  url: string;
  headers: IncomingHttpHeaders;
  /** Path parameters, percent-decoded. */
  params: Record<string, string>;
  query: Record<string, unknown>;
  /** The parsed JSON body (operations that take one), or undefined. */
  body?: unknown;
  /**
   * Reads the body instead of `body`: called after the token is checked, so a request without a
   * valid token is answered 401 without its body being read.
   */
  readBody?: () => Promise<unknown>;
}

/**
 * Runs the operation and writes its answer. A ServiceError (from any step) is answered with its
 * status and Error body; anything else is thrown for the caller's error serialiser (a 500).
 */
export async function runOperation(
  op: OperationContract,
  handler: RouteHandler,
  deps: RouteDeps,
  request: OperationRequest,
  res: ServerResponse,
): Promise<void> {
  let result: HandlerResult;
  let replayed = false;
  try {
    const { headers } = request;
    checkVersion(headers['x-service-version']);
    const customerId = op.security ? await deps.services.tokens.verify(headers.authorization) : '';
    if (customerId) localsOf(res).customerId = customerId;
    // Known here after the token check (which read it), so no await on the usual path.
    const clock = customerId && deps.clocks ? (deps.clocks.cached(customerId) ?? (await deps.clocks.clockOf(customerId))) : deps.clock;
    const sent = request.readBody ? await request.readBody() : request.body;
    // For the journal's record of this request, whatever its answer.
    localsOf(res).requestBody = sent;
    // Rate limit (off by default; mock/http/rate-limit.ts): after authentication, before the request is checked.
    // Awaited only when on: an `await` of nothing still costs a turn of the microtask queue.
    if (deps.rateLimiter) {
      // The token call has no customer yet: its bucket runs on the clock of the client its body names.
      const bucketClock = op.security ? clock : await clientClock(deps, sent);
      await deps.rateLimiter.enforce(op.security ? { customerId } : { body: sent }, res, bucketClock.now());
    }
    if (op.idempotent && headers['x-idempotency-key'] === undefined) throw new ServiceError('IDEMPOTENCY_KEY_REQUIRED');
    const body = op.hasBody ? sent : undefined;
    const check = op.checkRequest({ params: request.params, query: request.query, headers, body });
    if (check.errors.length > 0) throw new ServiceError('VALIDATION_ERROR', { fields: check.errors });
    const ctx = {
      customerId,
      params: check.params as Record<string, string>,
      query: check.query,
      sentQuery: request.query,
      body,
      services: deps.services,
    };
    if (op.idempotent) {
      const key = `${customerId}:${String(headers['x-idempotency-key']).toLowerCase()}`;
      const outcome = await runIdempotent(
        deps.store,
        clock,
        deps.config.idempotencyTtlMs,
        key,
        fingerprint(request.method, request.url, body),
        () => handler(ctx),
        clock !== deps.clock,
      );
      result = outcome.result;
      replayed = outcome.replayed;
    } else {
      result = await handler(ctx);
    }
  } catch (error) {
    const serviceError = toServiceError(error);
    if (!serviceError) throw error;
    result = { status: serviceError.status, body: errorBody(serviceError) };
  }
  if (replayed) res.setHeader('X-Idempotent-Replayed', 'true');
  send(op, result, request, res, deps);
}

function send(op: OperationContract, result: HandlerResult, request: OperationRequest, res: ServerResponse, deps: RouteDeps): void {
  const strict = deps.config.strictResponses;
  const encoded = deps.encoder.encode(op, result.status, strict ? res.getHeaders() : {}, result.body, strict);
  if (encoded.violations.length > 0) {
    const violations = encoded.violations;
    // Loud on purpose: in tests this turns a drifting mock into a failing test.
    deps.logger.error(
      { operationId: op.operationId, status: result.status, violations, requestId: requestIdOf(res), url: request.url },
      'response breaks the API document',
    );
    const error = new ServiceError('INTERNAL_ERROR', {
      reason: 'the mock built a response that breaks the API document',
      operationId: op.operationId,
      violations,
    });
    const body = errorBody(error);
    writeJson(res, error.status, JSON.stringify(body), body);
    return;
  }
  writeJson(res, result.status, encoded.json, result.body);
}

/** The pipeline as an Express route (the control API's router). */
export function operationRoute(op: OperationContract, handler: RouteHandler, deps: RouteDeps): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    const request: OperationRequest = {
      method: req.method,
      url: req.originalUrl,
      headers: req.headers,
      params: req.params as Record<string, string>,
      query: req.query,
      body: req.body,
    };
    runOperation(op, handler, deps, request, res).catch(next);
  };
}

/**
 * The clock of the client a token call's body names (its customer's own, when it has one), so that
 * bucket refills on the time the customer's other buckets do; the mock's clock for an unknown client.
 */
async function clientClock(deps: RouteDeps, body: unknown): Promise<Clock> {
  const clientId = (body as { clientId?: unknown } | undefined)?.clientId;
  if (!deps.clocks || typeof clientId !== 'string' || clientId === '') return deps.clock;
  const client = await deps.store.get('client', clientId);
  return client ? await deps.clocks.clockOf(client.customerId) : deps.clock;
}
