// A webhook receiver the suite runs (adapted from test/http/receiver.ts): one HTTP server with
// one endpoint per subscription (a path of its own), each recording what it gets and answering
// as told: a status, a redirect or a reset connection. On loopback for a local target; behind
// CONTRACT_WEBHOOK_URL (listening on CONTRACT_WEBHOOK_PORT) for a remote one.
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import { createServer as createNetServer, type AddressInfo, type Socket } from 'node:net';
import { settings } from './settings';

export interface Received {
  method: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/** An answer: a status (with a redirect's location), a reset connection, or held open until `release()`. */
export type Behaviour = { status: number; location?: string } | 'reset' | 'hold';

export interface Endpoint {
  url: string;
  received: Received[];
  /** Answers to the next deliveries, in order; after them, `fallback`. */
  script(...behaviours: Behaviour[]): void;
  fallback: Behaviour;
  /** Waits (bounded, not a timed assertion) until `count` deliveries arrived. */
  waitFor(count: number, timeoutMs?: number): Promise<Received[]>;
  /** Answers every held delivery with 200. */
  release(): void;
}

export interface Receiver {
  endpoint(fallback?: Behaviour): Endpoint;
  close(): Promise<void>;
}

export async function startReceiver(): Promise<Receiver> {
  const endpoints = new Map<string, Endpoint & { queue: Behaviour[]; wake: Array<() => void>; held: Array<() => void> }>();
  const sockets = new Set<Socket>();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const id = (req.url ?? '').split('?')[0]!.split('/').pop() ?? '';
      const endpoint = endpoints.get(id);
      if (!endpoint) {
        res.writeHead(404).end();
        return;
      }
      endpoint.received.push({ method: req.method ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      endpoint.wake.splice(0).forEach((wake) => wake());
      const behaviour = endpoint.queue.shift() ?? endpoint.fallback;
      if (behaviour === 'reset') {
        req.socket.destroy();
        return;
      }
      if (behaviour === 'hold') {
        endpoint.held.push(() => res.writeHead(200).end('ok'));
        return;
      }
      res.writeHead(behaviour.status, behaviour.location ? { location: behaviour.location } : {});
      res.end('ok');
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  const { webhookUrl, webhookPort } = settings();
  server.listen(webhookUrl ? webhookPort : 0, webhookUrl ? '0.0.0.0' : '127.0.0.1');
  await once(server, 'listening');
  const base = webhookUrl ?? `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    endpoint(fallback: Behaviour = { status: 200 }) {
      const id = randomUUID();
      const received: Received[] = [];
      const endpoint = {
        url: `${base}/hooks/${id}`,
        received,
        fallback,
        queue: [] as Behaviour[],
        wake: [] as Array<() => void>,
        held: [] as Array<() => void>,
        release: () => endpoint.held.splice(0).forEach((answer) => answer()),
        script: (...behaviours: Behaviour[]) => void endpoint.queue.push(...behaviours),
        async waitFor(count: number, timeoutMs = 10_000) {
          const deadline = Date.now() + timeoutMs;
          while (received.length < count) {
            if (Date.now() > deadline) throw new Error(`receiver got ${received.length} deliveries, expected ${count}`);
            await new Promise<void>((resolve) => {
              endpoint.wake.push(resolve);
              setTimeout(resolve, 50).unref();
            });
          }
          return received;
        },
      };
      endpoints.set(id, endpoint);
      return endpoint;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** A loopback port nothing listens on (for "connection refused"). */
export async function closedPort(): Promise<number> {
  const probe = createNetServer();
  probe.listen(0, '127.0.0.1');
  await once(probe, 'listening');
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}
