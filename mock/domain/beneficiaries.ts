// Payment-instruction states and the seed's beneficiary payment-instruction event payload.
import { ServiceError } from '../errors/catalogue';
import type { Reason } from './operations/state-machine';
import type { Beneficiary, EventType, PaymentInstruction } from './records';

export type InstructionStatus = 'CREATED' | 'APPROVED' | 'REJECTED' | 'ACTION_REQUIRED';

const NEXT: Record<InstructionStatus, InstructionStatus[]> = {
  CREATED: ['APPROVED', 'REJECTED', 'ACTION_REQUIRED'],
  ACTION_REQUIRED: ['APPROVED', 'REJECTED'],
  APPROVED: ['REJECTED', 'ACTION_REQUIRED'],
  REJECTED: [],
};

export const INSTRUCTION_EVENT: Record<InstructionStatus, EventType> = {
  CREATED: 'BENEFICIARY_INSTRUCTION_CREATED',
  APPROVED: 'BENEFICIARY_INSTRUCTION_APPROVED',
  REJECTED: 'BENEFICIARY_INSTRUCTION_REJECTED',
  ACTION_REQUIRED: 'BENEFICIARY_INSTRUCTION_ACTION_REQUIRED',
};

export function moveInstruction(instruction: PaymentInstruction, to: InstructionStatus, at: string, reason?: Reason): PaymentInstruction {
  const from = (instruction.currentState.status ?? 'CREATED') as InstructionStatus;
  if (!NEXT[from].includes(to)) {
    throw new ServiceError('INVALID_STATE_TRANSITION', { from, to }, `A payment instruction in ${from} cannot become ${to}.`);
  }
  return { ...instruction, currentState: reason ? { status: to, createdAt: at, reason } : { status: to, createdAt: at } };
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
