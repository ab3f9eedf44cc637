// The front door: every request reaches this listener first. A documented service operation is
// answered here, on Node's own request and response: a route-table look-up, the request id, the
// journal, injected faults, the body, then the operation's pipeline (operation-route.ts).
// Everything else (the control API, /docs, unknown paths and methods, with their 404 and 405)
// goes on to the Express app. Skipping Express's router walk and response helpers on the hot
// path roughly doubles the throughput; the rules are the same code either way.
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { parse as parseQuery } from 'node:querystring';
import type { Logger } from 'pino';
import type { Clock } from '../clock';
import { ServiceError } from '../errors/catalogue';
import { applyFault, customerOfToken } from './fault-middleware';
import type { FaultRegistry } from './faults';
import type { Journal } from './journal';
import { jsonBodyReader } from './body';
import { answerError } from './error-handler';
import { runOperation, type RouteDeps } from './operation-route';
import { assignRequestId } from './request-id';
import type { RouteMatch, RouteTable } from './route-table';
import type { RouteHandler } from '../resources/types';

export interface FrontDoor {
  routes: RouteTable<RouteHandler>;
  deps: RouteDeps;
  faults: FaultRegistry;
  journal: Journal;
  clock: Clock;
  logger: Logger;
  bodyLimitBytes: number;
  /** Answers what the route table does not know. */
  fallback: RequestListener;
  /** Throws 503 SERVICE_UNAVAILABLE when the shared state is out of reach (replicas on Redis). */
  assertAvailable?: () => void;
}

/** Percent-decodes path parameters; a malformed escape is the client's error (400), as Express's router has it. */
function decodeParams(raw: Record<string, string>): Record<string, string> {
  const params: Record<string, string> = {};
  for (const [name, value] of Object.entries(raw)) {
    try {
      params[name] = decodeURIComponent(value);
    } catch (error) {
      throw Object.assign(error as Error, { status: 400 });
    }
  }
  return params;
}

/**
 * RFC 9112 3.2.2: a server accepts a request target in absolute form (`http://host/path?query`)
 * as its path and query, as Express does for what goes on to it. Any other target ('*') is kept.
 */
function originForm(target: string): string {
  // Stryker disable next-line ConditionalExpression: the usual origin form skips a URL parse that would throw and keep it anyway.
  if (target.startsWith('/')) return target;
  try {
    const url = new URL(target);
    return url.pathname + url.search;
  } catch {
    return target;
  }
}

export function serviceListener(door: FrontDoor): RequestListener {
  const readBody = jsonBodyReader(door.bodyLimitBytes);

  async function serve(
    req: IncomingMessage,
    method: string,
    res: ServerResponse,
    url: string,
    path: string,
    match: RouteMatch<RouteHandler>,
  ): Promise<void> {
    door.assertAvailable?.();
    // A body declared over the limit is refused before a byte of it is read (what the client
    // still sends is then discarded: unread-body.ts).
    if (match.op.hasBody && Number(req.headers['content-length']) > door.bodyLimitBytes) {
      throw new ServiceError('PAYLOAD_TOO_LARGE', { limitBytes: door.bodyLimitBytes });
    }
    // No fault known (the usual case): no await on the way.
    // Stryker disable next-line ConditionalExpression: take() on an empty registry finds nothing; the size test only spares an await.
    const customerOf = door.faults.size === 0 ? undefined : customerOfToken(door.deps.services.tokens, req.headers.authorization);
    const action = customerOf && (await door.faults.take(method, path, customerOf));
    if (action && (await applyFault(action, req, res, door.logger, customerOf))) return;
    const params = decodeParams(match.params);
    const queryStart = url.indexOf('?');
    // Express 5's default ("simple") query parser is node:querystring: the same values here.
    const query = queryStart === -1 ? {} : (parseQuery(url.slice(queryStart + 1)) as Record<string, unknown>);
    // Read once the token is checked (runOperation): a request without one is answered first.
    const read = match.op.hasBody ? () => readBody(req, res) : undefined;
    await runOperation(match.op, match.target, door.deps, { method, url, headers: req.headers, params, query, readBody: read }, res);
  }

  return (req, res) => {
    // A server's request always has its method and URL (the types allow a client's request too).
    const method = req.method as string;
    const url = originForm(req.url as string);
    const queryStart = url.indexOf('?');
    const path = queryStart === -1 ? url : url.slice(0, queryStart);
    // Every route's pattern is anchored at a leading '/': another request target ('*', an absolute URL) matches none.
    const match = door.routes.match(method, path);
    if (!match) return door.fallback(req, res);
    assignRequestId(res);
    door.journal.track(door.clock, req, res, path);
    serve(req, method, res, url, path, match).catch((error) => answerError(error, req, res, door.logger));
  };
}
