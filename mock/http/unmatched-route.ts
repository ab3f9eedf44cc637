// Requests that match no operation: 405 (with Allow) when the path exists under another
// method, 404 otherwise; both with the Error body. The route table that matches requests
// decides, so what is matched and what is refused never disagree. The API is split between
// /api and /v1 (the accounts list is GET /api/accounts, one account also GET /v1/accounts/{id}):
// when the same path under the other prefix takes the method, the answer names it in
// `details.suggestedPath`, and its message asks whether that was meant.
import type { NextFunction, Request, Response } from 'express';
import { ERROR_CATALOGUE, ServiceError } from '../errors/catalogue';
import type { RouteTable } from './route-table';

const PREFIXES: ReadonlyArray<[string, string]> = [
  ['/api/', '/v1/'],
  ['/v1/', '/api/'],
];

/** The path under the other prefix when the route table answers it for this method, or undefined. */
export function suggestedPath(routes: RouteTable<unknown>, method: string, path: string): string | undefined {
  const lower = path.toLowerCase();
  const swap = PREFIXES.find(([from]) => lower.startsWith(from));
  if (!swap) return undefined;
  const other = `${swap[1]}${path.slice(swap[0].length)}`;
  return routes.methodsAt(other).includes(method === 'HEAD' ? 'GET' : method) ? other : undefined;
}

export function unmatchedRoute(routes: RouteTable<unknown>) {
  return (req: Request, res: Response, next: NextFunction) => {
    const allowed = routes.methodsAt(req.path);
    const suggested = suggestedPath(routes, req.method, req.path);
    const hint = suggested ? { suggestedPath: suggested } : {};
    // The catalogue's message, and the question when there is a path to suggest.
    const message = (code: 'ROUTE_NOT_FOUND' | 'METHOD_NOT_ALLOWED') =>
      suggested ? `${ERROR_CATALOGUE[code].message} Did you mean ${req.method} ${suggested}?` : undefined;
    if (allowed.length === 0) {
      return next(new ServiceError('ROUTE_NOT_FOUND', { method: req.method, path: req.path, ...hint }, message('ROUTE_NOT_FOUND')));
    }
    res.setHeader('Allow', allowed.join(', '));
    next(new ServiceError('METHOD_NOT_ALLOWED', { method: req.method, allowed, ...hint }, message('METHOD_NOT_ALLOWED')));
  };
}
