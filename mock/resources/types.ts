// The contract between the HTTP layer and the resource handlers: handlers see plain values,
// never Express objects, and answer a status and a body.
import type { Services } from '../services';

export interface HandlerContext {
  /** The authenticated customer; empty for the token call. */
  customerId: string;
  params: Record<string, string>;
  /** After validation: coerced and with the document's defaults. */
  query: Record<string, unknown>;
  /** Query parameters the caller actually sent (a default is not a choice). */
  sentQuery: Record<string, unknown>;
  body: any;
  services: Services;
}

export interface HandlerResult {
  status: number;
  body?: unknown;
}

export type Handler = (ctx: HandlerContext) => Promise<HandlerResult>;
export type HandlerTable = Record<string, Handler>;
