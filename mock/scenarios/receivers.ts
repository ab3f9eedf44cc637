// Loopback webhook receivers for scenarios: each records what it receives and answers by its
// script (a status, `hang` - no answer until the mock gives up - or `reset`, the connection
// destroyed), then by its fallback (200 unless told).
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { Answer, ReceiverSpec } from './types';

export interface Delivery {
  headers: IncomingHttpHeaders;
  body: string;
}

export interface ScenarioReceiver {
  name: string;
  url: string;
  received: Delivery[];
  /** The X-Event-Type of each request received, in arrival order. */
  eventTypes(): string[];
  close(): Promise<void>;
}

export async function startReceiver(name: string, spec: ReceiverSpec | null = {}): Promise<ScenarioReceiver> {
  const script: Answer[] = [...(spec?.script ?? [])];
  const fallback: Answer = spec?.fallback ?? 200;
  const received: Delivery[] = [];
  const sockets = new Set<Socket>();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      const answer = script.shift() ?? fallback;
      if (answer === 'hang') return;
      if (answer === 'reset') {
        req.socket.destroy();
        return;
      }
      res.writeHead(answer, { 'content-type': 'text/plain' });
      res.end('ok');
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const { port } = server.address() as AddressInfo;
  return {
    name,
    url: `http://127.0.0.1:${port}/hooks/${encodeURIComponent(name)}`,
    received,
    eventTypes: () => received.map((r) => String(r.headers['x-event-type'] ?? '')),
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

export async function startReceivers(specs: Record<string, ReceiverSpec | null> = {}): Promise<Map<string, ScenarioReceiver>> {
  const started = new Map<string, ScenarioReceiver>();
  try {
    for (const [name, spec] of Object.entries(specs)) started.set(name, await startReceiver(name, spec));
  } catch (error) {
    await closeReceivers(started);
    throw error;
  }
  return started;
}

export async function closeReceivers(receivers: Map<string, ScenarioReceiver>): Promise<void> {
  await Promise.all([...receivers.values()].map((r) => r.close()));
}
