// A loopback webhook receiver that decides each delivery's fate from its message id and the
// attempt number (so a "random third" of deliveries fail, but never a message's last allowed
// attempt), and records every request it got, whatever it answered.
import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export type Fate = 'ok' | 'status500' | 'reset' | 'hang';

export interface Arrival {
  path: string;
  messageId: string;
  eventType: string;
  body: string;
  /** 0 for the first request with this message id, 1 for the next... */
  attempt: number;
  fate: Fate;
}

export interface FlakyReceiver {
  base: string;
  arrivals: Arrival[];
  close(): Promise<void>;
}

export async function startFlakyReceiver(decide: (messageId: string, attempt: number) => Fate): Promise<FlakyReceiver> {
  const arrivals: Arrival[] = [];
  const attempts = new Map<string, number>();
  const sockets = new Set<Socket>();
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const messageId = String(req.headers['x-message-id']);
      const attempt = attempts.get(messageId) ?? 0;
      attempts.set(messageId, attempt + 1);
      const fate = decide(messageId, attempt);
      arrivals.push({ path: req.url ?? '', messageId, eventType: String(req.headers['x-event-type']), body: Buffer.concat(chunks).toString('utf8'), attempt, fate });
      if (fate === 'hang') return; // the mock's time-out ends it
      if (fate === 'reset') return void req.socket.destroy();
      res.writeHead(fate === 'ok' ? 200 : 500).end(fate);
    });
  });
  // Longer than any test: an idle keep-alive socket closed under the mock's feet would turn into
  // a failed attempt this receiver never saw.
  server.keepAliveTimeout = 120_000;
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    base: `http://127.0.0.1:${port}`,
    arrivals,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** A stable 32-bit hash of a string (FNV-1a), to derive a seeded coin per message and attempt. */
export function hash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}
