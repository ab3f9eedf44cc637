// Turns domain events into webhook deliveries (the `webhooks` of the OpenAPI document):
// - a subscription receives the events of the resources and event types it names, of its own
//   customer only;
// - publishing never waits: each subscription has its own queue, so a slow or dead receiver
//   delays only its own deliveries; first attempts of one subscription go out one at a time,
//   in the order the events happened (a retry re-enters the queue when it falls due, so it
//   may arrive after later events);
// - one execution log per attempt; the message id is kept across retries and resends;
//   retryAttempts counts the attempts before this one;
// - with allowRetry, failures are retried on the schedule in mock time; the last log says
//   when the attempts ran out;
// - under the production URL policy, a URL whose host name now resolves to a non-public
//   address is not delivered to: the attempt is logged FAILED (httpStatus 0) and retried like
//   any failure. Redirects are never followed (deliver.ts).
import type { Logger } from 'pino';
import { Webhook } from 'standardwebhooks';
import type { Contract } from '../../spec/contract';
import type { ControllableClock } from '../clock';
import type { Config } from '../config';
import type { DomainEvent, EventBus } from '../events/event-bus';
import type { Scheduler } from '../jobs/scheduler';
import type { ExecutionLog, SubscriptionRecord } from '../store/records';
import type { Store } from '../store/store';
import type { Deliver, DeliveryOutcome } from './deliver';

export interface Message {
  messageId: string;
  subscriptionId: string;
  customerId: string;
  eventType: ExecutionLog['eventType'];
  /** The exact body sent, every attempt. */
  payload: string;
}

/** What the dispatcher works with; the app hands it these when it assembles the services. */
export interface DispatcherDeps {
  store: Store;
  clock: ControllableClock;
  config: Config;
  events: EventBus;
  scheduler: Scheduler;
  newId: () => string;
  /** Why a delivery to this URL is refused now (the production URL policy resolves the host again), or undefined. */
  refusal: (url: string) => Promise<string | undefined>;
  /** One HTTP attempt; deliver.ts's by default, replaced in tests of the dispatcher. */
  send: Deliver;
}

export class WebhookDispatcher {
  private readonly queues = new Map<string, Message[]>();
  private readonly draining = new Map<string, Promise<void>>();
  /** Attempts made per message id (retries and resends included). */
  private readonly attempts = new Map<string, number>();
  private readonly unsubscribe: () => void;
  /** Events still being matched to subscriptions. */
  private readonly accepting = new Set<Promise<void>>();

  constructor(
    private readonly deps: DispatcherDeps,
    private readonly contract: Contract,
    private readonly logger: Logger,
  ) {
    this.unsubscribe = deps.events.subscribe((event) => {
      const work = this.accept(event)
        .catch((error) => this.logger.error({ err: error, eventType: event.eventType }, 'webhook event could not be queued'))
        .finally(() => this.accepting.delete(work));
      this.accepting.add(work);
    });
  }

  close(): void {
    this.unsubscribe();
  }

  /** Resolves when every queue is empty and no delivery is running (retries not yet due excluded). */
  async idle(): Promise<void> {
    while (this.accepting.size > 0 || this.draining.size > 0) await Promise.all([...this.accepting, ...this.draining.values()]);
  }

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
    const payload = JSON.stringify(event.payload);
    const subscriptions = await this.deps.store.all('subscription', event.customerId);
    for (const record of subscriptions) {
      if (!wants(record, event)) continue;
      this.enqueue({
        messageId: this.deps.newId(),
        subscriptionId: record.subscription.id,
        customerId: event.customerId,
        eventType: event.eventType,
        payload,
      });
    }
  }

  private enqueue(message: Message): void {
    const queue = this.queues.get(message.subscriptionId) ?? [];
    queue.push(message);
    this.queues.set(message.subscriptionId, queue);
    if (!this.draining.has(message.subscriptionId)) {
      const run = this.drain(message.subscriptionId).finally(() => this.draining.delete(message.subscriptionId));
      this.draining.set(message.subscriptionId, run);
    }
  }

  private async drain(subscriptionId: string): Promise<void> {
    const queue = this.queues.get(subscriptionId) as Message[];
    for (let message = queue.shift(); message; message = queue.shift()) {
      try {
        await this.attempt(message, true);
      } catch (error) {
        this.logger.error({ err: error, messageId: message.messageId }, 'webhook delivery failed unexpectedly');
      }
    }
    this.queues.delete(subscriptionId);
  }

  /** One attempt: deliver, log it, and schedule the next one when retries are allowed. */
  private async attempt(message: Message, retryOnFailure: boolean): Promise<ExecutionLog | undefined> {
    const { store, clock, config, scheduler, newId } = this.deps;
    const record = await store.get('subscription', message.subscriptionId);
    if (!record) return undefined; // deleted since: nothing to deliver to
    const subscription = record.subscription;
    const retryAttempts = this.attempts.get(message.messageId) ?? 0;
    this.attempts.set(message.messageId, retryAttempts + 1);
    const headers: Record<string, string> = { 'x-message-id': message.messageId, 'x-event-type': message.eventType };
    if (config.webhookSigning) Object.assign(headers, signatureHeaders(record.signingSecret, message, clock.now()));
    // Production URL policy: the host name is resolved again before every attempt (DNS rebinding).
    const refusal = await this.deps.refusal(subscription.url);
    const outcome: DeliveryOutcome = refusal
      ? { ok: false, httpStatus: 0, error: refusal }
      : await this.deps.send({ url: subscription.url, body: message.payload, headers, timeoutMs: config.webhookTimeoutMs });
    const retriesLeft = subscription.allowRetry && retryAttempts < config.retryScheduleMs.length;
    let error = outcome.error;
    if (!outcome.ok && retryOnFailure && subscription.allowRetry && !retriesLeft)
      error = `${error}; no retries left after ${retryAttempts + 1} attempts`;
    const at = clock.nowIso();
    const log: ExecutionLog = {
      id: newId(),
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
    if (!outcome.ok && retryOnFailure && retriesLeft) {
      const delay = config.retryScheduleMs[retryAttempts] as number;
      scheduler.in(delay, () => this.enqueue(message));
    }
    return log;
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
    return (await this.attempt(message, false)) as ExecutionLog;
  }
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
