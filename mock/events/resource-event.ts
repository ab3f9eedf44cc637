// The envelope of the ACCOUNT_* and OPERATION_* events (document: AccountEvent, OperationEvent):
// the resource's id, its customer, the event type, the moment of the transition and the resource.
import type { EventType } from '../domain/records';
import type { DomainEvent } from './event-bus';

export function resourceEvent(
  resource: 'ACCOUNT' | 'OPERATION',
  eventType: EventType,
  data: { id: string },
  customerId: string,
  atTime: string,
): DomainEvent {
  return { eventType, resource, customerId, atTime, payload: { id: data.id, customerId, eventType, atTime, data } };
}
