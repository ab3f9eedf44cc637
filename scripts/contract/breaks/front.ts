// Apps in front of the mock's request listener: one that runs first on every request of the
// service API, one that rewrites JSON answers, one that changes response headers as they are set;
// and small readers of what passes through them.
import express, { type NextFunction, type Request, type Response } from 'express';
import type { Wrap } from './break';

/**
 * An app in front of the mock's: `use` runs first on every request of the service API, then the
 * mock answers. The control API (/_mock) is left alone: a break must be caught by what the
 * suite checks of the API, not by its own set-up calls failing.
 */
export function front(use: (req: Request, res: Response, next: NextFunction) => void): Wrap {
  return (app) => {
    const outer = express();
    outer.disable('x-powered-by');
    outer.set('etag', false);
    outer.use((req, res, next) => (req.path.startsWith('/_mock') ? next() : use(req, res, next)));
    outer.use(app);
    return outer;
  };
}

/** A JSON object of an answer, as parsed: its fields are read and changed in place. */
export type JsonObject = Record<string, unknown>;

export const isObject = (value: unknown): value is JsonObject => typeof value === 'object' && value !== null && !Array.isArray(value);

interface Answer {
  req: Request;
  status: number;
  /** The JSON as parsed, a deep copy: changing it never changes the mock's stored records. */
  body: unknown;
}
type Rewritten = { status?: number; body?: unknown; empty?: true; text?: { type: string; body: string } } | void;

/**
 * Rewrites JSON answers. The mock ends every answer with res.end: after writeHead(status,
 * headers) on its front door, after setHeader calls through Express elsewhere. So writeHead is
 * held back until end, where the JSON is parsed, changed and written with its new length.
 */
export function rewrite(change: (answer: Answer) => Rewritten): Wrap {
  return front((req, res, next) => {
    const writeHead = res.writeHead.bind(res) as (status: number) => Response;
    const end = res.end.bind(res) as (chunk?: unknown) => Response;
    let heldStatus: number | undefined;
    res.writeHead = ((status: number, ...rest: unknown[]) => {
      heldStatus = status;
      const headers = rest.find((arg) => arg !== null && typeof arg === 'object' && !Array.isArray(arg)) as
        Record<string, string | number> | undefined;
      for (const [name, value] of Object.entries(headers ?? {})) res.setHeader(name, value);
      return res;
    }) as typeof res.writeHead;
    res.end = ((chunk?: string | Uint8Array | (() => void)) => {
      const status = heldStatus ?? res.statusCode;
      const json = chunk !== undefined && typeof chunk !== 'function' && /json/i.test(String(res.getHeader('content-type') ?? ''));
      if (!json) return writeHead(status) && end(chunk);
      const body: unknown = JSON.parse(String(chunk));
      const out = change({ req, status, body }) ?? {};
      const finalStatus = out.status ?? status;
      if (out.empty) {
        res.removeHeader('content-type');
        res.removeHeader('content-length');
        return writeHead(finalStatus) && end();
      }
      let text = JSON.stringify('body' in out ? out.body : body);
      if (out.text) {
        res.setHeader('content-type', out.text.type);
        text = out.text.body;
      }
      res.setHeader('content-length', Buffer.byteLength(text));
      return writeHead(finalStatus) && end(text);
    }) as typeof res.end;
    next();
  });
}

/** Changes (or with undefined, drops) response headers as the mock sets them. */
export function headers(
  change: (name: string, value: number | string | readonly string[]) => number | string | readonly string[] | undefined,
): Wrap {
  return front((_req, res, next) => {
    const set = res.setHeader.bind(res);
    res.setHeader = ((name: string, value: number | string | readonly string[]) => {
      const changed = change(name.toLowerCase(), value);
      return changed === undefined ? res : set(name, changed);
    }) as typeof res.setHeader;
    next();
  });
}

/** Every record (a JSON object) in a single-record or list answer. */
export const records = (body: unknown): JsonObject[] =>
  (isObject(body) && Array.isArray(body.data) ? (body.data as unknown[]) : [body]).filter(isObject);
export const isPage = (body: unknown): body is { data: unknown[]; meta: JsonObject } =>
  isObject(body) && Array.isArray(body.data) && isObject(body.meta);
export const path = (req: Request) => req.originalUrl.split('?')[0] ?? '';
