// A loopback port nothing listens on: a webhook URL that refuses the connection (the sender
// logs httpStatus 0). The port was free a moment ago; nothing reserves it.
import { once } from 'node:events';
import { createServer, type AddressInfo } from 'node:net';

export async function closedPort(): Promise<number> {
  const probe = createServer();
  probe.listen(0, '127.0.0.1');
  await once(probe, 'listening');
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}
