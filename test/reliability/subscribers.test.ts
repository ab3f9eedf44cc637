// Failing subscribers. A receiver that fails a random third of deliveries (500, reset
// connection, no answer until the time-out) still ends up with every event exactly once as a
// SUCCESS after the mock clock is driven through the retry schedule, and the execution logs
// count exactly the attempts the receiver saw. A receiver that never answers slows neither the
// API nor the customer's other subscriptions.
import { afterAll, describe, expect, it } from '@jest/globals';
import { defaultConfig } from '../../mock/config';
import { startMock, type Harness } from '../http/harness';
import { demo } from '../http/fixture-ids';
import { startReceiver } from '../../mock/receiver/receiver';
import { resourceEvent } from '../../mock/events/resource-event';
import type { EventType, ExecutionLog } from '../../mock/domain/records';
import { createQuote, expectStatus, walkAll } from './support/api';
import { prng, report, SEED, size } from './support/env';
import { errorLog } from './support/error-log';
import { hash, startFlakyReceiver, type Fate } from './support/flaky-receiver';
import { client, serve } from './support/http-client';

const EVENTS = size('RELIABILITY_EVENTS', 300);
const TIMEOUT_MS = size('RELIABILITY_WEBHOOK_TIMEOUT_MS', 200);
/** The attempts of a message the receiver may fail (a random third of them): the default schedule's first attempt and retries. */
const FLAKY_ATTEMPTS = defaultConfig().retryScheduleMs.length;
/**
 * Retries after those, every one answered 200. On a loaded machine an answer can come after the
 * time-out (it is logged as the time-out it was): a message then has more answered attempts to
 * come, rather than running out on one late answer.
 */
const SPARE_RETRIES = 3;
const API_CALLS_WHILE_HANGING = 20;
const errors = errorLog();

const d = demo();
const c1 = d.c1.id;
const funded = d.funded(c1).id;
const stats = {
  events: 0,
  attempts: 0,
  delivered: 0,
  failed500: 0,
  resets: 0,
  hangs: 0,
  retries: 0,
  apiCallsWhileHanging: 0,
  unseenTimeouts: 0,
};

afterAll(() => report('subscribers.test.ts', { ...stats, webhookTimeoutMs: TIMEOUT_MS }));

const OPERATION_EVENTS: EventType[] = ['OPERATION_REQUESTED', 'OPERATION_COMPLETED', 'OPERATION_FAILED', 'OPERATION_ACTION_REQUIRED'];

async function settleDeliveries(h: Harness): Promise<void> {
  await h.mock.deps.scheduler.idle();
  await h.mock.services.webhooks.idle();
}

