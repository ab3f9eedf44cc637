// Webhook deliveries still to do travel in a snapshot: a retry waiting for its time, a
// first attempt waiting behind a running one, an own-clock customer's retry (back in its own
// queue), each delivered by the mock the snapshot is loaded into, its attempts numbered on; a
// snapshot whose delivery names a subscription it does not hold, or another customer's, is refused
// and changes nothing. In memory, and on Redis.
import { afterEach, describe, expect, it } from '@jest/globals';
import type { AppOptions } from '../../mock/app';
import { afterRunning, deliveryProblems } from '../../mock/control/snapshot-deliveries';
import type { ExecutionLog, SubscriptionRecord } from '../../mock/domain/records';
import { startReceiver, type Receiver } from '../../mock/receiver/receiver';
import type { PendingDelivery } from '../../mock/webhooks/dispatcher';
import type { components } from '../../spec/generated/control-api-types';
import { contract, startMock, type Authed, type Harness } from '../http/harness';
import { describeWithRedis, uniquePrefix } from '../support/redis-suite';
import { newCustomer } from '../verify/support';
import { control, deposit } from './support';

type Delivery = components['schemas']['SnapshotDelivery'];
type Snapshot = { deliveries?: Delivery[]; takenAt: string } & Record<string, unknown>;
type Log = { messageId: string; status: string; retryAttempts: number; error?: string };

const REQUESTED_ONLY = { resources: [{ name: 'OPERATION', events: ['OPERATION_REQUESTED'] }] };

