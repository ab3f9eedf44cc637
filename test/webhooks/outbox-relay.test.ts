// An event whose publication fails after its write landed (the dispatcher could not queue its
// deliveries: the store failed for a moment) is not lost: it stays in the outbox, and the relay
// publishes it once the lease has passed. The request that made the change still succeeds.
import { describe, expect, it, jest } from '@jest/globals';
import { EventBus } from '../../mock/events/event-bus';
import { EventOutbox } from '../../mock/events/outbox';
import type { OutboxEntry, Store } from '../../mock/store';
import { deposit } from '../control/support';
import { useSubscribedMock } from '../http/subscribed-mock';
import { until } from '../support/waits';

// A short lease: the relay takes what was left after 50 ms of real time.
const env = useSubscribedMock(
  { resources: [{ name: 'OPERATION', events: ['OPERATION_REQUESTED'] }] },
  { config: { autoSettleMs: null, jobLeaseMs: 50 } },
);

describe('an event whose publication failed', () => {
  it('is delivered by the relay, once, and the deposit that caused it answered 201', async () => {
    const { h, receiver } = env;
    const store = h.mock.deps.store;
    const all = store.all.bind(store);
    // The dispatcher reads the customer's subscriptions to queue deliveries: that read fails once.
    let failed = false;
    store.all = ((...args: Parameters<typeof all>) => {
      if (args[0] !== 'subscription' || failed) return all(...args);
      failed = true;
      return Promise.reject(new Error('store away for a moment'));
    }) as typeof store.all;
    try {
      const operation = await deposit(await h.as());
      expect(failed).toBe(true);
      const requested = () => receiver.received.filter((d) => JSON.parse(d.body).data.id === operation.id);
      await until(
        'the relay to deliver OPERATION_REQUESTED',
        async () => (await h.mock.services.webhooks.idle(), requested()),
        (found) => found.length > 0,
      );
      expect(requested().map((d) => d.headers['x-event-type'])).toEqual(['OPERATION_REQUESTED']);
      expect(await store.takeOutbox(0, 10)).toEqual([]);
    } finally {
      store.all = all;
    }
  });
});

describe('the relay timer', () => {
  it('starts no round while the last one still runs (a slow store does not queue rounds up)', async () => {
    jest.useFakeTimers();
    try {
      let calls = 0;
      let finish: (entries: OutboxEntry[]) => void = () => undefined;
      const store = {
        takeOutbox: () => {
          calls++;
          return new Promise<OutboxEntry[]>((resolve) => (finish = resolve));
        },
        outboxDone: () => Promise.resolve(),
      } as unknown as Store;
      const outbox = new EventOutbox({ store, bus: new EventBus(), newId: () => 'id', leaseMs: 40, onError: () => undefined });
      outbox.start(10);
      await jest.advanceTimersByTimeAsync(100);
      expect(calls).toBe(1);
      finish([]);
      await jest.advanceTimersByTimeAsync(10);
      expect(calls).toBe(2);
      finish([]);
      await outbox.stop();
    } finally {
      jest.useRealTimers();
    }
  });
});
