// The mock on a real loopback port with a keep-alive client: thousands of fuzzed requests and
// truly concurrent races cost a socket write each, not a server start per request (supertest's
// way with an app). Bodies are sent as given (a string or raw bytes), so a test controls every
// byte the mock parses.
import { randomUUID } from 'node:crypto';
import { Agent, request, type IncomingHttpHeaders, type RequestListener, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { defaultConfig } from '../../../mock/config';
import { createServer, type ServerLimits } from '../../../mock/server';

export interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
  /**
   * The body parsed as JSON; undefined when empty or not JSON. `any`, like supertest's `res.body`:
   * the tests assert answers field by field (the no-unsafe-* rules are off in tests for that).
   */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- a wire answer of any operation, read as supertest's res.body is
  body: any;
}

export interface SendOptions {
  method: string;
  path: string;
  headers?: Record<string, string | string[]>;
  /** Objects are sent as JSON; strings and buffers as they are. */
  body?: unknown;
}

export interface Served {
  port: number;
  server: Server;
  send(options: SendOptions): Promise<Answer>;
  close(): Promise<void>;
}

/** The app behind the mock's own server (mock/server.ts), with its limits, as `fos-mock serve` runs it. */
export async function serve(app: RequestListener, limits: ServerLimits = defaultConfig()): Promise<Served> {
  const server = createServer(app, limits);
  const sockets = new Set<Socket>();
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  const agent = new Agent({ keepAlive: true, maxSockets: 128 });
  return {
    port,
    server,
    send: (options) => send(port, agent, options),
    close: () =>
      new Promise<void>((resolve) => {
        agent.destroy();
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

export function send(port: number, agent: Agent, options: SendOptions): Promise<Answer> {
  const headers: Record<string, string | string[]> = { ...(options.headers ?? {}) };
  let payload: Buffer | undefined;
  if (options.body !== undefined) {
    if (Buffer.isBuffer(options.body)) payload = options.body;
    else if (typeof options.body === 'string') payload = Buffer.from(options.body, 'utf8');
    else payload = Buffer.from(JSON.stringify(options.body), 'utf8');
    if (!Object.keys(headers).some((name) => name.toLowerCase() === 'content-type')) headers['content-type'] = 'application/json';
    headers['content-length'] = String(payload.length);
  }
  return new Promise<Answer>((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, method: options.method, path: options.path, headers, agent }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('error', reject);
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let body: unknown;
        try {
          body = text === '' ? undefined : JSON.parse(text);
        } catch {
          body = undefined;
        }
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text, body });
      });
    });
    req.on('error', reject);
    req.end(payload);
  });
}

/**
 * Authorised JSON calls over a served mock, like the harness's `as()` but on the keep-alive
 * client; POST and PATCH carry a fresh idempotency key unless one is given.
 */
export function client(served: Served, token: string) {
  const auth = { authorization: `Bearer ${token}` };
  return {
    get: (path: string) => served.send({ method: 'GET', path, headers: auth }),
    post: (path: string, body?: unknown, key: string = randomUUID()) =>
      served.send({ method: 'POST', path, headers: { ...auth, 'x-idempotency-key': key }, body }),
    patch: (path: string, body: unknown, key: string = randomUUID()) =>
      served.send({ method: 'PATCH', path, headers: { ...auth, 'x-idempotency-key': key }, body }),
    delete: (path: string) => served.send({ method: 'DELETE', path, headers: auth }),
  };
}

export type Client = ReturnType<typeof client>;
