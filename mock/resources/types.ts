// The contract between the HTTP layer and the handlers: a handler sees plain values typed from
// the API document (its operation's path parameters, query and body, as generated in
// spec/generated), never Express or Node objects, and answers a status and a body.
import type { operations } from '../../spec/generated/api-types';
import type { BodyOf, PathOf, QueryOf } from '../../spec/operation-parts';
import type { Services } from '../services';

export interface HandlerContext<Op> {
  /** The authenticated customer; empty for the token call. */
  customerId: string;
  params: PathOf<Op>;
  /** After validation: coerced and with the document's defaults. */
  query: QueryOf<Op>;
  /** Query parameters the caller actually sent (a default is not a choice). */
  sentQuery: Record<string, unknown>;
  body: BodyOf<Op>;
  services: Services;
}

export interface HandlerResult {
  status: number;
  body?: unknown;
}

export type OperationHandler<Op> = (ctx: HandlerContext<Op>) => Promise<HandlerResult>;

/** One handler per operationId of a document's paths, each typed by its own operation. */
export type HandlerTable<Ops> = { [Id in keyof Ops]: OperationHandler<Ops[Id]> };

/** The service API's operations: those of its paths (its webhooks are answered by subscribers, not by us). */
export type ServiceOperations = { [Id in keyof operations as Id extends `on${string}` ? never : Id]: operations[Id] };
export type ServiceHandlers = HandlerTable<ServiceOperations>;

/** What the request pipeline hands a handler, before the document's types are applied. */
export interface ValidatedRequest {
  customerId: string;
  params: Record<string, string>;
  query: Record<string, unknown>;
  sentQuery: Record<string, unknown>;
  body: unknown;
  services: Services;
}

/** A handler as the pipeline calls it, whichever operation it serves. */
export type RouteHandler = (request: ValidatedRequest) => Promise<HandlerResult>;

/**
 * A typed handler as the pipeline calls it. This is the one place the request is taken as its
 * operation's types: the pipeline calls a handler only after the path, query and body passed
 * that operation's validators (compiled from the same document the types are generated from).
 */
export function routeHandler<Op>(handler: OperationHandler<Op>): RouteHandler {
  return handler as unknown as RouteHandler;
}

/** A table's handlers as the pipeline calls them, by operationId. */
export function routeHandlers<Ops>(table: HandlerTable<Ops>): Record<string, RouteHandler> {
  return Object.fromEntries(Object.entries(table).map(([id, handler]) => [id, routeHandler(handler as OperationHandler<unknown>)]));
}
