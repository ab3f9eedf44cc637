// Applies injected faults to the service API (never to /_mock): waits the latency, then answers
// the error (Error body, X-Request-Id already set) or destroys the connection without an answer.
// What it did is left on the response's locals (`fault`) for the journal.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { NextFunction, Request, Response } from 'express';
import type { Logger } from 'pino';
import { ServiceError } from '../errors/catalogue';
import { isControlPath } from './control-path';
import { answerError } from './error-handler';
import type { FaultAction, FaultRegistry } from './faults';
import type { FaultTrace } from './journal';
import { localsOf } from './request-id';

/** Carries out a fault the registry handed out; true when it answered or dropped the request. */
export async function applyFault(action: FaultAction, req: IncomingMessage, res: ServerResponse, logger: Logger): Promise<boolean> {
  const { fault, latencyMs } = action;
  const trace: FaultTrace = { id: fault.id };
  localsOf(res).fault = trace;
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

/** Faults on paths the service front door does not answer (unknown paths, other methods, /docs). */
export function faultMiddleware(registry: FaultRegistry, logger: Logger) {
  return async (req: Request, res: Response, next: NextFunction): Promise<void> => {
    if (isControlPath(req.path)) return next();
    // Stryker disable next-line ConditionalExpression: an empty registry's take finds nothing; the size check only spares the await.
    const action = registry.size === 0 ? undefined : await registry.take(req.method, req.path);
    if (!action || !(await applyFault(action, req, res, logger))) next();
  };
}