function deliveryScenarios(options: () => AppOptions): void {
  const started: Array<{ close(): Promise<void> }> = [];
  const start = async () => {
    const h = await startMock(options());
    started.push(h);
    return h;
  };
  const receiverFor = async (...args: Parameters<typeof startReceiver>) => {
    const receiver = await startReceiver(...args);
    started.push(receiver);
    return receiver;
  };
  afterEach(async () => {
    for (const item of started.splice(0).reverse()) await item.close();
  });

  /** Moves a mock's clock on and lets what fell due (its deliveries) run. */
  async function advance(h: Harness, ms: number): Promise<void> {
    h.mock.deps.clock.advance(ms);
    await h.mock.deps.scheduler.idle();
    await h.mock.services.webhooks.idle();
  }
  async function subscribe(api: Authed, receiver: Receiver, extra: object = {}): Promise<{ id: string }> {
    return (await api.post('/api/subscriptions', { url: receiver.url, ...REQUESTED_ONLY, ...extra }).expect(201)).body;
  }
  async function logs(api: Authed, subscriptionId: string): Promise<Log[]> {
    return (await api.get(`/v1/subscriptions/${subscriptionId}/executionLogs?limit=100&sortOrder=ASCENDING`).expect(200)).body.data;
  }
  const snapshotOf = async (h: Harness) => (await control(h).get('/snapshot').expect(200)).body as Snapshot;

  it('a retry waiting in a snapshot is delivered by the mock it is loaded into, numbered on; retries end at the same count', async () => {
    const receiver = await receiverFor({ fallback: { status: 503 } });
    const a = await start();
    const apiA = await a.as();
    const sub = await subscribe(apiA, receiver, { allowRetry: true });
    await deposit(apiA);
    await a.mock.services.webhooks.idle();
    await advance(a, a.mock.deps.config.retryScheduleMs[0]!);
    expect(receiver.received).toHaveLength(2);

    const snapshot = await snapshotOf(a);
    const [message] = (await logs(apiA, sub.id)).map((log) => log.messageId);
    const retryAt = new Date(Date.parse(snapshot.takenAt) + a.mock.deps.config.retryScheduleMs[1]!).toISOString();
    expect(snapshot.deliveries).toEqual([
      expect.objectContaining({ messageId: message, subscriptionId: sub.id, dueAt: retryAt, attempts: 2 }),
    ]);

    const b = await start();
    await control(b).post('/snapshot', snapshot).expect(200);
    const apiB = await b.as();
    await advance(b, a.mock.deps.config.retryScheduleMs[1]! - 1);
    expect(receiver.received).toHaveLength(2);
    await advance(b, 1);
    expect(receiver.received.map((r) => r.headers['x-message-id'])).toEqual([message, message, message]);
    expect((await logs(apiB, sub.id)).map((log) => log.retryAttempts)).toEqual([0, 1, 2]);

    for (const step of b.mock.deps.config.retryScheduleMs.slice(2)) await advance(b, step);
    await advance(b, 2 * 3_600_000); // long past the last step: nothing more is sent
    const all = await logs(apiB, sub.id);
    // Six attempts in all, as without the snapshot: the first two made by the mock that took it.
    expect(all.map((log) => log.retryAttempts)).toEqual([0, 1, 2, 3, 4, 5]);
    expect(b.mock.deps.config.retryScheduleMs).toHaveLength(5);
    expect(all.at(-1)!.error).toMatch(/no retries left after 6 attempts/);
    expect(receiver.received).toHaveLength(all.length);
    expect((await snapshotOf(b)).deliveries).toBeUndefined();
  });

  it('first attempts waiting (one running, one queued behind it) are both delivered after the load, as first attempts', async () => {
    const receiver = await receiverFor({ fallback: { status: 204 } });
    receiver.script('hang');
    const a = await start();
    const apiA = await a.as();
    const sub = await subscribe(apiA, receiver);
    await deposit(apiA);
    await receiver.waitFor(1);
    await deposit(apiA);
    await a.mock.services.webhooks.accepted();

    const snapshot = await snapshotOf(a);
    expect(snapshot.deliveries).toEqual([
      expect.objectContaining({ subscriptionId: sub.id, dueAt: null, attempts: 0 }),
      expect.objectContaining({ subscriptionId: sub.id, dueAt: null, attempts: 0 }),
    ]);
    const messages = snapshot.deliveries!.map((delivery) => delivery.messageId);
    expect(receiver.received[0]!.headers['x-message-id']).toBe(messages[0]);
    // The first mock goes away with its attempt unanswered: the receiver drops the held connection
    // (closing a mock waits for a delivery in flight, here up to its 10 s time-out).
    receiver.release('reset');
    await a.close();
    receiver.received.length = 0;

    const b = await start();
    await control(b).post('/snapshot', snapshot).expect(200);
    await b.mock.services.webhooks.idle();
    expect(receiver.received.map((r) => r.headers['x-message-id'])).toEqual(messages);
    const shown = await logs(await b.as(), sub.id);
    expect(shown.map((log) => [log.messageId, log.status, log.retryAttempts])).toEqual(messages.map((id) => [id, 'SUCCESS', 0]));
  });

  it('an own-clock customer’s waiting retry goes back into its own queue, due on its own clock', async () => {
    const receiver = await receiverFor({ fallback: { status: 500 } });
    const a = await start();
    const own = await newCustomer(a, { clock: { start: '2030-01-01T00:00:00.000Z', frozen: true } });
    const sub = await subscribe(own.api, receiver, { allowRetry: true });
    await deposit(own.api, '10.00', own.accounts[1]);
    await a.mock.services.webhooks.idle();
    expect(receiver.received).toHaveLength(1);

    const snapshot = await snapshotOf(a);
    expect(snapshot.deliveries).toEqual([
      expect.objectContaining({ customerId: own.customerId, subscriptionId: sub.id, dueAt: '2030-01-01T00:00:05.000Z', attempts: 1 }),
    ]);
    const b = await start();
    await control(b).post('/snapshot', snapshot).expect(200);
    const jobs = (await control(b).get('/jobs').expect(200)).body.data as unknown[];
    expect(jobs).toEqual([expect.objectContaining({ kind: 'deliver', customerId: own.customerId, ownClock: true })]);
    // The mock's clock does not reach it; the customer's does.
    await advance(b, 3_600_000);
    expect(receiver.received).toHaveLength(1);
    await control(b).post(`/customers/${own.customerId}/clock/advance`, { by: '5s' }).expect(200);
    await b.mock.services.webhooks.idle();
    expect(receiver.received.map((r) => r.headers['x-message-id'])).toEqual([0, 1].map(() => snapshot.deliveries![0]!.messageId));
    // Read on the second mock, with a token it issues to the restored customer.
    const token = (
      await b.http.post('/api/oauth/client/token').send({ clientId: own.clientId, clientSecret: own.clientSecret }).expect(200)
    ).body.accessToken as string;
    const page = await b.http.get(`/v1/subscriptions/${sub.id}/executionLogs?sortOrder=ASCENDING`).set('Authorization', `Bearer ${token}`);
    const shown = page.body.data as Log[];
    expect(shown.map((log) => [log.retryAttempts, log.status])).toEqual([
      [0, 'FAILED'],
      [1, 'FAILED'],
    ]);
  });

  it('a delivery with a foreign or unknown subscription or event, or a payload off the document or not its own, is refused', async () => {
    const receiver = await receiverFor({ fallback: { status: 503 } });
    const a = await start();
    const apiA = await a.as();
    await subscribe(apiA, receiver, { allowRetry: true });
    const theirs = await subscribe(await a.as('customer2'), receiver);
    await deposit(apiA);
    await a.mock.services.webhooks.idle();
    const snapshot = await snapshotOf(a);
    const [delivery] = snapshot.deliveries!;
    const sent = JSON.parse(delivery!.payload) as { eventType: string };
    expect(sent.eventType).toBe(delivery!.eventType);
    const otherEvent = sent.eventType === 'OPERATION_COMPLETED' ? 'OPERATION_REQUESTED' : 'OPERATION_COMPLETED';

    const b = await start();
    await deposit(await b.as());
    const before = await snapshotOf(b);
    const refusals: Array<[Partial<Delivery>, string]> = [
      [{ subscriptionId: '7f0c0a6e-0000-4000-8000-000000000000' }, 'body.deliveries.0.subscriptionId'],
      [{ subscriptionId: theirs.id }, 'body.deliveries.0.subscriptionId'],
      [{ eventType: 'OPERATION_EXPLODED' }, 'body.deliveries.0.eventType'],
      [{ payload: '{"id":' }, 'body.deliveries.0.payload'],
      [{ payload: JSON.stringify({ ...sent, atTime: 'yesterday' }) }, 'body.deliveries.0.payload.atTime'],
      [
        { payload: JSON.stringify({ ...sent, customerId: '7f0c0a6e-0000-4000-8000-000000000001' }) },
        'body.deliveries.0.payload.customerId',
      ],
      [{ payload: JSON.stringify({ ...sent, eventType: otherEvent }) }, 'body.deliveries.0.payload.eventType'],
    ];
    for (const [change, field] of refusals) {
      const res = await control(b)
        .post('/snapshot', { ...snapshot, deliveries: [{ ...delivery, ...change }] })
        .expect(400);
      expect(res.body.code).toBe('VALIDATION_ERROR');
      expect(res.body.details.fields).toEqual([expect.objectContaining({ field })]);
    }
    const after = await snapshotOf(b);
    expect({ ...after, takenAt: before.takenAt }).toEqual(before);
  });
}

