// Run in a child process (node --import tsx) by capabilities.ts: starts the mock exactly as the
// test files do and asks it for GET /_mock/health, so the suite knows, before it registers its
// tests, whether the control API is there. Prints {"status": <http status>}.
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createApp } from '../../mock/app';

async function main(): Promise<void> {
  const mock = await createApp({ config: { logLevel: 'silent' } });
  const server = createServer(mock.app).listen(0, '127.0.0.1');
  await once(server, 'listening');
  try {
    const { port } = server.address() as AddressInfo;
    const res = await fetch(`http://127.0.0.1:${port}/_mock/health`);
    const body = (await res.json().catch(() => undefined)) as { status?: string } | undefined;
    process.stdout.write(JSON.stringify({ status: res.status, ok: res.status === 200 && body?.status === 'ok' }));
  } finally {
    await mock.close();
    server.closeAllConnections();
    server.close();
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(String((error as Error)?.stack ?? error));
    process.exit(1);
  },
);
