// Applies injected faults to the service API (never to /_mock): waits the latency, then answers
// the error (Error body, X-Request-Id already set) or destroys the connection without an answer.
// What it did is left on the response's locals (`fault`) for the journal.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { NextFunction, Request, Response } from 'express';
import { localsOf } from './request-id';
import { writeJson } from './write-json';
import type { FaultAction, FaultRegistry } from './faults';
import type { FaultTrace } from './journal';

/** Carries out a fault the registry handed out; true when it answered or dropped the request. */
export async function applyFault(action: FaultAction, req: IncomingMessage, res: ServerResponse): Promise<boolean> {
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
    writeJson(res, fault.error.status, JSON.stringify({ code: fault.error.code, message: fault.error.message, details: { faultId: fault.id } }));
    return true;
  }
  return false;
}

/** Faults on paths the service front door does not answer (unknown paths, other methods, /docs). */
export function faultMiddleware(registry: FaultRegistry) {
  return async (req: Request, res: Response, next: NextFunction): Promise<void> => {
    if (req.path === '/_mock' || req.path.startsWith('/_mock/')) return next();
    const action = registry.take(req.method, req.path);
    if (!action || !(await applyFault(action, req, res))) next();
  };
}
