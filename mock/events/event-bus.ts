// Domain events: every state change publishes one (the event types of the OpenAPI document's webhooks). Publishing waits
// for listeners to take the event (the webhook dispatcher queues its deliveries), never for a
// delivery: a change that is acknowledged has its deliveries queued. A listener that cannot take
// the event rejects the publication; the change stands, and its event stays in the outbox for a
// relay (outbox.ts).
import type { EventType, ResourceName } from '../domain/records';

export interface DomainEvent {
  eventType: EventType;
  resource: ResourceName;
  customerId: string;
  /** The moment of the transition (seed: atTime "differs from the resource's createdAt"). */
  atTime: string;
  /** The webhook body, shaped as the document's `webhooks` entry for this event type. */
  payload: Record<string, unknown>;
  /**
   * A stable name of this publication, given when it may be published again: its outbox entry's
   * id, published by its writer and perhaps by a relay too (outbox.ts). The same origin gives the
   * same message ids, and a delivery already queued is not queued again.
   */
  origin?: string;
}

export type EventListener = (event: DomainEvent) => Promise<void> | void;

export class EventBus {
  private readonly listeners: EventListener[] = [];

  subscribe(listener: EventListener): () => void {
    this.listeners.push(listener);
    return () => {
      const at = this.listeners.indexOf(listener);
      if (at >= 0) this.listeners.splice(at, 1);
    };
  }

  async publish(event: DomainEvent): Promise<void> {
    await Promise.all(this.listeners.map(async (listener) => listener(event)));
  }
}
