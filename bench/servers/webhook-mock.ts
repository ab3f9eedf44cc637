// fos-mock for the webhook fan-out benchmark. Usage (tsx loader): webhook-mock.ts <port>
// The real app (subscriptions are made through its API, deliveries go through its dispatcher),
// plus one bench route that fires events in this process: POST /_bench/fire?count=N&perSecond=R
// creates N transfers of the demo customer through the operation service (the create path
// without HTTP), R a second (0: as fast as possible), and answers when the last is fired. So
// the rate measured is the dispatcher's, not the create endpoint's (the scaling benchmark
// times that). Each transfer publishes one OPERATION_REQUESTED event.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createApp } from '../../mock/app';
import { createServer } from '../../mock/server';

const port = Number(process.argv[2]);
/** Wall-clock ms with sub-millisecond precision, comparable across processes of one machine. */
const now = () => performance.timeOrigin + performance.now();

async function main(): Promise<void> {
  // As `fos-mock serve` builds it (precompiled validators when the build made them).
  const mock = await createApp({ precompiled: true, config: { logLevel: 'silent', autoSettleMs: null, secret: 'bench-secret' } });
  const customerId = mock.fixtures.customers[0]!.id;
  const brl = (await mock.deps.store.all('account', customerId)).filter((a) => a.account.assets.some((asset) => asset.currency === 'BRL'));
  if (brl.length < 2) throw new Error('webhook-mock: the demo customer needs two BRL accounts');
  const transfer = { accountId: brl[0]!.account.id, targetAccountId: brl[1]!.account.id, asset: 'BRL' as const, amount: '10.00' };

  async function fire(count: number, perSecond: number): Promise<{ startedAt: number; ms: number }> {
    const startedAt = now();
    for (let i = 0; i < count; i++) {
      if (perSecond > 0) {
        // Paced: event i is due i/R seconds after the start; a late timer is caught up at once.
        const wait = startedAt + (i * 1000) / perSecond - now();
        if (wait >= 1) await new Promise((resolve) => setTimeout(resolve, wait));
      } else if (i % 50 === 0) {
        // A burst still yields now and then, as a stream of requests would, so deliveries start.
        await new Promise((resolve) => setImmediate(resolve));
      }
      await mock.services.operations.createTransfer(customerId, transfer);
    }
    return { startedAt, ms: now() - startedAt };
  }

  const listener = (req: IncomingMessage, res: ServerResponse) => {
    if (!req.url?.startsWith('/_bench/fire')) return mock.app(req, res);
    const query = new URL(req.url, 'http://bench').searchParams;
    fire(Number(query.get('count') ?? 1), Number(query.get('perSecond') ?? 0)).then(
      (fired) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(fired)),
      (error: Error) => res.writeHead(500).end(error.message),
    );
  };
  const server = createServer(listener, mock.deps.config).listen(port, '127.0.0.1');
  process.on('SIGTERM', () => {
    // Not waited for: the process exits right away.
    void mock.close();
    server.close();
    process.exit(0);
  });
}

main().catch((error) => {
  process.stderr.write(`webhook-mock: ${(error as Error).stack}\n`);
  process.exit(1);
});
