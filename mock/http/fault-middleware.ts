// Applies injected faults to the service API (never to /_mock): waits the latency, then answers
// the error (Error body, X-Request-Id already set) or destroys the connection without an answer.
// What it did is left on the response's locals (`fault`) for the journal.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { NextFunction, Request, Response } from 'express';
import type { Logger } from 'pino';
import { ServiceError } from '../errors/catalogue';
import { isControlPath } from './control-path';
import { answerError } from './error-handler';
import type { CustomerOfRequest, FaultAction, FaultRegistry } from './faults';
import type { FaultTrace } from './journal';
import { localsOf } from './request-id';

/** Carries out a fault the registry handed out; true when it answered or dropped the request. */
export async function applyFault(
  action: FaultAction,
  req: IncomingMessage,
  res: ServerResponse,
  logger: Logger,
  customerOf?: CustomerOfRequest,
): Promise<boolean> {
  const { fault, latencyMs } = action;
  const trace: FaultTrace = { id: fault.id };
  const locals = localsOf(res);
  locals.fault = trace;
  // The operation, which names the customer for the journal, may never run: named here, so a
  // faulted request is in its customer's journal and verification.
  const customerId = await customerOf?.();
  if (customerId) locals.customerId = customerId;
  if (latencyMs > 0) {
    trace.latencyMs = latencyMs;
    await new Promise<void>((resolve) => setTimeout(resolve, latencyMs));
  }
  if (fault.drop) {
    trace.drop = true;
    req.socket.destroy();
    return true;
  }
  if (fault.error) {
    trace.error = fault.error.status;
    answerError(ServiceError.injected(fault.error, { faultId: fault.id }), req, res, logger);
    return true;
  }
  return false;
}

/** What resolves a bearer token to its customer: the token service's own check (signature, expiry, a live customer). */
export interface TokenVerifier {
  verify(authorization: string | undefined): Promise<string>;
}

/**
 * The customer of a request's token for a fault scoped to a customer: the service's own check,
 * so a forged or expired token is no customer's; undefined rather than a 401, which the
 * operation itself answers after the fault is passed over.
 */
export function customerOfToken(tokens: TokenVerifier | undefined, authorization: string | undefined): CustomerOfRequest {
  // Read once per request, whether the registry or applyFault asks first.
  let customer: Promise<string | undefined> | undefined;
  return () => (customer ??= tokens ? tokens.verify(authorization).catch(() => undefined) : Promise.resolve(undefined));
}

/** Faults on paths the service front door does not answer (unknown paths, other methods, /docs). */
export function faultMiddleware(registry: FaultRegistry, logger: Logger, tokens?: TokenVerifier) {
  return async (req: Request, res: Response, next: NextFunction): Promise<void> => {
    if (isControlPath(req.path)) return next();
    // Stryker disable next-line ConditionalExpression: an empty registry's take finds nothing; the size check only spares the await.
    const customerOf = customerOfToken(tokens, req.headers.authorization);
    const action = registry.size === 0 ? undefined : await registry.take(req.method, req.path, customerOf);
    if (!action || !(await applyFault(action, req, res, logger, customerOf))) next();
  };
}
