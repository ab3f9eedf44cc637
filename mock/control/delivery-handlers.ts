// What the inspector's deliveries view reads and does: each subscription's messages with every
// attempt (its execution logs) and the pending retry's due time; a resend, as the service API's
// resend does it (a new attempt under the same message id), without a token.
import type { ExecutionLog, SubscriptionRecord } from '../domain/records';
import { ok, type ControlContext, type ControlHandlers } from './context';
import { deliveryGroup } from '../webhooks/dispatcher';
import { pendingJobs } from './job-handlers';
import { notFound, subscriptionRecord } from './lookup';

/** The newest this many messages of each subscription are listed. */
export const MESSAGE_LIMIT = 100;
/** Execution logs read per subscription to make those messages (a message has a few attempts). */
const LOG_LIMIT = 1000;

/** A subscription's logs, newest first, as its newest MESSAGE_LIMIT messages, each with its attempts newest first. */
export function attemptsByMessage(logs: ExecutionLog[]): Map<string, ExecutionLog[]> {
  const byMessage = new Map<string, ExecutionLog[]>();
  for (const log of logs) {
    const attempts = byMessage.get(log.messageId);
    if (attempts) attempts.push(log);
    else if (byMessage.size < MESSAGE_LIMIT) byMessage.set(log.messageId, [log]);
  }
  return byMessage;
}

/** Logs newest first → messages newest first, each with its attempts oldest first and how long each took. */
function messagesOf(logs: ExecutionLog[], nextAttempt: Map<string, string>, durations: Map<string, number>) {
  return [...attemptsByMessage(logs)].map(([messageId, attempts]) => {
    const first = attempts[attempts.length - 1] as ExecutionLog;
    const durationsMs: Record<string, number> = {};
    for (const attempt of attempts) {
      const ms = durations.get(attempt.id);
      if (ms !== undefined) durationsMs[attempt.id] = ms;
    }
    return {
      messageId,
      eventType: first.eventType,
      payload: first.payload,
      attempts: attempts.reverse(),
      durationsMs,
      nextAttemptAt: nextAttempt.get(messageId) ?? null,
    };
  });
}

export function deliveryHandlers(c: ControlContext) {
  const { store } = c.deps;

  async function subscriptionsOf(subscriptionId: string | undefined): Promise<SubscriptionRecord[]> {
    if (subscriptionId !== undefined) return [await subscriptionRecord(store, subscriptionId)];
    const customers = await store.all('customer', 'all');
    return (await Promise.all(customers.map((customer) => store.all('subscription', customer.id)))).flat();
  }

  return {
    listDeliveries: async ({ query }) => {
      const records = await subscriptionsOf(query.subscriptionId);
      const data = await Promise.all(
        records.map(async (record) => {
          const scope = record.subscription.id;
          // Timings are kept in the order of their logs: the same newest page covers them.
          const [logs, timings, jobs] = await Promise.all([
            store.page('executionLog', { scope, limit: LOG_LIMIT, order: 'DESCENDING' }),
            store.page('deliveryTiming', { scope, limit: LOG_LIMIT, order: 'DESCENDING' }),
            // A retry waits in the queue of the customer's clock (its own, when it has one).
            pendingJobs(c, deliveryGroup(scope), record.subscription.companyId),
          ]);
          // A retry waiting for its due time (first attempts are due at once: dueAt null).
          const nextAttempt = new Map<string, string>();
          for (const job of jobs.data)
            if (job.subject.messageId && job.dueAt && !nextAttempt.has(job.subject.messageId))
              nextAttempt.set(job.subject.messageId, job.dueAt);
          const durations = new Map(timings.items.map(({ record: timing }) => [timing.id, timing.durationMs]));
          return {
            subscription: c.services.subscriptions.present(record),
            customerId: record.subscription.companyId,
            messages: messagesOf(
              logs.items.map((item) => item.record),
              nextAttempt,
              durations,
            ),
          };
        }),
      );
      return ok({ data });
    },
    resendDelivery: async ({ params }) => {
      const { subscriptionId, executionLogId } = params;
      const record = await subscriptionRecord(store, subscriptionId);
      const log = await store.get('executionLog', executionLogId);
      if (!log || log.subscriptionId !== subscriptionId) throw notFound('executionLog', executionLogId);
      return { status: 202, body: await c.services.webhooks.resend(record.subscription.companyId, log) };
    },
  } satisfies Partial<ControlHandlers>;
}
