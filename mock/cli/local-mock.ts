// An in-process mock for `fos-mock scenario run` without --url: the demo fixtures, on an
// ephemeral loopback port, with a frozen clock (time moves only with `clock:` steps, so a run
// never depends on how fast the machine is), logs off. Stopped when the run ends.
import type { AddressInfo } from 'node:net';
import { createApp } from '../app';
import { createClock } from '../clock';
import { defaultConfig } from '../config';
import { createServer } from '../server';

export interface LocalMock {
  url: string;
  stop(): Promise<void>;
}

export async function startLocalMock(): Promise<LocalMock> {
  const config = { ...defaultConfig(), port: 0, logLevel: 'silent' };
  const mock = await createApp({ config, clock: createClock({ frozen: true }) });
  const server = createServer(mock.app, config).listen(0, '127.0.0.1');
  await new Promise<void>((resolve, reject) => {
    server.once('listening', resolve);
    server.once('error', reject);
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    stop: () =>
      new Promise<void>((resolve) => {
        void mock.close();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