describe('a subscriber that fails a random third of its deliveries', () => {
  it(
    `gets each of ${EVENTS} events delivered exactly once as SUCCESS after the retry schedule, and the logs count every attempt it saw`,
    async () => {
      const retryScheduleMs = [...defaultConfig().retryScheduleMs, ...Array.from({ length: SPARE_RETRIES }, () => 3_600_000)];
      const h = await startMock({ logger: errors.logger, config: { webhookTimeoutMs: TIMEOUT_MS, retryScheduleMs } });
      const schedule = h.mock.deps.config.retryScheduleMs;
      // A third of the first attempts fail (evenly 500, reset, hang), never the spare retries after them.
      const fates: Fate[] = ['status500', 'reset', 'hang'];
      const receiver = await startFlakyReceiver((messageId, attempt) => {
        if (attempt >= FLAKY_ATTEMPTS) return 'ok';
        const coin = prng(hash(messageId) ^ SEED ^ (attempt * 0x9e3779b1))();
        return coin < 1 / 3 ? fates[Math.floor(coin * 9)]! : 'ok';
      });
      const served = await serve(h.mock.app);
      try {
        const api = client(served, await h.token('customer1'));
        // A real operation for the payloads, made before anyone subscribes.
        const quote = await createQuote(api, { accountId: funded, sourceAsset: 'BRL', targetAsset: 'BRL', sourceAmount: '7.00' });
        const operation = expectStatus(
          await api.post('/v1/operations/deposits', { accountId: funded, quoteId: quote.id, fundingInstruction: { rail: 'PIX' } }),
          201,
          'deposit',
        ).body;
        await h.mock.services.webhooks.idle();
        // One subscription per event type, so four queues share the hangs; all on the one receiver.
        const subscriptions = new Map<EventType, string>();
        for (const eventType of OPERATION_EVENTS) {
          const body = {
            url: `${receiver.base}/hooks/${eventType}`,
            allowRetry: true,
            resources: [{ name: 'OPERATION', events: [eventType] }],
          };
          subscriptions.set(eventType, expectStatus(await api.post('/api/subscriptions', body), 201, 'subscription').body.id);
        }

        const published = new Map<EventType, number>();
        for (let i = 0; i < EVENTS; i++) {
          const eventType = OPERATION_EVENTS[i % OPERATION_EVENTS.length]!;
          const event = resourceEvent('OPERATION', eventType, operation, c1, h.mock.deps.clock.nowIso());
          expect(h.mock.contract.checkWebhook(eventType, event.payload)).toEqual({ errors: [], drift: [] });
          await h.mock.deps.events.publish(event);
          published.set(eventType, (published.get(eventType) ?? 0) + 1);
        }
        stats.events += EVENTS;
        await settleDeliveries(h);
        // Drive the mock clock through the retry schedule, one step at a time.
        for (const step of schedule) {
          h.mock.deps.clock.advance(step);
          await settleDeliveries(h);
        }
        for (let guard = 0; (await h.mock.deps.scheduler.counts()).waiting > 0 && guard < 10; guard++) {
          h.mock.deps.clock.advance(Math.max(...schedule));
          await settleDeliveries(h);
        }

        const arrivalsById = groupBy(receiver.arrivals, (a) => a.messageId);
        let logged = 0;
        /** Attempts that timed out before their request reached the receiver (a loaded machine). */
        let unseenTimeouts = 0;
        for (const [eventType, subscriptionId] of subscriptions) {
          const logs = await walkAll<ExecutionLog>(api, `/v1/subscriptions/${subscriptionId}/executionLogs?sortOrder=ASCENDING`);
          logged += logs.length;
          const byMessage = groupBy(logs, (l) => l.messageId);
          // None lost: one message per event of this type.
          expect(byMessage.size).toBe(published.get(eventType));
          for (const [messageId, attempts] of byMessage) {
            const seen = arrivalsById.get(messageId) ?? [];
            // One log per attempt, counted from 0, the last one the SUCCESS.
            expect(attempts.map((l) => l.retryAttempts)).toEqual(attempts.map((_, i) => i));
            expect(attempts.filter((l) => l.status === 'SUCCESS')).toHaveLength(1);
            expect(attempts[attempts.length - 1]!.status).toBe('SUCCESS');
            // The attempts logged are the attempts the receiver got, in order. On a loaded machine
            // the time-out (200 ms, counted from the send) can end an attempt before its request
            // reached the receiver: a failure the receiver did not choose, logged "timed out" and
            // never seen there. Only such logs may be missing from the receiver's side.
            const unseen = attempts.length - seen.length;
            const timedOut = attempts.filter((l) => l.status === 'FAILED' && /timed out/.test(l.error ?? '')).length;
            expect(unseen).toBeGreaterThanOrEqual(0);
            expect(unseen).toBeLessThanOrEqual(timedOut);
            unseenTimeouts += unseen;
            if (unseen > 0) continue;
            for (const [i, log] of attempts.entries()) {
              const arrival = seen[i]!;
              expect(arrival.eventType).toBe(eventType);
              expect(arrival.path).toBe(`/hooks/${eventType}`);
              expect(log.payload).toBe(arrival.body);
              // An answer slower than the time-out (a 200 or a 500 sent late: only a loaded machine
              // makes one) is logged as the time-out it was, with no status; a hang always is.
              if (log.status === 'FAILED' && /timed out/.test(log.error ?? '')) {
                expect(log.httpStatus).toBe(0);
                continue;
              }
              expect(log.status).toBe(arrival.fate === 'ok' ? 'SUCCESS' : 'FAILED');
              expect(log.httpStatus).toBe({ ok: 200, status500: 500, reset: 0, hang: 0 }[arrival.fate]);
            }
          }
        }
        // Every request the receiver got is one logged attempt, and every message reached it.
        expect(receiver.arrivals).toHaveLength(logged - unseenTimeouts);
        expect(new Set(receiver.arrivals.filter((a) => a.fate === 'ok').map((a) => a.messageId)).size).toBe(EVENTS);
        for (const arrival of receiver.arrivals.filter((a) => a.attempt === 0).slice(0, 20)) {
          expect(h.mock.contract.checkWebhook(arrival.eventType, JSON.parse(arrival.body))).toEqual({ errors: [], drift: [] });
        }
        stats.unseenTimeouts += unseenTimeouts;
        stats.attempts += receiver.arrivals.length;
        stats.delivered += receiver.arrivals.filter((a) => a.fate === 'ok').length;
        stats.failed500 += receiver.arrivals.filter((a) => a.fate === 'status500').length;
        stats.resets += receiver.arrivals.filter((a) => a.fate === 'reset').length;
        stats.hangs += receiver.arrivals.filter((a) => a.fate === 'hang').length;
        stats.retries += receiver.arrivals.filter((a) => a.attempt > 0).length;
      } finally {
        await h.mock.services.webhooks.idle();
        await served.close();
        await receiver.close();
        await h.close();
      }
    },
    // A hang guard: each hang costs TIMEOUT_MS of real time, and a busy machine makes the rest slower.
    120_000 + EVENTS * TIMEOUT_MS,
  );
});

