// STATE_FILE keeps the webhook deliveries still to do: `fos-mock serve` as a real
// process, stopped (SIGTERM) while a retry waits for its time, started again on the same file,
// delivers that retry when its clock reaches it, as the next attempt of the same message.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startReceiver, type Receiver } from '../../mock/receiver/receiver';
import { serviceClient, startReplicas, type Replicas, type ServiceClient } from '../support/replicas';
import { until } from '../support/waits';

/** A hang guard for a test that starts the mock twice (each start has its own guard, naming it). */
const RESTARTS_MS = 600_000;

type Log = { messageId: string; status: string; retryAttempts: number };

describe('a mock with STATE_FILE stopped while a webhook retry waits', () => {
  let folder: string;
  let file: string;
  let mock: Replicas | undefined;
  let client: ServiceClient | undefined;
  let receiver: Receiver | undefined;

  beforeAll(async () => {
    folder = mkdtempSync(join(tmpdir(), 'fos-state-deliveries-'));
    file = join(folder, 'state.json');
    receiver = await startReceiver({ fallback: { status: 503 } });
    mock = await startReplicas(1, { redisUrl: undefined, env: { STATE_FILE: file, AUTO_SETTLE_MS: 'off' } });
  }, RESTARTS_MS);

  afterAll(async () => {
    client?.close();
    await mock?.stopAll();
    await receiver?.close();
    if (folder) rmSync(folder, { recursive: true, force: true });
  }, RESTARTS_MS);

  it(
    'started again on the file, delivers the retry when the clock reaches it, numbered after the attempt made before the stop',
    async () => {
      client = serviceClient(mock!.urls[0]!);
      await client.control('POST', '/clock/freeze', { at: '2026-03-02T10:00:00.000Z' });
      const customer = await client.customer();
      const api = client.as(await client.token(customer.clientId, customer.clientSecret));
      const subscription = await api.post('/api/subscriptions', {
        url: receiver!.url,
        allowRetry: true,
        resources: [{ name: 'OPERATION', events: ['OPERATION_REQUESTED'] }],
      });
      expect(subscription.status).toBe(201);
      const accountId = customer.accounts[1]!;
      const quote = await api.post('/v1/quotes', { accountId, sourceAsset: 'BRL', targetAsset: 'BRL', sourceAmount: '10.00' });
      expect(
        (await api.post('/v1/operations/deposits', { accountId, quoteId: quote.body.id, fundingInstruction: { rail: 'PIX' } })).status,
      ).toBe(201);
      const [first] = await receiver!.waitFor(1);
      // The first attempt failed and its retry waits, due 5 s of mock time after it.
      await until(
        'the retry queued',
        async () => (await client!.control('GET', '/jobs')).body.data as Array<{ kind: string; dueAt: string | null }>,
        (jobs) => jobs.some((job) => job.kind === 'deliver' && job.dueAt !== null),
      );

      await mock!.stop(0);
      const written = JSON.parse(readFileSync(file, 'utf8')) as { deliveries?: Array<{ messageId: string; attempts: number }> };
      expect(written.deliveries).toEqual([expect.objectContaining({ messageId: first!.headers['x-message-id'], attempts: 1 })]);

      await mock!.start(0);
      expect(mock!.output[0]).toContain('loaded from it');
      expect(receiver!.received).toHaveLength(1);
      receiver!.fallback = { status: 204 };
      await client.control('POST', '/clock/advance', { by: '5s' });
      const received = await receiver!.waitFor(2);
      expect(received.map((r) => r.headers['x-message-id'])).toEqual([first!.headers['x-message-id'], first!.headers['x-message-id']]);
      const again = client.as(await client.token(customer.clientId, customer.clientSecret));
      const logs = await until(
        'the retry logged',
        async () =>
          (await again.get(`/v1/subscriptions/${subscription.body.id as string}/executionLogs?sortOrder=ASCENDING`)).body.data as Log[],
        (data) => data.length === 2,
      );
      expect(logs.map((log) => [log.status, log.retryAttempts])).toEqual([
        ['FAILED', 0],
        ['SUCCESS', 1],
      ]);
    },
    RESTARTS_MS,
  );
});
