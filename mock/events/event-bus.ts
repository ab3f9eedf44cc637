// Domain events: every state change publishes one (the event types of the OpenAPI document's webhooks). Publishing never waits
// on delivery; listeners (the webhook dispatcher) queue what they need and return at once.
import type { EventType, ResourceName } from '../store/records';

export interface DomainEvent {
  eventType: EventType;
  resource: ResourceName;
  customerId: string;
  /** The moment of the transition (seed: atTime "differs from the resource's createdAt"). */
  atTime: string;
  /** The webhook body, shaped as the document's `webhooks` entry for this event type. */
  payload: Record<string, unknown>;
}

export type EventListener = (event: DomainEvent) => void;

export class EventBus {
  private readonly listeners: EventListener[] = [];

  subscribe(listener: EventListener): () => void {
    this.listeners.push(listener);
    return () => {
      const at = this.listeners.indexOf(listener);
      if (at >= 0) this.listeners.splice(at, 1);
    };
  }

  publish(event: DomainEvent): void {
    for (const listener of this.listeners) listener(event);
  }
}
