// The webhook deliveries a snapshot keeps: the messages waiting for their first attempt or a
// retry, in the mock clock's queue and in the customers' own clocks' queues, with the attempts
// already made. An import queues them again (WebhookDispatcher.restoreDeliveries), so a restart
// with STATE_FILE still delivers them and their retries run out at the same count.
//
// A delivery running while the snapshot is taken is kept as still to do (at least once, as any
// webhook: the message id lets a receiver see a repeat): when its attempt is not among the
// snapshot's execution logs, that same attempt is made again after the import (its count not
// counting it); when it is, the retry that attempt calls for is kept instead, if any.
import type { Contract } from '../../spec/contract';
import type { FieldError } from '../../spec/contract/validators';
import type { components } from '../../spec/generated/control-api-types';
import type { ExecutionLog, SubscriptionRecord } from '../domain/records';
import { EVENT_TYPES } from '../domain/event-catalogue';
import type { StoreState } from '../store';
import { retryDueAt, type Message, type PendingDelivery } from '../webhooks/dispatcher';
import type { ControlContext } from './context';

export type SnapshotDelivery = components['schemas']['SnapshotDelivery'];

/** The deliveries to keep in a snapshot of these records (taken just before), by due time. */
export async function exportDeliveries(
  c: ControlContext,
  records: StoreState['records'],
  ownClockCustomers: readonly string[],
): Promise<SnapshotDelivery[]> {
  const subscriptions = new Map((records.subscription ?? []).map((item) => [item.id, item.record as SubscriptionRecord]));
  const logs = new Map((records.executionLog ?? []).map((item) => [item.id, item.record as ExecutionLog]));
  const kept: SnapshotDelivery[] = [];
  for (const pending of await c.services.webhooks.pendingDeliveries(ownClockCustomers)) {
    const subscription = subscriptions.get(pending.message.subscriptionId);
    // Queued for a subscription created after the records were read: the snapshot has no place for it.
    if (!subscription) continue;
    const delivery = pending.running
      ? afterRunning(pending, logs.get(pending.logId), subscription, c.deps.config.retryScheduleMs)
      : pending;
    if (delivery) kept.push(shown(delivery));
  }
  return kept;
}

/** What a running delivery leaves to do, as the snapshot's records see it (the header says why). */
export function afterRunning(
  pending: PendingDelivery,
  log: ExecutionLog | undefined,
  subscription: SubscriptionRecord,
  retryScheduleMs: readonly number[],
): PendingDelivery | undefined {
  if (!log) return { ...pending, attempts: Math.max(0, pending.attempts - 1) };
  const dueAt = retryDueAt(log, subscription.subscription.allowRetry, retryScheduleMs);
  return dueAt === undefined ? undefined : { ...pending, dueAt, attempts: log.retryAttempts + 1 };
}

function shown({ message, dueAt, attempts }: PendingDelivery): SnapshotDelivery {
  return { ...message, dueAt: dueAt === undefined ? null : new Date(dueAt).toISOString(), attempts };
}

/**
 * Each problem of the snapshot's deliveries, as `body.deliveries.<i>.<field>`: a subscription not
 * among the snapshot's subscriptions or of another customer, an event type the service does not
 * have, a payload that is not the document's body for that event (the dispatcher sends no other)
 * or that is of another customer or event than the delivery's.
 */
export function deliveryProblems(
  deliveries: readonly SnapshotDelivery[],
  records: StoreState['records'],
  contract: Pick<Contract, 'checkWebhook'>,
): FieldError[] {
  const scopes = new Map((records.subscription ?? []).map((item) => [item.id, item.scope]));
  const problems: FieldError[] = [];
  deliveries.forEach((delivery, i) => {
    const scope = scopes.get(delivery.subscriptionId);
    if (scope === undefined) {
      problems.push({
        field: `body.deliveries.${i}.subscriptionId`,
        message: `no subscription ${delivery.subscriptionId} in the snapshot's records`,
      });
    } else if (scope !== delivery.customerId) {
      problems.push({
        field: `body.deliveries.${i}.subscriptionId`,
        message: `subscription ${delivery.subscriptionId} is not customer ${delivery.customerId}'s`,
      });
    }
    if (!(EVENT_TYPES as readonly string[]).includes(delivery.eventType)) {
      problems.push({ field: `body.deliveries.${i}.eventType`, message: `not an event type of the service: ${delivery.eventType}` });
    } else {
      problems.push(...payloadProblems(delivery, `body.deliveries.${i}.payload`, contract));
    }
  });
  return problems;
}

/** What is wrong with the payload of a delivery of a known event type. */
function payloadProblems(delivery: SnapshotDelivery, field: string, contract: Pick<Contract, 'checkWebhook'>): FieldError[] {
  let payload: unknown;
  try {
    payload = JSON.parse(delivery.payload);
  } catch {
    return [{ field, message: 'is not JSON' }];
  }
  const { errors, drift } = contract.checkWebhook(delivery.eventType, payload);
  const problems = [...errors, ...drift].map((e) => ({ field: e.field ? `${field}.${e.field}` : field, message: e.message }));
  if (problems.length > 0) return problems;
  // No data crosses customers: a payload goes only to a subscription of the customer it is about.
  const { customerId, eventType } = payload as { customerId: string; eventType?: string };
  if (customerId !== delivery.customerId)
    problems.push({ field: `${field}.customerId`, message: `is ${customerId}, not the delivery's customer ${delivery.customerId}` });
  // The beneficiary instruction events' body names no event type (the seed's shape).
  if (eventType !== undefined && eventType !== delivery.eventType)
    problems.push({ field: `${field}.eventType`, message: `is ${eventType}, not the delivery's event type ${delivery.eventType}` });
  return problems;
}

/** Queues the snapshot's deliveries again (after the import, the queues cleared and the clocks set). */
export async function importDeliveries(c: ControlContext, deliveries: readonly SnapshotDelivery[]): Promise<void> {
  await c.services.webhooks.restoreDeliveries(
    deliveries.map(({ messageId, subscriptionId, customerId, eventType, payload, dueAt, attempts }) => ({
      message: { messageId, subscriptionId, customerId, eventType: eventType as Message['eventType'], payload },
      ...(dueAt != null && { dueAt: Date.parse(dueAt) }),
      attempts,
    })),
  );
}
