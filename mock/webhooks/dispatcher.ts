// Turns domain events into webhook deliveries (the `webhooks` of the OpenAPI document):
// - a subscription receives the events of the resources and event types it names, of its own
//   customer only;
// - each delivery is a job of the scheduler's queue (in Redis, shared by every replica), in the
//   group of its subscription: a subscription's attempts go out one at a time, first attempts
//   in the order the events happened (a retry falls due later, so it may arrive after later
//   events), and a slow or dead receiver delays only its own deliveries. The request that
//   caused an event answers once its deliveries are queued: an acknowledged change has them;
// - one execution log per attempt; the message id is kept across retries and resends;
//   retryAttempts counts the attempts before this one, counted by every replica alike; a job
//   run again after its replica died does not send again an attempt that was logged;
// - with allowRetry, failures are retried on the schedule in mock time; the last log says
//   when the attempts ran out;
// - a URL whose host name now resolves to an address its URL policy refuses (a link-local or
//   metadata address under every policy, a non-public one under production) is not delivered
//   to: the attempt is logged FAILED (httpStatus 0) and retried like any failure. Redirects
//   are never followed (deliver.ts).
import type { Logger } from 'pino';
import { Webhook } from 'standardwebhooks';
import type { Contract } from '../../spec/contract';
import type { ControllableClock } from '../clock';
import type { Config } from '../config';
import type { DomainEvent, EventBus } from '../events/event-bus';
import type { EventOutbox } from '../events/outbox';
import type { CustomerClocks } from '../jobs/customer-clocks';
import type { Scheduler } from '../jobs/scheduler';
import type { JobSpec, Store } from '../store';
import type { ExecutionLog, SubscriptionRecord } from '../domain/records';
import { ServiceError } from '../errors/catalogue';
import type { Deliver, DeliveryOutcome } from './deliver';
import { stableUuid } from './stable-id';

export interface Message {
  messageId: string;
  subscriptionId: string;
  customerId: string;
  eventType: ExecutionLog['eventType'];
  /** The exact body sent, every attempt. */
  payload: string;
}

/**
 * A delivery job: one attempt of a message, logged under `logId` (so a job run again after its
 * replica died knows whether the attempt was logged).
 */
interface DeliveryJob {
  message: Message;
  logId: string;
}

/** A delivery not yet done, as a snapshot keeps it. */
export interface PendingDelivery {
  message: Message;
  /** Mock time (of the customer's clock) when the retry falls due; undefined for a first attempt. */
  dueAt?: number;
  /** The attempts of the message made so far (the queue's count). */
  attempts: number;
  /** Running now; `logId` is the log its attempt writes. */
  running: boolean;
  logId: string;
}

const DELIVER = 'deliver';
/**
 * A first attempt is due at once, whatever the mock clock says (it may be frozen at an earlier
 * instant since the event): first attempts of a subscription go out in the order they were
 * queued. Retries fall due at a mock time, after the first attempts waiting then.
 */
const FIRST_ATTEMPT_DUE = 0;

/** What the dispatcher works with; the app hands it these when it assembles the services. */
export interface DispatcherDeps {
  store: Store;
  clock: ControllableClock;
  config: Config;
  events: EventBus;
  /** Holds the events a dead replica left unpublished; idle() relays them first. */
  outbox: EventOutbox;
  scheduler: Scheduler;
  /** A customer with its own clock has its deliveries and retries in its own queue, on that clock. */
  clocks: CustomerClocks;
  newId: () => string;
  /** Why a delivery to this URL is refused now (the URL policy resolves a host name again), or undefined. */
  refusal: (url: string) => Promise<string | undefined>;
  /** One HTTP attempt; deliver.ts's by default, replaced in tests of the dispatcher. */
  send: Deliver;
  /** Told of each attempt once it is logged (the inspector's push channel). */
  attempted?: (log: ExecutionLog) => void;
}

export class WebhookDispatcher {
  private readonly unsubscribe: () => void;
  /** Events still being matched to subscriptions. */
  private readonly accepting = new Set<Promise<void>>();

  constructor(
    private readonly deps: DispatcherDeps,
    private readonly contract: Contract,
    private readonly logger: Logger,
  ) {
    deps.scheduler.handle(DELIVER, (job) => this.deliver(job.data as DeliveryJob));
    // A failure rejects the publication: the event stays in the outbox, and a relay queues it later.
    this.unsubscribe = deps.events.subscribe((event) => {
      const work = this.accept(event);
      const settled: Promise<void> = work.then(
        () => undefined,
        () => undefined,
      );
      this.accepting.add(settled);
      void settled.finally(() => this.accepting.delete(settled));
      return work;
    });
  }

  close(): void {
    this.unsubscribe();
  }

  /**
   * Resolves when every queued delivery has been attempted, on every replica (retries not yet due
   * excluded); events a dead replica left in the outbox for longer than the lease are queued first.
   */
  async idle(): Promise<void> {
    await this.deps.outbox.relay();
    await this.accepted();
    // First attempts of customers with their own clock are in their own queues.
    await Promise.all([this.deps.scheduler, ...this.deps.clocks.ownSchedulers()].map((scheduler) => scheduler.drain()));
  }

