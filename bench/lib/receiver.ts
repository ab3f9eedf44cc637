// The healthy subscriber of the webhook benchmark: a plain Node http server answering 200 as
// soon as a delivery's body is in, recording when it arrived and the event's own time (the
// payload's atTime, the mock clock's instant of the transition; the mock runs on real time
// here). atTime has whole milliseconds and is truncated, so a delay reads up to 1 ms long.
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Receiver {
  url: string;
  /** Deliveries since the last reset. */
  readonly count: number;
  /** Arrival (wall-clock ms) of the latest delivery since the last reset. */
  readonly lastArrival: number;
  /** Event-to-arrival delays in ms since the last reset. */
  readonly delays: number[];
  reset(): void;
  /** Resolves true when `count` deliveries have arrived since the reset, false at the time-out. */
  waitFor(count: number, timeoutMs: number): Promise<boolean>;
  close(): Promise<void>;
}

const now = () => performance.timeOrigin + performance.now();

export async function startReceiver(): Promise<Receiver> {
  let delays: number[] = [];
  let lastArrival = 0;
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const arrived = now();
      res.writeHead(200).end();
      const atTime = (JSON.parse(Buffer.concat(chunks).toString('utf8')) as { atTime: string }).atTime;
      delays.push(arrived - Date.parse(atTime));
      lastArrival = arrived;
    });
  });
  // Every subscription keeps connections open to it; the default 5 s keep-alive is enough.
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    get count() {
      return delays.length;
    },
    get lastArrival() {
      return lastArrival;
    },
    get delays() {
      return delays;
    },
    reset() {
      delays = [];
      lastArrival = 0;
    },
    async waitFor(count, timeoutMs) {
      const deadline = Date.now() + timeoutMs;
      while (delays.length < count && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 5));
      return delays.length >= count;
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