describe('a delivery running while the snapshot is taken', () => {
  const schedule = [5_000, 30_000];
  const running: PendingDelivery = {
    message: { messageId: 'm1', subscriptionId: 's1', customerId: 'c1', eventType: 'OPERATION_REQUESTED', payload: '{}' },
    dueAt: 1_000,
    attempts: 2,
    running: true,
    logId: 'log-2',
  };
  const subscription = (allowRetry: boolean) => ({ subscription: { allowRetry } }) as unknown as SubscriptionRecord;
  const logged = (status: ExecutionLog['status']) =>
    ({ id: 'log-2', status, retryAttempts: 1, createdAt: '2026-11-21T12:00:00.000Z' }) as unknown as ExecutionLog;

  it('is kept as the same attempt, not counted, when its log is not among the snapshot’s', () => {
    expect(afterRunning(running, undefined, subscription(true), schedule)).toEqual({ ...running, attempts: 1 });
  });

  it('is kept as the retry its logged failure calls for, when its log is among the snapshot’s', () => {
    const retryAt = Date.parse('2026-11-21T12:00:00.000Z') + 30_000;
    expect(afterRunning(running, logged('FAILED'), subscription(true), schedule)).toEqual({ ...running, dueAt: retryAt, attempts: 2 });
  });

  it('is not kept when its logged attempt succeeded, or its failure calls for no retry', () => {
    expect(afterRunning(running, logged('SUCCESS'), subscription(true), schedule)).toBeUndefined();
    expect(afterRunning(running, logged('FAILED'), subscription(false), schedule)).toBeUndefined();
  });
});

describe('webhook deliveries in a snapshot (memory)', () => {
  deliveryScenarios(() => ({}));
});

describeWithRedis('webhook deliveries in a snapshot (Redis)', (redis) => {
  deliveryScenarios(() => ({ config: { redisUrl: redis().url, redisPrefix: uniquePrefix() } }));
});

describe('a delivery’s payload on import', () => {
  it('the document’s example body of every event type is accepted, those without an eventType field (beneficiary instructions) too', () => {
    const { document } = contract();
    const webhooks = document.webhooks as Record<string, { post: { requestBody: { content: Record<string, { examples: object }> } } }>;
    const examples = document.components.examples as Record<string, { value: { customerId: string } }>;
    const events = Object.keys(webhooks);
    expect(events).toEqual(expect.arrayContaining(['ACCOUNT_CREATED', 'BENEFICIARY_INSTRUCTION_CREATED', 'OPERATION_COMPLETED']));
    for (const eventType of events) {
      const refs = Object.values(webhooks[eventType]!.post.requestBody.content['application/json']!.examples) as Array<{ $ref: string }>;
      expect(refs.length).toBeGreaterThan(0);
      for (const { $ref } of refs) {
        const payload = examples[$ref.split('/').pop()!]!.value;
        const delivery = {
          messageId: 'm1',
          subscriptionId: 's1',
          customerId: payload.customerId,
          eventType,
          payload: JSON.stringify(payload),
          attempts: 0,
        };
        const records = { subscription: [{ id: 's1', scope: payload.customerId }] } as unknown as Parameters<typeof deliveryProblems>[1];
        expect({ eventType, problems: deliveryProblems([delivery], records, contract()) }).toEqual({ eventType, problems: [] });
      }
    }
  });
});
