// POST /_mock/journal/verify and POST /_mock/deliveries/verify: the records are
// gathered here (every replica's journal, the subscriptions' execution logs); what matches and
// how the rest differ is decided by the pure modules mock/http/verification.ts and request-checks.ts.
import type { ExecutionLog, SubscriptionRecord } from '../domain/records';
import type { JournalRecord } from '../http/journal';
import { describeRequest, requestChecks } from '../http/request-checks';
import {
  countHolds,
  describeCount,
  parseJsonPath,
  valueAt,
  valueCheck,
  valueTest,
  verify,
  type Check,
  type CountExpectation,
  type Verdict,
} from '../http/verification';
import { ok, type ControlContext, type ControlHandlers } from './context';
import { attemptsByMessage } from './delivery-handlers';
import { notFound, subscriptionRecord } from './lookup';

/** Execution logs read per subscription (a message has a few attempts), as the deliveries view reads them. */
const LOG_LIMIT = 1000;

export interface VerifiedDelivery {
  messageId: string;
  subscriptionId: string;
  customerId: string;
  eventType: string;
  status: 'SUCCESS' | 'FAILED';
  attempts: number;
  httpStatus: number;
  at: string;
  payload?: unknown;
}

export interface DeliveryPattern {
  customerId?: string;
  subscriptionId?: string;
  eventType?: string;
  status?: 'SUCCESS' | 'FAILED';
  attempts?: CountExpectation;
  payload?: Array<{ path: string; equals?: unknown; contains?: string; matches?: string }>;
}

/** 404 for a customer no one holds: a misspelt id must not read as "nothing matched". */
export async function knownCustomer(c: ControlContext, customerId: string | undefined): Promise<void> {
  if (customerId !== undefined && !(await c.deps.store.get('customer', customerId))) throw notFound('customer', customerId);
}

function parsed(payload: string): unknown {
  try {
    return JSON.parse(payload) as unknown;
  } catch {
    // Not JSON (never, from this mock): matched as the text it is.
    return payload;
  }
}

/** Execution logs newest first → one delivery per message, newest first. */
function deliveriesOf(record: SubscriptionRecord, logs: ExecutionLog[]): VerifiedDelivery[] {
  return [...attemptsByMessage(logs)].map(([messageId, attempts]) => {
    const latest = attempts[0] as ExecutionLog;
    const first = attempts[attempts.length - 1] as ExecutionLog;
    return {
      messageId,
      subscriptionId: record.subscription.id,
      customerId: record.subscription.companyId,
      eventType: latest.eventType,
      status: latest.status,
      attempts: attempts.length,
      httpStatus: latest.httpStatus,
      at: first.createdAt,
      payload: parsed(latest.payload),
    };
  });
}

function deliveryChecks(pattern: DeliveryPattern): Array<Check<VerifiedDelivery>> {
  const checks: Array<Check<VerifiedDelivery>> = [];
  const equal = (field: keyof VerifiedDelivery, wanted: string | undefined) => {
    if (wanted !== undefined) checks.push((d) => (d[field] === wanted ? undefined : { field, expected: wanted, actual: d[field] }));
  };
  equal('customerId', pattern.customerId);
  equal('subscriptionId', pattern.subscriptionId);
  equal('eventType', pattern.eventType);
  equal('status', pattern.status);
  const attempts = pattern.attempts;
  if (attempts)
    checks.push((d) =>
      countHolds(attempts, d.attempts) ? undefined : { field: 'attempts', expected: describeCount(attempts), actual: d.attempts },
    );
  (pattern.payload ?? []).forEach((match, i) => {
    const steps = parseJsonPath(match.path, `body.delivery.payload[${i}].path`);
    checks.push(valueCheck(`payload.${match.path}`, (d) => valueAt(d.payload, steps), valueTest(match, `body.delivery.payload[${i}]`)));
  });
  return checks;
}

const plural = (n: number | undefined, word: string) => `${word}${n === 1 ? '' : 's'}`;

/** The verdict as the document answers it, with its one-sentence message. */
function answer<T, U>(verdict: Verdict<T>, what: string, noun: string, show: (item: T) => U) {
  const wanted = describeCount(verdict.expected);
  const amount = verdict.expected.exactly ?? verdict.expected.atMost ?? verdict.expected.atLeast ?? 1;
  return {
    ok: verdict.ok,
    count: verdict.count,
    expected: verdict.expected,
    searched: verdict.searched,
    message: `Expected ${wanted} ${plural(amount, noun)} matching ${what}, found ${verdict.count}.`,
    matches: verdict.matches.map(show),
    nearMisses: verdict.nearMisses.map(({ item, differences }) => ({ item: show(item), differences })),
  };
}

/** A record as a verification answers it: the entry, with the request as sent when kept. */
const shownRequest = ({ entry, request }: JournalRecord) => (request ? { ...entry, request } : entry);

export function verifyHandlers(c: ControlContext) {
  const { store } = c.deps;

  async function subscriptionsOf(pattern: DeliveryPattern): Promise<SubscriptionRecord[]> {
    if (pattern.subscriptionId !== undefined) return [await subscriptionRecord(store, pattern.subscriptionId)];
    const customers = pattern.customerId !== undefined ? [pattern.customerId] : (await store.all('customer', 'all')).map((x) => x.id);
    return (await Promise.all(customers.map((id) => store.all('subscription', id)))).flat();
  }

  return {
    verifyRequests: async ({ body }) => {
      const pattern = body.request;
      // Checks first: a bad JSON path or expression is a 400 before anything is read.
      const checks = requestChecks(pattern);
      await knownCustomer(c, pattern.customerId);
      await c.cluster.ask('flush-journal');
      const records = await c.cluster.journalRecords(pattern.customerId);
      const verdict = verify(records, checks, body.count, body.nearMisses ?? 3);
      const shown = answer(verdict, describeRequest(pattern), 'request', shownRequest);
      return ok({ ...shown, nearMisses: shown.nearMisses.map(({ item, differences }) => ({ entry: item, differences })) });
    },
    verifyDeliveries: async ({ body }) => {
      const pattern: DeliveryPattern = body.delivery;
      const checks = deliveryChecks(pattern);
      await knownCustomer(c, pattern.customerId);
      const subscriptions = await subscriptionsOf(pattern);
      const deliveries = (
        await Promise.all(
          subscriptions.map(async (record) => {
            const logs = await store.page('executionLog', { scope: record.subscription.id, limit: LOG_LIMIT, order: 'DESCENDING' });
            return deliveriesOf(
              record,
              logs.items.map((item) => item.record),
            );
          }),
        )
      )
        .flat()
        .sort((a, b) => Date.parse(b.at) - Date.parse(a.at));
      const verdict = verify(deliveries, checks, body.count, body.nearMisses ?? 3);
      const shown = answer(verdict, pattern.eventType ?? 'any event', 'delivery', (d: VerifiedDelivery) => d);
      return ok({ ...shown, nearMisses: shown.nearMisses.map(({ item, differences }) => ({ delivery: item, differences })) });
    },
  } satisfies Partial<ControlHandlers>;
}
