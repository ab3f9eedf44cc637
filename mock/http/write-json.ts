// Writes a JSON answer straight on Node's response (what Express's res.json ends in, without
// its content negotiation, ETag and freshness work): Content-Type and Content-Length, merged
// with the headers already set (X-Request-Id, Retry-After, X-Idempotent-Replayed).
import type { ServerResponse } from 'node:http';
import { localsOf } from './request-id';

/** Writes `json`, the JSON of `body` as text or UTF-8 bytes (both undefined for an answer without a body). */
export function writeJson(res: ServerResponse, status: number, json: string | Buffer | undefined, body?: unknown): void {
  if (json === undefined) {
    res.statusCode = status;
    res.end();
    return;
  }
  // For the journal (GET /_mock/journal/{requestId}): references, no copy (journal-exchange.ts keeps one of them).
  const locals = localsOf(res);
  locals.responseJson = json;
  locals.responseBody = body;
  res.writeHead(status, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': typeof json === 'string' ? Buffer.byteLength(json) : json.length,
  });
  res.end(json);
}
