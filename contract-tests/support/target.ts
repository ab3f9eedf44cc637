// The target of one test file: the mock started in-process on an ephemeral loopback port (the
// default; one server per file, closed after it), or the server at CONTRACT_BASE_URL (with its
// control API at CONTRACT_CONTROL_URL when that is elsewhere, e.g. behind a validating proxy).
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadContract, type Contract } from '../../spec/contract';
import { settings } from './settings';
import { deferred } from '../../mock/lazy/deferred';

export interface Target {
  baseUrl: string;
  /** Where a control API would be (/_mock under it): the target itself unless CONTRACT_CONTROL_URL says otherwise. */
  controlUrl: string;
  inProcess: boolean;
  /** The document's compiled validators (shared with the in-process mock: compiled once per file). */
  contract: Contract;
  close(): Promise<void>;
}

// Loaded on first use, so a run against a URL never loads the mock's code.
// eslint-disable-next-line @typescript-eslint/no-require-imports -- a require inside `deferred` is what defers the load
const mockApp = deferred(() => require('../../mock/app') as typeof import('../../mock/app'));

let compiled: Contract | undefined;
export function contract(): Contract {
  return (compiled ??= loadContract());
}

export async function openTarget(): Promise<Target> {
  const { baseUrl, controlUrl } = settings();
  if (baseUrl)
    return { baseUrl, controlUrl: controlUrl ?? baseUrl, inProcess: false, contract: contract(), close: () => Promise.resolve() };

  const mock = await mockApp().createApp({ contract: contract(), config: { logLevel: 'silent' } });
  const server = createServer(mock.app);
  try {
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
  } catch (error) {
    // No target to hand back, so nobody else would stop the mock's timers and connections.
    await mock.close();
    throw error;
  }
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    controlUrl: `http://127.0.0.1:${port}`,
    inProcess: true,
    contract: contract(),
    async close() {
      await mock.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
