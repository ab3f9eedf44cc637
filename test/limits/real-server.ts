// The mock behind its real HTTP server (mock/server.ts: the header, time-out and Host limits that
// supertest's server has not) on a loopback port, for the raw-socket tests of this folder: started
// before the file's tests, closed after them.
import { afterAll, beforeAll } from '@jest/globals';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createServer } from '../../mock/server';
import { startMock, type Harness } from '../http/harness';

export interface RealServer {
  h: Harness;
  server: Server;
  port: number;
  /** A token of demo-client's. */
  token: string;
}

export function useRealServer(options: Parameters<typeof startMock>[0]): () => RealServer {
  let running: RealServer | undefined;
  let server: Server | undefined;
  let h: Harness | undefined;
  beforeAll(async () => {
    h = await startMock(options);
    const token = await h.token();
    server = createServer(h.mock.app, h.mock.deps.config);
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    running = { h, server, port: (server.address() as AddressInfo).port, token };
  });
  afterAll(async () => {
    if (server) {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server!.close(() => resolve()));
    }
    await h?.close();
  });
  return () => {
    if (!running) throw new Error('the real server is not started (beforeAll failed)');
    return running;
  };
}
