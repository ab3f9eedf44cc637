// An in-process mock listening on an ephemeral loopback port, as the scenario runner and the
// CLI see a mock: demo data, the default auto-settlement (5 s of mock time), a frozen clock
// (only `clock:` steps move it), logs silenced.
import { createServer, type RequestListener } from 'node:http';
import type { AddressInfo } from 'node:net';
import pino from 'pino';
import { createApp, type MockApp } from '../../mock/app';
import { createClock } from '../../mock/clock';
import { defaultConfig, type Config } from '../../mock/config';
import { contract } from '../http/harness';

export interface ListeningMock {
  url: string;
  mock: MockApp;
  stop(): Promise<void>;
}

/** `front`, when given, is put in front of the mock's listener (an app that rewrites its answers, say). */
export async function listeningMock(
  config: Partial<Config> = {},
  front?: (app: RequestListener, mock: MockApp) => RequestListener,
): Promise<ListeningMock> {
  const mock = await createApp({
    contract: contract(),
    clock: createClock({ start: Date.parse('2026-11-21T12:00:00.000Z'), frozen: true }),
    logger: pino({ level: 'silent' }),
    config: { ...defaultConfig(), ...config },
  });
  const server = createServer(front ? front(mock.app, mock) : mock.app).listen(0, '127.0.0.1');
  await new Promise<void>((resolve) => server.once('listening', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    mock,
    stop: async () => {
      const mockClosed = mock.close();
      const serverClosed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await Promise.all([mockClosed, serverClosed]);
    },
  };
}

/** Everything written to stdout and stderr while `body` runs, and the exit code it set. */
export async function captured(body: () => Promise<unknown>): Promise<{ stdout: string; stderr: string; exitCode: number }> {
  const chunks = { stdout: [] as string[], stderr: [] as string[] };
  const realOut = process.stdout.write.bind(process.stdout);
  const realErr = process.stderr.write.bind(process.stderr);
  const previous = process.exitCode;
  process.exitCode = 0;
  process.stdout.write = (chunk: string | Uint8Array) => chunks.stdout.push(String(chunk)) > 0;
  process.stderr.write = (chunk: string | Uint8Array) => chunks.stderr.push(String(chunk)) > 0;
  try {
    await body();
  } finally {
    process.stdout.write = realOut;
    process.stderr.write = realErr;
  }
  const exitCode = Number(process.exitCode ?? 0);
  process.exitCode = previous;
  return { stdout: chunks.stdout.join(''), stderr: chunks.stderr.join(''), exitCode };
}

/** What a function threw (undefined when it returned). */
export function thrownBy(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  return undefined;
}
