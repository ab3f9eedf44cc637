// Requests that match no operation: 405 (with Allow) when the path exists under another
// method, 404 otherwise; both with the Error body.
import type { NextFunction, Request, Response } from 'express';
import type { Contract } from '../../spec/contract';
import { ServiceError } from '../errors/catalogue';

export function unmatchedRoute(contract: Contract) {
  const templates = contract.operations.map((op) => ({
    method: op.method.toUpperCase(),
    pattern: new RegExp(`^${op.path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\\?\{[^}]+\\?\}/g, '[^/]+')}/?$`),
    concrete: !op.path.includes('{'),
  }));
  return (req: Request, res: Response, next: NextFunction) => {
    const matching = templates.filter((t) => t.pattern.test(req.path));
    // A concrete path owns its URL: GET /v1/operations/deposits is not getOperation.
    const owners = matching.some((t) => t.concrete) ? matching.filter((t) => t.concrete) : matching;
    if (owners.length === 0) return next(new ServiceError('ROUTE_NOT_FOUND', { method: req.method, path: req.path }));
    const allowed = [...new Set(owners.map((t) => t.method))];
    res.setHeader('Allow', allowed.join(', '));
    next(new ServiceError('METHOD_NOT_ALLOWED', { method: req.method, allowed }));
  };
}
