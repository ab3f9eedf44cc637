// The scripted webhook receiver: a real HTTP server (loopback by default) that records every
// request it gets and answers each as scripted, for the tests, the QA scenarios, the contract
// suite and the webhook benchmark. It imports nothing from the rest of the mock (node built-ins
// only), so anything may use it, including the contract suite against a remote target.
//
// One server holds endpoints: the receiver itself (`url`, `/hooks`, which also takes any path no
// other endpoint has) and any number of named ones (`endpoint()`, `/hooks/<name>`), each with its
// own script, fallback and record. An answer is a status (with a redirect's location, headers, a
// body, a delay), `reset` (the connection destroyed) or `hang` (no answer: the sender gives up
// at its time-out, or `release()` answers later). `close()` destroys every connection.
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { performance } from 'node:perf_hooks';

/** The word for "takes the request and never answers it". */
export const HANG = 'hang';

export interface StatusAnswer {
  status: number;
  /** The Location header (a redirect). */
  location?: string;
  headers?: Record<string, string>;
  /** Default "ok" (text/plain). */
  body?: string;
  /** Answers this long after the request's body is in (real time). */
  delayMs?: number;
}

/** How one request is answered: a status (a number is `{ status }`), `reset` or `hang`. */
export type Answer = number | StatusAnswer | 'reset' | typeof HANG;

/** What a request was, before it is answered (what a fallback function decides on). */
export interface Arrival {
  method: string;
  /** The path as requested, query included. */
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  /** 0 for the first request with its X-Message-Id at this endpoint, 1 for the next... (a retry's number). */
  attempt: number;
  /** When the body was in: wall-clock ms, with a fraction. */
  at: number;
}

/** A request received and how it was answered. */
export interface Delivery extends Arrival {
  answer: Answer;
}

/** The answer once the script is used up: fixed, or decided per request (e.g. by its attempt). */
export type Fallback = Answer | ((arrival: Arrival) => Answer);

export interface EndpointOptions {
  /** The last path segment (`/hooks/<name>`); a fresh uuid by default. */
  name?: string;
  /** Answers to the first requests, in order. */
  script?: Answer[];
  /** Default 200. */
  fallback?: Fallback;
}

export interface ReceiverOptions {
  /** Script and fallback of the receiver's own endpoint. */
  script?: Answer[];
  fallback?: Fallback;
  /** Default 127.0.0.1 (0.0.0.0 to be reached through a tunnel). */
  host?: string;
  /** Default 0 (a free port). */
  port?: number;
  /** The base URL senders use when it is not http://host:port (a tunnel to this port). */
  publicUrl?: string;
  /** How long an idle keep-alive connection is kept (Node's default, 5 s, unless told). */
  keepAliveTimeoutMs?: number;
}

const now = () => performance.timeOrigin + performance.now();

export class Endpoint {
  readonly url: string;
  /** Every request, in arrival order (tests may empty it: `received.length = 0`). */
  readonly received: Delivery[] = [];
  /** The answer once the script is used up; may be changed at any time. */
  fallback: Fallback;
  private readonly queue: Answer[];
  private readonly attempts = new Map<string, number>();
  private readonly waiters = new Set<() => void>();
  private readonly hung = new Set<(answer: Answer) => void>();

  /** @internal Made by `startReceiver` and `Receiver.endpoint`. */
  constructor(
    url: string,
    options: { script?: Answer[]; fallback?: Fallback },
    private readonly owner: { closed: boolean },
  ) {
    this.url = url;
    this.queue = [...(options.script ?? [])];
    this.fallback = options.fallback ?? 200;
  }

  /** Answers to the next requests, in order, before the fallback. */
  script(...answers: Answer[]): void {
    this.queue.push(...answers);
  }

  /** The X-Event-Type of each request received, in arrival order. */
  eventTypes(): string[] {
    return this.received.map((d) => String(d.headers['x-event-type'] ?? ''));
  }

  /** Forgets what was received (attempt numbers too). */
  clear(): void {
    this.received.length = 0;
    this.attempts.clear();
  }

  /**
   * Resolves with `received` once it holds `count` requests; rejects when the receiver closes, or
   * when `timeoutMs` passes first: a hang guard (60 s by default, far beyond a delivery's time on
   * a busy machine), not a timed assertion.
   */
  waitFor(count: number, timeoutMs = 60_000): Promise<Delivery[]> {
    if (this.received.length >= count) return Promise.resolve(this.received);
    return new Promise<Delivery[]>((resolve, reject) => {
      const check = () => {
        if (this.received.length >= count) finish();
        else if (this.owner.closed)
          finish(new Error(`receiver ${this.url} closed with ${this.received.length} requests, expected ${count}`));
      };
      const finish = (error?: Error) => {
        clearTimeout(timer);
        this.waiters.delete(check);
        if (error) reject(error);
        else resolve(this.received);
      };
      const timer = setTimeout(
        () =>
          finish(
            new Error(
              `receiver ${this.url} got ${this.received.length} requests, expected ${count}: gave up waiting after ${timeoutMs} ms`,
            ),
          ),
        timeoutMs,
      );
      // A forgotten wait never keeps a process alive.
      timer.unref();
      this.waiters.add(check);
    });
  }