  /** Resolves when every event published here has been matched and its deliveries queued. */
  async accepted(): Promise<void> {
    while (this.accepting.size > 0) await Promise.all(this.accepting);
  }

  /**
   * The deliveries waiting (and running) in the mock clock's queue and in the queues of the given
   * customers' own clocks, by due time: what a snapshot keeps so they still go out after an import.
   */
  async pendingDeliveries(ownClockCustomers: readonly string[]): Promise<PendingDelivery[]> {
    const queues = [this.deps.scheduler.queue, ...ownClockCustomers.map((id) => this.deps.clocks.queueOf(id))];
    const pending: PendingDelivery[] = [];
    for (const queue of queues) {
      const { total } = await queue.list(0);
      for (const job of (await queue.list(total)).jobs) {
        if (job.kind !== DELIVER) continue;
        const { message, logId } = job.data as DeliveryJob;
        pending.push({
          message,
          ...(job.dueAt !== FIRST_ATTEMPT_DUE && { dueAt: job.dueAt }),
          attempts: await queue.attemptsMade(message.messageId),
          running: job.running,
          logId,
        });
      }
    }
    return pending;
  }

  /**
   * Queues deliveries again (a snapshot import, after the queues were cleared): each in the queue of
   * its customer's clock and its subscription's group, with its attempts made so far, so its next
   * attempt is numbered after them and its retries run out when they would have.
   */
  async restoreDeliveries(deliveries: ReadonlyArray<Omit<PendingDelivery, 'running' | 'logId'>>): Promise<void> {
    for (const { message, dueAt, attempts } of deliveries) {
      const scheduler = await this.deps.clocks.schedulerOf(message.customerId);
      await scheduler.queue.setAttemptsMade(message.messageId, attempts);
      await scheduler.schedule(deliveryJob(message, this.deps.newId(), dueAt ?? FIRST_ATTEMPT_DUE));
    }
  }

  /** Queues one delivery per matching subscription, each in its subscription's order (the job group). */
  private async accept(event: DomainEvent): Promise<void> {
    const check = this.contract.checkWebhook(event.eventType, event.payload);
    if (check.errors.length + check.drift.length > 0) {
      // The mock's own bug: say so loudly rather than send a body that breaks the document.
      this.logger.error(
        { eventType: event.eventType, violations: [...check.errors, ...check.drift] },
        'webhook payload breaks the API document; not sent',
      );
      return;
    }
    const { store, newId, clocks } = this.deps;
    const payload = JSON.stringify(event.payload);
    const subscriptions = await store.all('subscription', event.customerId);
    const jobs = subscriptions
      .filter((record) => wants(record, event))
      .map((record) => {
        // Published again under the same origin: the same message, queued once (JobSpec.unique).
        const messageId = event.origin === undefined ? newId() : stableUuid(`${event.origin}\u0000${record.subscription.id}`);
        const message: Message = {
          messageId,
          subscriptionId: record.subscription.id,
          customerId: event.customerId,
          eventType: event.eventType,
          payload,
        };
        const job = deliveryJob(message, newId(), FIRST_ATTEMPT_DUE);
        return event.origin === undefined ? job : { ...job, unique: messageId };
      });
    if (jobs.length > 0) await (await clocks.schedulerOf(event.customerId)).schedule(...jobs);
  }

  /**
   * A delivery job: the attempt, unless a replica that died already logged it; then the next
   * retry, when the attempt failed and retries are left (scheduled as this job completes).
   */
  private async deliver({ message, logId }: DeliveryJob): Promise<JobSpec | undefined> {
    const { store, config } = this.deps;
    const logged = await store.get('executionLog', logId);
    const done = logged
      ? { log: logged, allowRetry: (await store.get('subscription', message.subscriptionId))?.subscription.allowRetry }
      : await this.attempt(message, logId, true);
    const dueAt = done && retryDueAt(done.log, done.allowRetry, config.retryScheduleMs);
    return dueAt === undefined ? undefined : deliveryJob(message, this.deps.newId(), dueAt);
  }

