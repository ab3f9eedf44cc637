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
  /** Latency percentiles in ms to 0.01 ms, of the 2xx answers (as autocannon counts them). */
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
  // Each 2xx answer's time, as autocannon measures it (hrtime, fractions of a ms): its own
  // histogram keeps whole milliseconds, too coarse for a page answered in 3 to 9 ms, where one
  // step is a third of a 1.5x target.
  const times: number[] = [];
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon({ url, connections, duration: durationS, requests: [spec] } as autocannon.Options, (error, done) =>
      error ? reject(error as Error) : resolve(done),
    );
    instance.on('response', (_client, statusCode, _bytes, responseTime) => {
      if (statusCode >= 200 && statusCode < 300) times.push(responseTime);
    });
  });
  times.sort((a, b) => a - b);
  return {
    rps: result.requests.average,
    p50: percentile(times, 0.5),
    p99: percentile(times, 0.99),
    ok: result['2xx'],
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
  };
}

/** The nearest-rank percentile of sorted times, to 0.01 ms (0 when there are none). */
export function percentile(sorted: number[], q: number): number {
  if (sorted.length === 0) return 0;
  const at = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return Math.round(sorted[at]! * 100) / 100;
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
