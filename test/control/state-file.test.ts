// STATE_FILE: `fos-mock serve` as a real process keeps its state in a file across restarts
// without Redis. A clean stop (SIGTERM) writes the last change, made just before it; a start on
// the file answers as the mock did before (records, balances, idempotent replays, subscriptions,
// the clock) and the deposit that was waiting to settle settles. A process killed with SIGKILL
// while a stream of changes is being written leaves a file that parses and loads whole.
import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { Answer } from '../reliability/support/http-client';
import { serviceClient, startReplicas, type Replicas, type ServiceClient } from '../support/replicas';
import { until } from '../support/waits';

/** A hang guard for tests that start the mock several times (each start has its own guard, naming it). */
const RESTARTS_MS = 600_000;

function expectStatus(answer: Answer, status: number, what: string): Answer {
  if (answer.status !== status) throw new Error(`${what}: expected ${status}, got ${answer.status} ${answer.text.slice(0, 500)}`);
  return answer;
}

/** The parts of an answer a restart must not change. */
const seen = (a: Answer) => ({ status: a.status, body: a.body as unknown });

let folder: string;
beforeAll(() => {
  folder = mkdtempSync(join(tmpdir(), 'fos-state-file-'));
});
afterAll(() => {
  if (folder) rmSync(folder, { recursive: true, force: true });
});

describe('a mock with STATE_FILE stopped cleanly and started again', () => {
  let file: string;
  let mock: Replicas;
  let client: ServiceClient;

  beforeAll(async () => {
    mkdirSync(join(folder, 'clean'));
    file = join(folder, 'clean', 'state.json');
    mock = await startReplicas(1, { redisUrl: undefined, env: { STATE_FILE: file } });
    client = serviceClient(mock.urls[0]!);
  }, RESTARTS_MS);

  afterAll(async () => {
    client?.close();
    await mock?.stopAll();
  }, RESTARTS_MS);

  it(
    'keeps accounts, balances, operations, idempotency keys, subscriptions and the clock, and a deposit waiting to settle settles',
    async () => {
      // Started on no file: the demo data, written at once.
      expect(mock.output[0]).toContain(`state in memory and in ${file}, a new file`);
      expect(existsSync(file)).toBe(true);

      await client.control('POST', '/clock/freeze', { at: '2026-03-02T10:00:00.000Z' });
      const customer = await client.customer();
      const token = await client.token(customer.clientId, customer.clientSecret);
      const api = client.as(token);
      const [, funded, sub] = customer.accounts as [string, string, string];
      await client.control('PUT', `/accounts/${sub}/balances`, { BRL: '77.70' });
      const quote = expectStatus(
        await api.post('/v1/quotes', { accountId: funded, sourceAsset: 'BRL', targetAsset: 'BRL', sourceAmount: '40.00' }),
        201,
        'quote',
      );
      // AUTO_SETTLE_MS is 5 s of mock time: with the clock frozen, this deposit waits to settle.
      const deposit = expectStatus(
        await api.post('/v1/operations/deposits', { accountId: funded, quoteId: quote.body.id, fundingInstruction: { rail: 'PIX' } }),
        201,
        'deposit',
      );
      expect(deposit.body.currentState.status).toBe('REQUESTED');
      const subscription = expectStatus(
        await api.post('/api/subscriptions', { url: 'https://hooks.example.com/fos', includeAll: true }),
        201,
        'subscription',
      );
      const key = randomUUID();
      const transfer = { accountId: funded, targetAccountId: sub, asset: 'BRL', amount: '2.50' };
      const original = expectStatus(await api.post('/v1/operations/transfers', transfer, key), 201, 'idempotent transfer');

      const reads = [
        '/api/accounts',
        ...customer.accounts.map((id) => `/api/accounts/${id}`),
        '/v1/beneficiaries',
        `/v1/quotes/${quote.body.id as string}`,
        `/v1/operations/${original.body.id as string}`,
        '/v1/operations?limit=100',
        '/v1/subscriptions',
        `/v1/subscriptions/${subscription.body.id as string}`,
      ];
      const state = async () => ({
        reads: Object.fromEntries(await Promise.all(reads.map(async (path) => [path, seen(await api.get(path))] as const))),
        balances: await Promise.all(customer.accounts.map(async (id) => (await client.control('GET', `/accounts/${id}/balances`)).body)),
        clock: (await client.control('GET', '/clock')).body,
      });
      const before = await state();
      for (const [path, answer] of Object.entries(before.reads)) expect([path, answer.status]).toEqual([path, 200]);
      expect(before.balances[2].balances.BRL).toBe('77.70');
      expect(before.clock).toMatchObject({ now: '2026-03-02T10:00:00.000Z', frozen: true });

      // The last change just before the stop (well within the write delay): the clean stop writes it.
      const last = await client.customer();
      await mock.stop(0);
      const written = JSON.parse(readFileSync(file, 'utf8')) as { records: { customer: Array<{ id: string }> } };
      expect(written.records.customer.map((c) => c.id)).toContain(last.customerId);
      // No temporary file is left behind.
      expect(readdirSync(join(folder, 'clean'))).toEqual(['state.json']);

      await mock.start(0);
      expect(mock.output[0]).toContain(`state in memory and in ${file}, loaded from it`);
      // The token from before still works: FOS_MOCK_SECRET is the same (the harness sets one).
      const after = await state();
      expect(after).toEqual(before);
      expect((await client.control('GET', `/state/${last.customerId}`)).status).toBe(200);
      // The idempotency key replays its stored answer and makes nothing new.
      const replay = await api.post('/v1/operations/transfers', transfer, key);
      expect(seen(replay)).toEqual(seen(original));
      expect(replay.headers['x-idempotent-replayed']).toBe('true');
      // The pending auto-settlements: 5 s of mock time later, the deposit and the transfer are settled.
      await client.control('POST', '/clock/advance', { by: '5s' });
      const settled = expectStatus(await api.get(`/v1/operations/${deposit.body.id as string}`), 200, 'the deposit');
      expect(settled.body.currentState.status).toBe('COMPLETED');
      expect((await client.control('GET', `/accounts/${sub}/balances`)).body.balances.BRL).toBe('80.20');
    },
    RESTARTS_MS,
  );
});

