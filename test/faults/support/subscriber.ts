// The webhook subscriber of the fault runs: a local HTTP server that fails every third attempt it
// receives (answers 500) and records every attempt: the message id (X-Message-Id, or the Standard
// Webhooks webhook-id), the event type, the body, what it answered, when, and on which TCP
// connection. Connections are recorded with the moment they closed, so a run can tell the attempts
// a replica made just before it was killed (its connections close when the kernel reaps it).
//
// "Every third" counts attempts in arrival order over all messages; a message's last allowed
// attempt (its attempt number reaches the retry schedule's length) is never failed, so at full
// size no message runs out of retries by the subscriber's choice alone (with 2,000 events and a
// third failing, a few would otherwise fail all six attempts).
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { performance } from 'node:perf_hooks';

export interface Attempt {
  /** 1 for the first request the subscriber got, 2 for the next... */
  seq: number;
  /** performance.now() when its body was in. */
  at: number;
  connection: number;
  messageId: string;
  eventType: string;
  body: string;
  /** 0 for the first request with this message id, 1 for the next... */
  attempt: number;
  /** What the subscriber answered. */
  status: 200 | 500;
}

export interface Connection {
  id: number;
  remotePort: number;
  openedAt: number;
  /** performance.now() when it closed; undefined while open. */
  closedAt?: number;
  /** seq of the attempts it carried, in order. */
  attempts: number[];
}

export interface Subscriber {
  /** http://127.0.0.1:<port>/hooks */
  url: string;
  readonly attempts: readonly Attempt[];
  readonly connections: readonly Connection[];
  close(): Promise<void>;
}

export interface SubscriberOptions {
  /** Every n-th attempt answers 500 (default 3). */
  failEvery?: number;
  /** A message's attempt number (from 0) from which it is never failed: the retry schedule's length. */
  neverFailFrom: number;
  /** Real ms before each answer (default 0): a subscriber that takes its time keeps deliveries in flight longer. */
  answerDelayMs?: number;
}

function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

export async function startSubscriber(options: SubscriberOptions): Promise<Subscriber> {
  const failEvery = options.failEvery ?? 3;
  const attempts: Attempt[] = [];
  const connections: Connection[] = [];
  const ofSocket = new WeakMap<Socket, Connection>();
  const perMessage = new Map<string, number>();
  const open = new Set<Socket>();

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const messageId = header(req, 'x-message-id') ?? header(req, 'webhook-id') ?? '';
      const attempt = perMessage.get(messageId) ?? 0;
      perMessage.set(messageId, attempt + 1);
      const seq = attempts.length + 1;
      const status: 200 | 500 = seq % failEvery === 0 && attempt < options.neverFailFrom ? 500 : 200;
      const connection = ofSocket.get(req.socket)!;
      connection.attempts.push(seq);
      attempts.push({
        seq,
        at: performance.now(),
        connection: connection.id,
        messageId,
        eventType: header(req, 'x-event-type') ?? '',
        body: Buffer.concat(chunks).toString('utf8'),
        attempt,
        status,
      });
      const answer = () => {
        res.writeHead(status, { 'content-type': 'text/plain' });
        res.end(status === 200 ? 'ok' : 'failing every third attempt');
      };
      if (options.answerDelayMs) setTimeout(answer, options.answerDelayMs);
      else answer();
    });
  });
  server.on('connection', (socket: Socket) => {
    const connection: Connection = {
      id: connections.length + 1,
      remotePort: socket.remotePort ?? 0,
      openedAt: performance.now(),
      attempts: [],
    };
    connections.push(connection);
    ofSocket.set(socket, connection);
    open.add(socket);
    socket.on('close', () => {
      connection.closedAt = performance.now();
      open.delete(socket);
    });
  });
  // Idle keep-alive connections stay open far longer than a run: a connection closes when its
  // sender closes it (or dies), not because the subscriber timed it out.
  server.keepAliveTimeout = 600_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    attempts,
    connections,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of open) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
