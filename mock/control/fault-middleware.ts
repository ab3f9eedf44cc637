// Applies injected faults to the service API (never to /_mock): waits the latency, then answers
// the error (Error body, X-Request-Id already set) or destroys the connection without an answer.
// What it did is left on res.locals.fault for the journal.
import type { NextFunction, Request, Response } from 'express';
import type { FaultRegistry } from './faults';
import type { FaultTrace } from './journal';

export function faultMiddleware(registry: FaultRegistry) {
  return async (req: Request, res: Response, next: NextFunction): Promise<void> => {
    if (req.path === '/_mock' || req.path.startsWith('/_mock/')) return next();
    const action = registry.take(req.method, req.path);
    if (!action) return next();
    const { fault, latencyMs } = action;
    const trace: FaultTrace = { id: fault.id };
    res.locals.fault = trace;
    if (latencyMs > 0) {
      trace.latencyMs = latencyMs;
      await new Promise<void>((resolve) => setTimeout(resolve, latencyMs));
    }
    if (fault.drop) {
      trace.drop = true;
      req.socket.destroy();
      return;
    }
    if (fault.error) {
      trace.error = fault.error.status;
      res.status(fault.error.status).json({ code: fault.error.code, message: fault.error.message, details: { faultId: fault.id } });
      return;
    }
    next();
  };
}