describe('a subscriber that never answers', () => {
  it(
    `slows neither the API (${API_CALLS_WHILE_HANGING} calls complete while its delivery is pending) ` +
      'nor another subscription of the same customer',
    async () => {
      // A time-out far longer than the test: the delivery stays pending until the receiver goes away.
      const h = await startMock({ logger: errors.logger, config: { webhookTimeoutMs: 600_000 } });
      const silent = await startReceiver({ fallback: 'hang' });
      const healthy = await startReceiver({ fallback: { status: 200 } });
      const served = await serve(h.mock.app);
      try {
        const api = client(served, await h.token('customer1'));
        const wants = { resources: [{ name: 'OPERATION', events: ['OPERATION_REQUESTED'] }], allowRetry: false };
        const stuck = expectStatus(await api.post('/api/subscriptions', { url: silent.url, ...wants }), 201, 'silent subscription').body.id;
        const fine = expectStatus(await api.post('/api/subscriptions', { url: healthy.url, ...wants }), 201, 'healthy subscription').body
          .id;

        const deposit = async () => {
          const q = await createQuote(api, { accountId: funded, sourceAsset: 'BRL', targetAsset: 'BRL', sourceAmount: '1.00' });
          expectStatus(
            await api.post('/v1/operations/deposits', { accountId: funded, quoteId: q.id, fundingInstruction: { rail: 'PIX' } }),
            201,
            'deposit',
          );
        };
        await deposit();
        await silent.waitFor(1); // its first delivery is now hanging
        const pendingSince = (await walkAll(api, `/v1/subscriptions/${stuck}/executionLogs`)).length;
        expect(pendingSince).toBe(0);

        // The API answers while the delivery hangs: 20 calls (10 quotes, 10 deposits), each awaited.
        for (let i = 0; i < API_CALLS_WHILE_HANGING / 2; i++) await deposit();
        stats.apiCallsWhileHanging += API_CALLS_WHILE_HANGING;
        // The other subscription got every event meanwhile.
        const events = 1 + API_CALLS_WHILE_HANGING / 2;
        await healthy.waitFor(events);
        // ...and the first is still stuck on its first delivery: nothing logged, nothing more sent.
        expect(silent.received).toHaveLength(1);
        expect(await walkAll(api, `/v1/subscriptions/${stuck}/executionLogs`)).toHaveLength(0);
        const fineLogs = await walkAll<ExecutionLog>(api, `/v1/subscriptions/${fine}/executionLogs`);
        expect(fineLogs).toHaveLength(events);
        expect(fineLogs.every((l) => l.status === 'SUCCESS')).toBe(true);

        // When the silent receiver goes away, its queue moves on: every event logged, as failures.
        await silent.close();
        await h.mock.services.webhooks.idle();
        const stuckLogs = await walkAll<ExecutionLog>(api, `/v1/subscriptions/${stuck}/executionLogs`);
        expect(stuckLogs).toHaveLength(events);
        expect(stuckLogs.every((l) => l.status === 'FAILED' && l.httpStatus === 0)).toBe(true);
      } finally {
        await silent.close().catch(() => undefined);
        await h.mock.services.webhooks.idle();
        await served.close();
        await healthy.close();
        await h.close();
      }
    },
  );
});

describe('the mock itself', () => {
  it('logged no internal error through all of the above', () => {
    expect(errors.describe()).toEqual([]);
  });
});

function groupBy<T>(items: T[], key: (item: T) => string): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const item of items) {
    const k = key(item);
    const list = out.get(k) ?? [];
    list.push(item);
    out.set(k, list);
  }
  return out;
}
