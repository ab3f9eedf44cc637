// Requests that match no operation: 405 (with Allow) when the path exists under another
// method, 404 otherwise; both with the Error body. The route table that matches requests
// decides, so what is matched and what is refused never disagree.
import type { NextFunction, Request, Response } from 'express';
import { ServiceError } from '../errors/catalogue';
import type { RouteTable } from './route-table';

export function unmatchedRoute(routes: RouteTable<unknown>) {
  return (req: Request, res: Response, next: NextFunction) => {
    const allowed = routes.methodsAt(req.path);
    if (allowed.length === 0) return next(new ServiceError('ROUTE_NOT_FOUND', { method: req.method, path: req.path }));
    res.setHeader('Allow', allowed.join(', '));
    next(new ServiceError('METHOD_NOT_ALLOWED', { method: req.method, allowed }));
  };
}
