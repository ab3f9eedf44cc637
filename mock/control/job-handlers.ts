// The pending jobs (GET /_mock/jobs): auto-settlements and webhook attempts not yet done, by due
// time in mock time, with what each is about. The inspector's clock view shows them.
import type { components } from '../../spec/generated/control-api-types';
import { ok, type ControlContext, type ControlHandlers } from './context';

/** The first this many are listed; `total` counts them all. */
export const JOB_LIST_LIMIT = 500;

type Subject = components['schemas']['PendingJob']['subject'];

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

/**
 * The first JOB_LIST_LIMIT pending jobs (of one group, or all) as GET /_mock/jobs shows them: those
 * on the mock's clock, or with `customerId` those of that customer's clock (its own queue, if it has one).
 */
export async function pendingJobs(c: ControlContext, group?: string, customerId?: string) {
  const scheduler = customerId === undefined ? c.deps.scheduler : await c.deps.clocks.schedulerOf(customerId);
  const { total, jobs } = await scheduler.list(JOB_LIST_LIMIT, group);
  return {
    total,
    data: jobs.map((job) => ({
      id: job.id,
      kind: job.kind,
      group: job.group,
      // A first delivery attempt is due at once (due time 0), whatever the mock clock shows.
      dueAt: job.dueAt > 0 ? new Date(job.dueAt).toISOString() : null,
      running: job.running,
      subject: subjectOf(job.data),
    })),
  };
}

export function jobHandlers(c: ControlContext) {
  return {
    listJobs: async () => ok(await pendingJobs(c)),
  } satisfies Partial<ControlHandlers>;
}
