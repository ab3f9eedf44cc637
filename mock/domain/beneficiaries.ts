// Payment-instruction states and the seed's beneficiary payment-instruction event payload.
import type { StateOf } from '../../spec/lifecycles';
import { creationEvent, transitionEvent, type Step } from './lifecycle';
import type { Reason } from './operations/state-machine';
import type { Beneficiary, EventType, PaymentInstruction } from './records';

export type InstructionStatus = StateOf<'paymentInstruction'>;

// The instruction's transitions and their events are the document's `x-lifecycle` on
// PaymentInstructionState.status (ours). An instruction state without a status is CREATED.
function statusOf(instruction: PaymentInstruction): string {
  return instruction.currentState.status ?? 'CREATED';
}

/** The event of a new instruction (created in its initial state). */
export function instructionCreatedEvent(instruction: PaymentInstruction): EventType | null {
  return creationEvent('paymentInstruction', statusOf(instruction));
}

/** The instruction after a transition, with its event; throws when the lifecycle forbids it. */
export function stepInstruction(
  instruction: PaymentInstruction,
  to: InstructionStatus,
  at: string,
  reason?: Reason,
): Step<PaymentInstruction> {
  const from = statusOf(instruction);
  const event = transitionEvent('paymentInstruction', from, to, `A payment instruction in ${from} cannot become ${to}.`);
  return { next: { ...instruction, currentState: reason ? { status: to, createdAt: at, reason } : { status: to, createdAt: at } }, event };
}

export function moveInstruction(instruction: PaymentInstruction, to: InstructionStatus, at: string, reason?: Reason): PaymentInstruction {
  return stepInstruction(instruction, to, at, reason).next;
}

/**
 * Seed "Beneficiary payment-instruction event payload": the entity in its event form (taxId
 * as a string, dateOfBirth), the instruction's address as {type, rail, key}, and atTime.
 */
export function instructionEventPayload(
  beneficiary: Beneficiary,
  instruction: PaymentInstruction,
  atTime: string,
): Record<string, unknown> {
  const entity = beneficiary.entity;
  const eventEntity =
    entity.type === 'INDIVIDUAL'
      ? compact({
          type: entity.type,
          firstName: entity.firstName,
          lastName: entity.lastName,
          taxId: entity.identificationDocument.value,
          dateOfBirth: entity.birthDate,
          address: entity.address,
        })
      : compact({ type: entity.type, legalName: entity.legalName, taxId: entity.identificationDocument.value, address: entity.address });
  const state = instruction.currentState;
  return {
    id: beneficiary.id,
    customerId: beneficiary.customerId,
    entity: eventEntity,
    relationshipType: beneficiary.relationshipType,
    instruction: {
      asset: instruction.asset,
      currentState: state.reason
        ? { status: state.status, createdAt: state.createdAt, reason: state.reason }
        : { status: state.status, createdAt: state.createdAt },
      address: { type: pixKeyType(instruction.address.dictKey), rail: instruction.address.rail, key: instruction.address.dictKey },
    },
    atTime,
  };
}

/** The DICT key type of a PIX key, as the event's `address.type` (document: EMAIL, PHONE, CPF, CNPJ, EVP). */
export function pixKeyType(key: string): 'EMAIL' | 'PHONE' | 'CPF' | 'CNPJ' | 'EVP' {
  if (key.includes('@')) return 'EMAIL';
  if (/^\+[1-9][0-9]{7,14}$/.test(key)) return 'PHONE';
  if (/^[0-9]{11}$/.test(key)) return 'CPF';
  if (/^[0-9]{14}$/.test(key)) return 'CNPJ';
  // Random keys (EVP) are uuids; anything else is treated as one too.
  return 'EVP';
}

function compact(value: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined));
}
