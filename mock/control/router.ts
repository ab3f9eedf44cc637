// The /_mock routes, built from spec/control-openapi.yaml exactly as the service routes are
// built from spec/openapi.yaml: one route per documented operation, through the same pipeline
// (validation of path, query and body by the compiled document; strict response checks), and
// the same 404/405 for anything else under /_mock. app.ts checks the handler table first.
import { readFileSync } from 'node:fs';
import express, { type NextFunction, type Request, type RequestHandler, type Response, type Router } from 'express';
import type { Contract } from '../../spec/contract';
import { jsonBodyParser } from '../http/body';
import { operationRoute, type RouteDeps } from '../http/operation-route';
import type { RouteHandler } from '../resources/types';
import { RouteTable } from '../http/route-table';
import { unmatchedRoute } from '../http/unmatched-route';
import { CONTROL_DOCUMENT_PATH, publicSchemaOf } from './contract';
import { checkedAgainstPublic } from './public-schemas';

/** Snapshots of a busy mock outgrow the service API's 1 MiB body limit. */
export const CONTROL_BODY_LIMIT_BYTES = 64 * 1024 * 1024;

export function isControlPath(path: string): boolean {
  return path === '/_mock' || path.startsWith('/_mock/');
}

function underControl(handler: (req: Request, res: Response, next: NextFunction) => void): RequestHandler {
  return (req, res, next) => (isControlPath(req.path) ? handler(req, res, next) : next());
}

export function controlRouter(
  contract: Contract,
  handlers: Record<string, RouteHandler>,
  deps: RouteDeps,
  publicContract: Contract,
  /** Operations answered as a stream (text/event-stream), not through the JSON pipeline: GET /_mock/live. */
  streams: Record<string, RequestHandler> = {},
): Router {
  const router = express.Router();
  router.use(underControl(jsonBodyParser(CONTROL_BODY_LIMIT_BYTES)));

  const document = readFileSync(CONTROL_DOCUMENT_PATH, 'utf8');
  router.get('/_mock/openapi.yaml', (_req, res) => void res.type('application/yaml').send(document));

  const ordered = [...contract.operations].sort((a, b) => Number(a.path.includes('{')) - Number(b.path.includes('{')));
  for (const op of ordered) {
    const expressPath = op.path.replace(/\{([^}]+)\}/g, ':$1');
    const stream = streams[op.operationId];
    if (stream) {
      router[op.method as 'get'](expressPath, stream);
      continue;
    }
    const publicSchema = publicSchemaOf(contract, op.path, op.method);
    const handler = handlers[op.operationId]!;
    const checked =
      publicSchema && deps.config.strictResponses ? checkedAgainstPublic(handler, publicSchema, publicContract, deps.logger) : handler;
    router[op.method as 'get' | 'post' | 'put' | 'delete'](expressPath, operationRoute(op, checked, deps));
  }
  router.use(underControl(unmatchedRoute(new RouteTable(contract.operations.map((op) => ({ op, target: op.operationId }))))));
  return router;
}
