// An event published again under the same origin (an outbox entry published by its writer and by
// a relay that found it left longer than the lease) is one message: delivered once,
// under a message id named by the origin and the subscription. Events without an origin are
// never merged, even when their bodies are the same.
import { beforeAll, describe, expect, it } from '@jest/globals';
import type { DomainEvent } from '../../mock/events/event-bus';
import type { Receiver } from '../../mock/receiver/receiver';
import { stableUuid } from '../../mock/webhooks/stable-id';
import { control, d, deposit } from '../control/support';
import type { Harness } from '../http/harness';
import { useSubscribedMock } from '../http/subscribed-mock';

let h: Harness;
let receiver: Receiver;
/** A real OPERATION_COMPLETED event (a deposit settled through the control API), to publish again. */
let settled: DomainEvent;

const env = useSubscribedMock({ resources: [{ name: 'OPERATION', events: ['OPERATION_COMPLETED'] }] }, { config: { autoSettleMs: null } });
beforeAll(async () => {
  ({ h, receiver } = env);
  const seen: DomainEvent[] = [];
  const stop = h.mock.deps.events.subscribe((event) => {
    seen.push(event);
  });
  const operation = await deposit(await h.as());
  await control(h).post(`/operations/${operation.id}/settle`).expect(200);
  stop();
  await h.mock.services.webhooks.idle();
  receiver.received.length = 0;
  settled = seen.find((event) => event.eventType === 'OPERATION_COMPLETED')!;
});

/** The event as a publisher makes it, before the outbox names it (no origin). */
const completed = (): DomainEvent => {
  const { origin: _origin, ...event } = settled;
  return event;
};

describe('an event published again under the same origin', () => {
  it('is delivered once, under the message id the origin and subscription name', async () => {
    const subscriptionId = (await h.mock.deps.store.all('subscription', d.c1.id))[0]!.subscription.id;
    const event = { ...completed(), origin: 'job-0000000000000042' };
    await h.mock.deps.events.publish(event);
    await h.mock.deps.events.publish(event);
    await h.mock.services.webhooks.idle();
    await h.mock.deps.events.publish(event);
    await h.mock.services.webhooks.idle();
    expect(receiver.received.map((r) => r.headers['x-message-id'])).toEqual([stableUuid(`job-0000000000000042\u0000${subscriptionId}`)]);
  });

  it('under another origin, or with none, is another message', async () => {
    await h.mock.deps.events.publish({ ...completed(), origin: 'job-a' });
    await h.mock.deps.events.publish({ ...completed(), origin: 'job-b' });
    await h.mock.deps.events.publish(completed());
    await h.mock.deps.events.publish(completed());
    await h.mock.services.webhooks.idle();
    const ids = receiver.received.map((r) => r.headers['x-message-id']);
    expect(ids).toHaveLength(4);
    expect(new Set(ids).size).toBe(4);
  });

  it('a message id named by an origin is a version 5 UUID, the same in every process', () => {
    expect(stableUuid('job-1\u0000sub-1')).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(stableUuid('job-1\u0000sub-1')).toBe(stableUuid('job-1\u0000sub-1'));
    expect(stableUuid('job-1\u0000sub-2')).not.toBe(stableUuid('job-1\u0000sub-1'));
  });
});
