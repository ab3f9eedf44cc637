// The /_mock routes, built from spec/control-openapi.yaml exactly as the service routes are
// built from spec/openapi.yaml: one route per documented operation, through the same pipeline
// (validation of path, query and body by the compiled document; strict response checks), and
// the same 404/405 for anything else under /_mock. app.ts checks the handler table first.
import { readFileSync } from 'node:fs';
import express, { type NextFunction, type Request, type RequestHandler, type Response, type Router } from 'express';
import type { Contract, OperationContract } from '../../spec/contract';
import { ServiceError } from '../errors/catalogue';
import { jsonBodyParser } from '../http/body';
import { isControlPath } from '../http/control-path';
import { operationRoute, type RouteDeps } from '../http/operation-route';
import type { RouteHandler } from '../resources/types';
import { RouteTable } from '../http/route-table';
import { unmatchedRoute } from '../http/unmatched-route';
import { CONTROL_DOCUMENT_PATH, publicSchemaOf } from './contract';
import { checkedAgainstPublic } from './public-schemas';

/** Snapshots of a busy mock outgrow the service API's 1 MiB body limit. */
export const CONTROL_BODY_LIMIT_BYTES = 64 * 1024 * 1024;

function underControl(handler: (req: Request, res: Response, next: NextFunction) => void): RequestHandler {
  return (req, res, next) => (isControlPath(req.path) ? handler(req, res, next) : next());
}

/**
 * What a stream is given: its query as checked (and coerced) by the document. Nothing else of
 * the JSON pipeline applies: no body, no answer to check.
 */
export type StreamHandler = (req: Request, res: Response, query: Record<string, unknown>) => void;

/** The query parameters the document declares as lists (inline schemas: what the control document writes). */
function listParameters(contract: Contract, op: OperationContract): Set<string> {
  const operation = (contract.document.paths as Record<string, Record<string, { parameters?: unknown[] }>>)[op.path]?.[op.method];
  const names = new Set<string>();
  for (const param of operation?.parameters ?? []) {
    const p = param as { in?: string; name?: string; schema?: { type?: unknown } };
    if (p.in === 'query' && p.name && p.schema?.type === 'array') names.add(p.name);
  }
  return names;
}

/** A stream's route: its query checked by the document like any control route (400 VALIDATION_ERROR), then the stream. */
function streamRoute(contract: Contract, op: OperationContract, stream: StreamHandler): RequestHandler {
  const lists = listParameters(contract, op);
  return (req, res, next) => {
    // A repeated parameter arrives as a list, a single one as a string: both are a list (form, explode).
    const query = Object.fromEntries(
      Object.entries(req.query).map(([name, value]) => [name, lists.has(name) && !Array.isArray(value) ? [value] : value]),
    );
    const check = op.checkRequest({ params: req.params, query, headers: req.headers, body: undefined });
    if (check.errors.length > 0) return next(new ServiceError('VALIDATION_ERROR', { fields: check.errors }));
    stream(req, res, check.query);
  };
}

export function controlRouter(
  contract: Contract,
  handlers: Record<string, RouteHandler>,
  deps: RouteDeps,
  publicContract: Contract,
  /** Operations answered as a stream (text/event-stream), not through the JSON pipeline: GET /_mock/live. */
  streams: Record<string, StreamHandler> = {},
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
      router[op.method as 'get'](expressPath, streamRoute(contract, op, stream));
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
