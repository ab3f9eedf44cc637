// HTTP calls to one replica that always end, and say how: an answer (status, headers, body, how
// long it took), a network error (the replica was killed under the request, or refused it) or a
// client-side time-out. Fault runs send requests while processes die and Redis goes away, so a
// call never throws and never waits forever: a request that hangs is a finding, not a stuck run.
import { randomUUID } from 'node:crypto';
import { Agent, request, type IncomingHttpHeaders } from 'node:http';
import { performance } from 'node:perf_hooks';

/** The client-side time-out of a service call: longer than any answer the mock may take (its Redis command time-out is 3 s). */
export const CALL_TIMEOUT_MS = 10_000;
/** Control calls that move time or wait for deliveries do real work on every replica: more time. */
export const CONTROL_TIMEOUT_MS = 120_000;

interface Timing {
  /** performance.now() when the request was sent and when its outcome was known. */
  sentAt: number;
  endedAt: number;
  ms: number;
}

export interface Answered extends Timing {
  kind: 'answer';
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
  /** The body parsed as JSON, undefined when empty or not JSON (read field by field, as supertest's res.body). */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- a wire answer of any operation
  body: any;
}

export interface NetworkError extends Timing {
  kind: 'network';
  /** ECONNREFUSED, ECONNRESET, socket hang up... */
  code: string;
}

export interface TimedOut extends Timing {
  kind: 'timeout';
}

export type Outcome = Answered | NetworkError | TimedOut;

export function describeOutcome(outcome: Outcome): string {
  switch (outcome.kind) {
    case 'answer':
      return `${outcome.status} ${outcome.text.slice(0, 300)}`;
    case 'network':
      return `network error ${outcome.code} after ${Math.round(outcome.ms)} ms`;
    case 'timeout':
      return `no answer within ${Math.round(outcome.ms)} ms (client time-out)`;
  }
}

export interface CallOptions {
  headers?: Record<string, string>;
  body?: unknown;
  timeoutMs?: number;
}

export interface TimedClient {
  url: string;
  call(method: string, path: string, options?: CallOptions): Promise<Outcome>;
  /** A control call (path relative to /_mock) that must answer 2xx: throws with the outcome otherwise. */
  control(method: string, path: string, body?: unknown): Promise<Answered>;
  /** A customer's calls with its bearer token; POSTs carry a fresh X-Idempotency-Key. */
  as(token: string): CustomerCalls;
  close(): void;
}

export interface CustomerCalls {
  get(path: string, timeoutMs?: number): Promise<Outcome>;
  post(path: string, body: unknown, timeoutMs?: number): Promise<Outcome>;
}

export function timedClient(baseUrl: string): TimedClient {
  const url = new URL(baseUrl);
  const port = Number(url.port);
  // Keep-alive, as a balancer or an SDK reaches the mock; idle sockets dropped before the mock's 5 s keep-alive time-out.
  const agent = new Agent({ keepAlive: true, maxSockets: 256, timeout: 3_000 });

  const call = (method: string, path: string, options: CallOptions = {}): Promise<Outcome> => {
    const timeoutMs = options.timeoutMs ?? CALL_TIMEOUT_MS;
    const headers: Record<string, string> = { accept: 'application/json', ...(options.headers ?? {}) };
    let payload: Buffer | undefined;
    if (options.body !== undefined) {
      payload = Buffer.from(JSON.stringify(options.body), 'utf8');
      headers['content-type'] = 'application/json';
      headers['content-length'] = String(payload.length);
    }
    const sentAt = performance.now();
    return new Promise<Outcome>((resolve) => {
      let done = false;
      const finish = (outcome: Omit<Answered, keyof Timing> | Omit<NetworkError, keyof Timing> | Omit<TimedOut, keyof Timing>) => {
        if (done) return;
        done = true;
        clearTimeout(timer);
        const endedAt = performance.now();
        resolve({ ...outcome, sentAt, endedAt, ms: endedAt - sentAt });
      };
      const req = request({ host: url.hostname, port, method, path, headers, agent }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('error', (error: NodeJS.ErrnoException) => finish({ kind: 'network', code: error.code ?? error.message }));
        res.on('aborted', () => finish({ kind: 'network', code: 'ECONNRESET (answer cut)' }));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let body: unknown;
          try {
            body = text === '' ? undefined : JSON.parse(text);
          } catch {
            body = undefined;
          }
          finish({ kind: 'answer', status: res.statusCode ?? 0, headers: res.headers, text, body });
        });
      });
      const timer = setTimeout(() => {
        finish({ kind: 'timeout' });
        req.destroy();
      }, timeoutMs);
      req.on('error', (error: NodeJS.ErrnoException) => finish({ kind: 'network', code: error.code ?? error.message }));
      req.end(payload);
    });
  };

  return {
    url: baseUrl,
    call,
    control: async (method, path, body) => {
      const outcome = await call(method, `/_mock${path}`, { body, timeoutMs: CONTROL_TIMEOUT_MS });
      if (outcome.kind !== 'answer' || outcome.status >= 300)
        throw new Error(`${method} ${baseUrl}/_mock${path}: ${describeOutcome(outcome)}`);
      return outcome;
    },
    as: (token) => {
      const auth = { authorization: `Bearer ${token}` };
      return {
        get: (path, timeoutMs) => call('GET', path, { headers: auth, timeoutMs }),
        post: (path, body, timeoutMs) => call('POST', path, { headers: { ...auth, 'x-idempotency-key': randomUUID() }, body, timeoutMs }),
      };
    },
    close: () => agent.destroy(),
  };
}

/** The answer when it is `status`; throws naming `what` and the outcome otherwise (set-up steps, read-backs). */
export function expectAnswer(outcome: Outcome, status: number, what: string): Answered {
  if (outcome.kind !== 'answer' || outcome.status !== status)
    throw new Error(`${what}: expected ${status}, got ${describeOutcome(outcome)}`);
  return outcome;
}

/** Every item of a list through one client, following nextCursor (limit 100). */
export async function listAll<T = Record<string, unknown>>(api: CustomerCalls, path: string): Promise<T[]> {
  const items: T[] = [];
  const join = path.includes('?') ? '&' : '?';
  let cursor: string | null = null;
  do {
    const page: Answered = expectAnswer(
      await api.get(`${path}${join}limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`),
      200,
      `list ${path}`,
    );
    items.push(...(page.body.data as T[]));
    cursor = page.body.meta.nextCursor as string | null;
  } while (cursor);
  return items;
}