  /** Answers every request left hanging that is still open (200 unless told). */
  release(answer: Answer = 200): void {
    const pending = [...this.hung];
    this.hung.clear();
    for (const answerWith of pending) answerWith(answer);
  }

  /** @internal Records a request and answers it. */
  take(arrival: Omit<Arrival, 'attempt'>, respond: Responder): void {
    const messageId = String(arrival.headers['x-message-id'] ?? '');
    const attempt = this.attempts.get(messageId) ?? 0;
    this.attempts.set(messageId, attempt + 1);
    const full: Arrival = { ...arrival, attempt };
    const scripted = this.queue.shift();
    const answer = scripted ?? (typeof this.fallback === 'function' ? this.fallback(full) : this.fallback);
    this.received.push({ ...full, answer });
    for (const check of [...this.waiters]) check();
    if (answer === HANG) {
      const answerWith = (later: Answer) => {
        this.hung.delete(answerWith);
        if (later !== HANG) respond(later);
      };
      this.hung.add(answerWith);
      return;
    }
    respond(answer);
  }

  /** @internal The receiver closed: pending waits fail now rather than at their time-out. */
  receiverClosed(): void {
    this.hung.clear();
    for (const check of [...this.waiters]) check();
  }
}

type Responder = (answer: Exclude<Answer, typeof HANG>) => void;

export class Receiver extends Endpoint {
  /** Where senders reach the server (no path): `publicUrl`, or http://host:port. */
  readonly base: string;
  readonly port: number;
  private readonly endpoints = new Map<string, Endpoint>();

  /** @internal Made by `startReceiver`. */
  constructor(
    base: string,
    port: number,
    options: ReceiverOptions,
    private readonly state: { closed: boolean; later(ms: number, run: () => void): void; close(): Promise<void> },
  ) {
    super(`${base}/hooks`, options, state);
    this.base = base;
    this.port = port;
  }

  /** A new endpoint of this server, at `/hooks/<name>`: its own script, fallback and record. */
  endpoint(options: EndpointOptions = {}): Endpoint {
    const segment = encodeURIComponent(options.name ?? randomUUID());
    if (this.endpoints.has(segment)) throw new Error(`receiver: an endpoint named "${options.name}" exists already`);
    const endpoint = new Endpoint(`${this.base}/hooks/${segment}`, options, this.state);
    this.endpoints.set(segment, endpoint);
    return endpoint;
  }

  /**
   * @internal The endpoint for a request path: the named one its path ends with (`/hooks/<name>`,
   * query ignored, whatever a tunnel put in front), or the receiver itself.
   */
  route(path: string): Endpoint {
    const name = /\/hooks\/([^/]+)$/.exec(path.split('?')[0]!)?.[1];
    return (name !== undefined && this.endpoints.get(name)) || this;
  }

  /** @internal */
  allEndpoints(): Endpoint[] {
    return [this, ...this.endpoints.values()];
  }

  /** Destroys every connection (hanging and delayed answers included) and stops listening; idempotent. */
  close(): Promise<void> {
    return this.state.close();
  }
}

/** Starts a receiver; it listens before this resolves. */
export async function startReceiver(options: ReceiverOptions = {}): Promise<Receiver> {
  const sockets = new Set<Socket>();
  const timers = new Set<NodeJS.Timeout>();
  let closing: Promise<void> | undefined;
  const state = {
    closed: false,
    later(ms: number, run: () => void) {
      const timer = setTimeout(() => {
        timers.delete(timer);
        run();
      }, ms);
      timers.add(timer);
    },
    close: () =>
      (closing ??= new Promise<void>((resolve) => {
        state.closed = true;
        for (const timer of timers) clearTimeout(timer);
        timers.clear();
        for (const socket of sockets) socket.destroy();
        for (const endpoint of made.receiver?.allEndpoints() ?? []) endpoint.receiverClosed();
        server.close(() => resolve());
      })),
  };
  const made: { receiver?: Receiver } = {};

  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const path = req.url ?? '/';
      const respond: Responder = (answer) => {
        if (res.destroyed || res.headersSent) return;
        if (answer === 'reset') {
          req.socket.destroy();
          return;
        }
        const spec: StatusAnswer = typeof answer === 'number' ? { status: answer } : answer;
        const write = () => {
          if (res.destroyed || res.headersSent) return;
          res.writeHead(spec.status, {
            'content-type': 'text/plain',
            ...spec.headers,
            ...(spec.location ? { location: spec.location } : {}),
          });
          res.end(spec.body ?? 'ok');
        };
        if (spec.delayMs && spec.delayMs > 0) state.later(spec.delayMs, write);
        else write();
      };
      made
        .receiver!.route(path)
        .take({ method: req.method ?? '', path, headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), at: now() }, respond);
    });
  });
  if (options.keepAliveTimeoutMs !== undefined) server.keepAliveTimeout = options.keepAliveTimeoutMs;
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  const host = options.host ?? '127.0.0.1';
  server.listen(options.port ?? 0, host);
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  const base = options.publicUrl?.replace(/\/+$/, '') ?? `http://${host === '0.0.0.0' ? '127.0.0.1' : host}:${port}`;
  made.receiver = new Receiver(base, port, options, state);
  return made.receiver;
}
