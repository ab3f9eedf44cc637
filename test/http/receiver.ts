// A real webhook receiver on loopback for tests: records every request and answers as told
// (a status, a hang until the client gives up, a reset connection, a redirect).
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export interface Received {
  headers: IncomingHttpHeaders;
  body: string;
}

export type Behaviour = { status: number; location?: string } | 'hang' | 'reset';

export interface Receiver {
  url: string;
  received: Received[];
  /** Answers to the next requests, in order; after them, `fallback`. */
  script(...behaviours: Behaviour[]): void;
  fallback: Behaviour;
  waitFor(count: number, timeoutMs?: number): Promise<Received[]>;
  close(): Promise<void>;
}

export async function startReceiver(fallback: Behaviour = { status: 200 }): Promise<Receiver> {
  const received: Received[] = [];
  const queue: Behaviour[] = [];
  const sockets = new Set<Socket>();
  const waiters: Array<() => void> = [];
  const receiver = { fallback } as Receiver;
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      waiters.splice(0).forEach((wake) => wake());
      const behaviour = queue.shift() ?? receiver.fallback;
      if (behaviour === 'hang') return;
      if (behaviour === 'reset') {
        req.socket.destroy();
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
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return Object.assign(receiver, {
    url: `http://127.0.0.1:${port}/hooks`,
    received,
    script: (...behaviours: Behaviour[]) => void queue.push(...behaviours),
    async waitFor(count: number, timeoutMs = 5000) {
      const deadline = Date.now() + timeoutMs;
      while (received.length < count) {
        if (Date.now() > deadline) throw new Error(`receiver got ${received.length} requests, expected ${count}`);
        await new Promise<void>((resolve) => {
          waiters.push(resolve);
          setTimeout(resolve, 50).unref();
        });
      }
      return received;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  });
}
