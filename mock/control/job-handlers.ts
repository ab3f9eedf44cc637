// The pending jobs (GET /_mock/jobs): auto-settlements and webhook attempts not yet done, by due
// time in mock time, with what each is about and whose it is. Jobs of a customer with a clock of
// its own wait in that clock's queue, due by that clock; the listing gathers every queue. The
// inspector's clock view shows them.
import type { components } from '../../spec/generated/control-api-types';
import type { PendingJob } from '../store';
import { settlementGroup } from '../services/operation-service';
import { deliveryGroup } from '../webhooks/dispatcher';
import { ok, type ControlContext, type ControlHandlers } from './context';
import { notFound } from './lookup';

/** The first this many are listed; `total` counts them all. */
export const JOB_LIST_LIMIT = 500;

type Subject = components['schemas']['PendingJob']['subject'];
type Listed = { total: number; jobs: Array<PendingJob & { ownClockOf?: string }> };

/** What a job's data names (settlement: the operation; delivery: the message and its subscription). */
function subjectOf(data: unknown): Subject {
  const d = (data ?? {}) as { operationId?: unknown; message?: { subscriptionId?: unknown; messageId?: unknown; eventType?: unknown } };
  const text = (value: unknown) => (typeof value === 'string' ? value : undefined);
  const subject: Subject = {
    operationId: text(d.operationId),
    subscriptionId: text(d.message?.subscriptionId),
    messageId: text(d.message?.messageId),
    eventType: text(d.message?.eventType),
  };
  return Object.fromEntries(Object.entries(subject).filter(([, value]) => value !== undefined));
}

/** Whose job it is: a settlement's data and a delivery's message name the customer. */
function customerOf(data: unknown): string | undefined {
  const d = (data ?? {}) as { customerId?: unknown; message?: { customerId?: unknown } };
  const id = d.customerId ?? d.message?.customerId;
  return typeof id === 'string' ? id : undefined;
}

/** Several listings as one: by due time, the first JOB_LIST_LIMIT, totals summed. */
function merge(lists: Listed[]): Listed {
  const jobs = lists.flatMap((list) => list.jobs).sort((a, b) => a.dueAt - b.dueAt);
  return { total: lists.reduce((sum, list) => sum + list.total, 0), jobs: jobs.slice(0, JOB_LIST_LIMIT) };
}

/** One customer's jobs: its settlements and its subscriptions' deliveries, in the queue of its clock. */
async function jobsOfCustomer(c: ControlContext, customerId: string, group?: string): Promise<Listed> {
  const { store, clocks } = c.deps;
  const own = Boolean((await store.get('customer', customerId))?.clock);
  const scheduler = own ? clocks.queueOf(customerId) : c.deps.scheduler;
  const subscriptions = group === undefined ? await store.all('subscription', customerId) : [];
  const groups =
    group !== undefined ? [group] : [settlementGroup(customerId), ...subscriptions.map((r) => deliveryGroup(r.subscription.id))];
  const lists = await Promise.all(groups.map((name) => scheduler.list(JOB_LIST_LIMIT, name)));
  return merge(
    lists.map((list) => ({ total: list.total, jobs: list.jobs.map((job) => (own ? { ...job, ownClockOf: customerId } : job)) })),
  );
}

/** Every job: the mock clock's queue, and the queue of every customer's own clock. */
async function everyJob(c: ControlContext): Promise<Listed> {
  const { store, clocks, scheduler } = c.deps;
  const owners = (await store.all('customer', 'all')).filter((customer) => customer.clock).map((customer) => customer.id);
  const lists = await Promise.all(owners.map((id) => clocks.queueOf(id).list(JOB_LIST_LIMIT)));
  return merge([
    await scheduler.list(JOB_LIST_LIMIT),
    ...lists.map((list, i) => ({ total: list.total, jobs: list.jobs.map((job) => ({ ...job, ownClockOf: owners[i] })) })),
  ]);
}

/**
 * The first JOB_LIST_LIMIT pending jobs as GET /_mock/jobs shows them: all of them; or with
 * `customerId` that customer's (of one group, when given), in the queue of its clock.
 */
export async function pendingJobs(c: ControlContext, group?: string, customerId?: string) {
  const { total, jobs } = customerId === undefined ? await everyJob(c) : await jobsOfCustomer(c, customerId, group);
  return {
    total,
    data: jobs.map((job) => {
      const customer = customerOf(job.data);
      return {
        // Ids are a queue's own: a job of a customer's own clock is named with that customer too.
        id: job.ownClockOf ? `${job.ownClockOf}:${job.id}` : job.id,
        kind: job.kind,
        group: job.group,
        // A first delivery attempt is due at once (due time 0), whatever the mock clock shows.
        dueAt: job.dueAt > 0 ? new Date(job.dueAt).toISOString() : null,
        running: job.running,
        ...(customer ? { customerId: customer } : {}),
        ownClock: job.ownClockOf !== undefined,
        subject: subjectOf(job.data),
      };
    }),
  };
}

export function jobHandlers(c: ControlContext) {
  return {
    listJobs: async ({ query }) => {
      const customerId = query.customerId;
      if (customerId !== undefined && !(await c.deps.store.get('customer', customerId))) throw notFound('customer', customerId);
      return ok(await pendingJobs(c, undefined, customerId));
    },
  } satisfies Partial<ControlHandlers>;
}
