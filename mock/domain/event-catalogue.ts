// Which event types belong to which subscription resource (ours, the ResourceName schema: resource names ACCOUNT,
// BENEFICIARY, OPERATION; ACCOUNT_* on accounts, OPERATION_* on operations,
// BENEFICIARY_INSTRUCTION_* on payment instructions). Descriptions serve the reference look-up.
import type { EventType, ResourceName } from './records';

export const RESOURCE_EVENTS: Record<ResourceName, EventType[]> = {
  ACCOUNT: ['ACCOUNT_CREATED', 'ACCOUNT_ACTION_REQUIRED', 'ACCOUNT_ASSET_ACTIVATED', 'ACCOUNT_ASSET_FAILED'],
  BENEFICIARY: [
    'BENEFICIARY_INSTRUCTION_CREATED',
    'BENEFICIARY_INSTRUCTION_APPROVED',
    'BENEFICIARY_INSTRUCTION_REJECTED',
    'BENEFICIARY_INSTRUCTION_ACTION_REQUIRED',
  ],
  OPERATION: ['OPERATION_REQUESTED', 'OPERATION_COMPLETED', 'OPERATION_FAILED', 'OPERATION_ACTION_REQUIRED'],
};

export const RESOURCE_NAMES = Object.keys(RESOURCE_EVENTS) as ResourceName[];

/** Every event type, in catalogue order: the one list the filters, the CLI and the reference look-up use. */
export const EVENT_TYPES: readonly EventType[] = RESOURCE_NAMES.flatMap((name) => RESOURCE_EVENTS[name]);

export const EVENT_DESCRIPTIONS: Record<EventType, string> = {
  ACCOUNT_CREATED: 'An account was created.',
  ACCOUNT_ACTION_REQUIRED: 'An account needs the customer to act (documents, data) before review can go on.',
  ACCOUNT_ASSET_ACTIVATED: 'An asset of an account finished onboarding and can be used.',
  ACCOUNT_ASSET_FAILED: 'An asset of an account failed onboarding.',
  BENEFICIARY_INSTRUCTION_CREATED: 'A payment instruction was added to a beneficiary.',
  BENEFICIARY_INSTRUCTION_APPROVED: 'A payment instruction was approved and can receive withdrawals.',
  BENEFICIARY_INSTRUCTION_REJECTED: 'A payment instruction was rejected.',
  BENEFICIARY_INSTRUCTION_ACTION_REQUIRED: 'A payment instruction needs the customer to act.',
  OPERATION_REQUESTED: 'An operation was created and is being processed.',
  OPERATION_COMPLETED: 'An operation completed; its confirmed rail transactions are listed.',
  OPERATION_FAILED: 'An operation failed; currentState.reason says why.',
  OPERATION_ACTION_REQUIRED: 'An operation is held until the customer acts.',
};

export function resourceOf(eventType: EventType): ResourceName {
  return RESOURCE_NAMES.find((name) => RESOURCE_EVENTS[name].includes(eventType)) as ResourceName;
}