  /** One attempt: deliver and log it (and say whether the subscription allows retries). */
  private async attempt(
    message: Message,
    logId: string,
    retryOnFailure: boolean,
  ): Promise<{ log: ExecutionLog; allowRetry: boolean } | undefined> {
    const { store, config, clocks } = this.deps;
    // The customer's clock stamps the log, so its retries fall due on that clock (deliver()).
    const [clock, scheduler] = await Promise.all([clocks.clockOf(message.customerId), clocks.schedulerOf(message.customerId)]);
    const record = await store.get('subscription', message.subscriptionId);
    if (!record) return undefined; // deleted since: nothing to deliver to
    const subscription = record.subscription;
    // Counted by every replica alike, retries and resends included.
    const retryAttempts = (await scheduler.nextAttempt(message.messageId)) - 1;
    const headers: Record<string, string> = { 'x-message-id': message.messageId, 'x-event-type': message.eventType };
    if (config.webhookSigning) Object.assign(headers, signatureHeaders(record.signingSecret, message, clock.now()));
    // The URL policy resolves a host name again before every attempt (DNS rebinding).
    const refusal = await this.deps.refusal(subscription.url);
    const started = performance.now();
    const outcome: DeliveryOutcome = refusal
      ? { ok: false, httpStatus: 0, error: refusal }
      : await this.deps.send({ url: subscription.url, body: message.payload, headers, timeoutMs: config.webhookTimeoutMs });
    // Real time, from sending to the answer (or the time-out): the mock clock may stand still.
    const durationMs = refusal ? 0 : Math.round((performance.now() - started) * 10) / 10;
    const retriesLeft = subscription.allowRetry && retryAttempts < config.retryScheduleMs.length;
    let error = outcome.error;
    if (!outcome.ok && retryOnFailure && subscription.allowRetry && !retriesLeft)
      error = `${error}; no retries left after ${retryAttempts + 1} attempts`;
    const at = clock.nowIso();
    const log: ExecutionLog = {
      id: logId,
      companyId: subscription.companyId,
      subscriptionId: subscription.id,
      messageId: message.messageId,
      eventType: message.eventType,
      url: subscription.url,
      payload: message.payload,
      httpStatus: outcome.httpStatus,
      error,
      status: outcome.ok ? 'SUCCESS' : 'FAILED',
      retryAttempts,
      createdAt: at,
      updatedAt: at,
    };
    await store.insert('executionLog', subscription.id, log.id, log);
    // After the log, never instead of it: a duration that could not be kept is only not shown.
    await store
      .insert('deliveryTiming', subscription.id, log.id, { id: log.id, durationMs })
      .catch((error: unknown) => this.logger.warn({ err: error, executionLogId: log.id }, 'delivery duration not kept'));
    this.deps.attempted?.(log);
    // A line of the log per attempt (at info); the URL without credentials or query, no headers, no payload.
    this.logger.info(
      {
        eventType: log.eventType,
        url: withoutCredentials(log.url),
        httpStatus: log.httpStatus,
        status: log.status,
        attempt: retryAttempts + 1,
        ms: durationMs,
        messageId: log.messageId,
        subscriptionId: log.subscriptionId,
        error: log.error,
      },
      'webhook',
    );
    return { log, allowRetry: subscription.allowRetry };
  }

  /** Delivers a logged message again, now, as a new attempt with the same message id (the caller has checked the log is the customer's). */
  async resend(customerId: string, log: ExecutionLog): Promise<ExecutionLog> {
    const message: Message = {
      messageId: log.messageId,
      subscriptionId: log.subscriptionId,
      customerId,
      eventType: log.eventType,
      payload: log.payload,
    };
    const done = await this.attempt(message, this.deps.newId(), false);
    // The subscription was deleted since the caller read the log: nothing to deliver to.
    if (!done) throw new ServiceError('RESOURCE_NOT_FOUND', { resource: 'subscription', id: log.subscriptionId });
    return done.log;
  }
}

/** A URL as the log shows it: its origin and path (a user name, a password or a query may hold a secret). */
function withoutCredentials(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.origin}${parsed.pathname}`;
  } catch {
    return '(not a URL)';
  }
}

/** When the retry after this logged attempt falls due (mock time), or undefined when none follows. */
export function retryDueAt(log: ExecutionLog, allowRetry: boolean | undefined, retryScheduleMs: readonly number[]): number | undefined {
  if (log.status === 'SUCCESS' || !allowRetry || log.retryAttempts >= retryScheduleMs.length) return undefined;
  return Date.parse(log.createdAt) + (retryScheduleMs[log.retryAttempts] as number);
}

/** The job group of a subscription's deliveries: one at a time, in order. */
export function deliveryGroup(subscriptionId: string): string {
  return `deliver:${subscriptionId}`;
}

function deliveryJob(message: Message, logId: string, dueAt: number): JobSpec {
  const data: DeliveryJob = { message, logId };
  return { kind: DELIVER, group: deliveryGroup(message.subscriptionId), dueAt, data };
}

/** Standard Webhooks headers; the timestamp is mock time, like every other time the mock shows. */
function signatureHeaders(secret: string, message: Message, now: number): Record<string, string> {
  const at = new Date(Math.floor(now / 1000) * 1000);
  return {
    'webhook-id': message.messageId,
    'webhook-timestamp': String(at.getTime() / 1000),
    'webhook-signature': new Webhook(secret).sign(message.messageId, at, message.payload),
  };
}

function wants(record: SubscriptionRecord, event: DomainEvent): boolean {
  if (record.includeAll) return true;
  return record.subscription.resources.some((r) => r.name === event.resource && r.events.includes(event.eventType));
}
