// One autocannon run, reduced to the numbers the reports compare.
import { randomUUID } from 'node:crypto';
import autocannon from 'autocannon';

export interface LoadRequest {
  method: 'GET' | 'POST';
  path: string;
  headers: Record<string, string>;
  body?: string;
  /** A fresh X-Idempotency-Key on every request. */
  freshIdempotencyKey?: boolean;
  /** A new path for every request (a page at a random position), instead of `path` each time. */
  pathFor?: () => string;
}

export interface LoadResult {
  rps: number;
  p50: number;
  p99: number;
  /** Requests answered 2xx (creates made, for benchmarks that add to the store). */
  ok: number;
  errors: number;
  non2xx: number;
}

export async function load(url: string, request: LoadRequest, connections: number, durationS: number): Promise<LoadResult> {
  const base = { method: request.method, path: request.path, headers: request.headers, body: request.body };
  // autocannon calls setupRequest only when it is a function: leave it out otherwise.
  const { freshIdempotencyKey, pathFor } = request;
  const setupRequest = (req: { path?: string; headers?: Record<string, string> }) => ({
    ...req,
    ...(pathFor ? { path: pathFor() } : {}),
    ...(freshIdempotencyKey ? { headers: { ...req.headers, 'x-idempotency-key': randomUUID() } } : {}),
  });
  const spec = freshIdempotencyKey || pathFor ? { ...base, setupRequest } : base;
  const result = await autocannon({ url, connections, duration: durationS, requests: [spec] } as autocannon.Options);
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    ok: result['2xx'],
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
  };
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

/** The two requests the throughput benchmarks load: the first page of accounts, and a quote (a fresh idempotency key each). */
export function serviceRequests(token: string, accountId: string): Record<'list' | 'quote', LoadRequest> {
  return {
    list: { method: 'GET', path: '/api/accounts?limit=10', headers: { authorization: `Bearer ${token}` } },
    quote: {
      method: 'POST',
      path: '/v1/quotes',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ accountId, sourceAsset: 'BRL', targetAsset: 'USDT', sourceAmount: '100.00' }),
      freshIdempotencyKey: true,
    },
  };
}
