// fos-mock with N operations of the demo customer in its store, for the scaling benchmark.
// Usage: node --expose-gc dist/bench/servers/seeded-mock.js <port> <count> <stats file> <strict on|off> <secret>
// (compiled by `npm run build`, tsconfig.build.json, so the mock runs as the build makes it)
// Seeds through the Store interface before answering, then writes the seeding time and the heap
// before and after (each after a full GC), the customer and the first and last keys of its
// operations to the stats file. GET /_bench/heap answers the settled heap at any later point
// (what the creates of the run added).
import { writeFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createApp } from '../../mock/app';
import { createServer } from '../../mock/server';
import { MemoryStore } from '../../mock/store';
import { seedOperations } from '../lib/seed-operations';

const [port, count, statsFile, strict, secret] = process.argv.slice(2) as [string, string, string, string, string];

/**
 * What the live objects take once garbage is gone: the V8 heap in use plus the memory of array
 * buffers, which lives outside it (the memory store keeps ids in typed arrays: heapUsed alone
 * would not count them).
 */
function settledHeap(): number {
  if (!globalThis.gc) throw new Error('seeded-mock needs node --expose-gc');
  globalThis.gc();
  globalThis.gc();
  const { heapUsed, arrayBuffers } = process.memoryUsage();
  return heapUsed + arrayBuffers;
}

async function main(): Promise<void> {
  const store = new MemoryStore();
  // As `fos-mock serve` builds it (precompiled validators when the build made them), with our store.
  const mock = await createApp({
    store,
    precompiled: true,
    config: { logLevel: 'silent', strictResponses: strict !== 'off', autoSettleMs: null, secret },
  });
  const customerId = mock.fixtures.customers[0]!.id;
  // The port is taken before seeding (minutes at a million), so no other program can take it in
  // the meantime and answer the bench's probe; until the store is seeded a connection is closed
  // unanswered, which the probe reads as "not ready yet".
  let ready: ((req: IncomingMessage, res: ServerResponse) => void) | undefined = undefined;
  const server = createServer((req, res) => (ready ? ready(req, res) : req.socket.destroy()), mock.deps.config);
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(Number(port), '127.0.0.1', resolve));
  const heapBefore = settledHeap();
  const started = performance.now();
  await seedOperations(store, mock.deps.reference, customerId, Number(count));
  const seedMs = performance.now() - started;
  const heapAfter = settledHeap();
  // The keys the seeded operations hold, so the bench can make cursors to pages anywhere in them.
  const edge = async (order: 'ASCENDING' | 'DESCENDING') =>
    (await store.page('operation', { scope: customerId, limit: 1, order })).items[0]?.key ?? 0;
  const keys = { first: await edge('ASCENDING'), last: await edge('DESCENDING') };
  writeFileSync(statsFile, JSON.stringify({ count: Number(count), seedMs, heapBefore, heapAfter, customerId, keys }));

  // The one extra route is matched before the app so the app's own routes are untouched.
  ready = (req: IncomingMessage, res: ServerResponse) => {
    if (req.url !== '/_bench/heap') return mock.app(req, res);
    const heapUsed = settledHeap();
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ heapUsed, rss: process.memoryUsage().rss }));
  };
  process.on('SIGTERM', () => {
    // Not waited for: the process exits right away.
    void mock.close();
    server.close();
    process.exit(0);
  });
}

main().catch((error) => {
  process.stderr.write(`seeded-mock: ${(error as Error).stack}\n`);
  process.exit(1);
});