describe('a mock with STATE_FILE killed with SIGKILL while it writes a stream of changes', () => {
  it(
    'leaves, at every kill, a file that parses whole and that the mock loads: the last complete write',
    async () => {
      const file = join(folder, 'killed.json');
      // Webhooks and settlements off: every change is one the test makes.
      const mock = await startReplicas(1, { redisUrl: undefined, env: { STATE_FILE: file, AUTO_SETTLE_MS: 'off' } });
      const made: string[] = [];
      try {
        // Kills at several points of the stream: after a few changes, after many (a larger file, a longer write).
        for (const changes of [3, 40, 120]) {
          const client = serviceClient(mock.urls[0]!);
          const writtenBefore = statSync(file).mtimeMs;
          let stop = false;
          let done = 0;
          // A stream of changes that does not pause: the kill falls while one is being answered or written.
          const stream = (async () => {
            while (!stop) {
              const answer = await client.call('POST', '/_mock/customers', {}, {}).catch(() => undefined);
              if (answer?.status === 201) {
                made.push(answer.body.customerId as string);
                done++;
              }
            }
          })();
          // At least one write of this stream has happened (the file is newer), and this many changes were answered.
          await until(
            `${changes} changes answered and a write after them begun`,
            () => ({ done, mtime: statSync(file).mtimeMs }),
            (seenNow) => seenNow.done >= changes && seenNow.mtime > writtenBefore,
          );
          await mock.kill(0);
          stop = true;
          await stream;
          client.close();

          // The file is whole: it parses, it is a snapshot, and what it holds is customers the stream made.
          const text = readFileSync(file, 'utf8');
          const snapshot = JSON.parse(text) as { version: number; records: { customer: Array<{ id: string }> } };
          expect(snapshot.version).toBe(1);
          const kept = snapshot.records.customer.map((c) => c.id);
          const fromStream = kept.filter((id) => made.includes(id));
          expect(fromStream.length).toBeGreaterThan(0);

          // The mock starts on it and holds exactly what the file holds.
          await mock.start(0);
          expect(mock.output[0]).toContain('loaded from it');
          const again = serviceClient(mock.urls[0]!);
          try {
            const state = (await again.control('GET', '/snapshot')).body as { records: { customer: Array<{ id: string }> } };
            expect(state.records.customer.map((c) => c.id)).toEqual(kept);
          } finally {
            again.close();
          }
        }
      } finally {
        await mock.stopAll();
      }
    },
    RESTARTS_MS,
  );
});
