// Shared by the races-*.test.ts files: a fresh mock for every test, served over a real loopback
// socket with customer 1's keep-alive client; the demo ids the races use; the mock's error log,
// checked last in every file; the one report line per file.
import { afterAll, afterEach, beforeEach, expect } from '@jest/globals';
import { startMock, type Harness } from '../../http/harness';
import { demo } from '../../http/fixture-ids';
import { errorLog } from './error-log';
import { report } from './env';
import { client, serve, type Client, type Served } from './http-client';

export const d = demo();
export const c1 = d.c1.id;
export const funded = d.funded(c1).id;
export const ownBeneficiary = d.beneficiaryOf(c1).id;

export const errors = errorLog();

// The running mock, its server and customer 1's client: set anew by every start(), read by the
// tests under these names (ES module live bindings).
export let h: Harness;
export let served: Served;
export let api: Client;

export async function start(): Promise<void> {
  h = await startMock({ logger: errors.logger });
  served = await serve(h.mock.app);
  api = client(served, await h.token('customer1'));
}

export async function stop(): Promise<void> {
  await h.mock.services.webhooks.idle();
  await served.close();
  await h.close();
}

/**
 * A races file: a fresh mock before each test, stopped after it; when all have run, the file's
 * report line (what `stats` counted) and a check that the mock logged no internal error.
 */
export function raceFile(file: string, stats: Record<string, number>): void {
  beforeEach(start);
  afterEach(stop);
  afterAll(() => {
    report(file, stats);
    expect(errors.describe()).toEqual([]);
  });
}
