import { describe, expect, it } from '@jest/globals';
import { ServiceError } from '../../mock/errors/catalogue';
import { instructionEventPayload, moveInstruction, stepInstruction, type InstructionStatus } from '../../mock/domain/beneficiaries';
import type { Beneficiary, PaymentInstruction, Schemas } from '../../mock/domain/records';

const CUSTOMER = '3f1c2a4e-8b7d-4c59-9e21-6a0d5b7c8e90';
const CREATED_AT = '2025-02-20T13:00:00.000Z';
const LATER = '2025-02-20T15:30:00.000Z';

const address = {
  addressLine1: 'Rua das Laranjeiras, 200',
  addressLine2: 'Apto 302',
  city: 'Rio de Janeiro',
  state: 'RJ',
  country: 'BR',
  postalCode: '22240-003',
};

/** The instruction event's payload as the document describes it. */
type InstructionEvent = Schemas['BeneficiaryInstructionEvent'];

function instruction(status: InstructionStatus | undefined, overrides: Partial<PaymentInstruction> = {}): PaymentInstruction {
  return {
    id: 'pi-1',
    asset: 'BRL',
    currentState: status === undefined ? { createdAt: CREATED_AT } : { status, createdAt: CREATED_AT },
    address: { rail: 'PIX_KEY', dictKey: 'ana.costa@example.com.br' },
    createdAt: CREATED_AT,
    ...overrides,
  };
}

function individual(overrides: Partial<Beneficiary> = {}): Beneficiary {
  return {
    id: 'c9d8e7f6-a5b4-4c3d-8e2f-1a0b9c8d7e6f',
    customerId: CUSTOMER,
    entity: {
      type: 'INDIVIDUAL',
      firstName: 'Ana',
      lastName: 'Costa',
      identificationDocument: { type: 'CPF', value: '52998224725', country: 'BR' },
      birthDate: '1990-05-20',
      address,
    },
    relationshipType: 'THIRD_PARTY',
    paymentInstructions: [instruction('CREATED')],
    createdAt: CREATED_AT,
    updatedAt: CREATED_AT,
    ...overrides,
  };
}

const STATUSES: InstructionStatus[] = ['CREATED', 'APPROVED', 'REJECTED', 'ACTION_REQUIRED'];
const ALLOWED: Array<[InstructionStatus, InstructionStatus]> = [
  ['CREATED', 'APPROVED'],
  ['CREATED', 'REJECTED'],
  ['CREATED', 'ACTION_REQUIRED'],
  ['ACTION_REQUIRED', 'APPROVED'],
  ['ACTION_REQUIRED', 'REJECTED'],
  ['APPROVED', 'REJECTED'],
  ['APPROVED', 'ACTION_REQUIRED'],
];
const FORBIDDEN = STATUSES.flatMap((from) => STATUSES.map((to) => [from, to] as [InstructionStatus, InstructionStatus])).filter(
  ([from, to]) => !ALLOWED.some(([f, t]) => f === from && t === to),
);

function transitionError(call: () => unknown): ServiceError {
  try {
    call();
  } catch (error) {
    expect(error).toBeInstanceOf(ServiceError);
    return error as ServiceError;
  }
  throw new Error('expected INVALID_STATE_TRANSITION, nothing was thrown');
}

describe('payment-instruction state machine', () => {
  it.each(ALLOWED)('an instruction in %s can become %s', (from, to) => {
    const moved = moveInstruction(instruction(from), to, LATER);
    expect(moved.currentState).toEqual({ status: to, createdAt: LATER });
  });

  it.each(FORBIDDEN)('an instruction in %s cannot become %s: INVALID_STATE_TRANSITION (409)', (from, to) => {
    const error = transitionError(() => moveInstruction(instruction(from), to, LATER));
    expect(error.code).toBe('INVALID_STATE_TRANSITION');
    expect(error.status).toBe(409);
    expect(error.details).toEqual({ from, to });
  });

  it('an instruction whose state has no status is treated as CREATED', () => {
    expect(moveInstruction(instruction(undefined), 'APPROVED', LATER).currentState.status).toBe('APPROVED');
    expect(transitionError(() => moveInstruction(instruction(undefined), 'CREATED', LATER)).details).toEqual({
      from: 'CREATED',
      to: 'CREATED',
    });
  });

  it('a rejection keeps its reason on the new state', () => {
    const reason = { code: 'BENEFICIARY_REJECTED', message: 'The PIX key does not belong to the beneficiary.', details: {} };
    expect(moveInstruction(instruction('CREATED'), 'REJECTED', LATER, reason).currentState).toEqual({
      status: 'REJECTED',
      createdAt: LATER,
      reason,
    });
  });

  it('an approval without a reason drops the reason of the earlier state', () => {
    const flagged = instruction('ACTION_REQUIRED', {
      currentState: {
        status: 'ACTION_REQUIRED',
        createdAt: CREATED_AT,
        reason: { code: 'DOCUMENT_REJECTED', message: 'Upload it again.' },
      },
    });
    expect(moveInstruction(flagged, 'APPROVED', LATER).currentState).toEqual({ status: 'APPROVED', createdAt: LATER });
  });

  it('a move keeps the rest of the instruction and leaves the original untouched', () => {
    const original = instruction('CREATED', { documents: [{ referenceId: 'doc-1', type: 'CUSTODY_ATTESTATION', version: 1 }] });
    const snapshot = JSON.parse(JSON.stringify(original));
    const moved = moveInstruction(original, 'APPROVED', LATER);
    expect({ ...moved, currentState: undefined }).toEqual({ ...snapshot, currentState: undefined });
    expect(original).toEqual(snapshot);
  });

  it.each(ALLOWED)('an instruction moving from %s to %s emits the BENEFICIARY_INSTRUCTION_* event of the state it enters', (from, to) => {
    expect(stepInstruction(instruction(from), to, LATER).event).toBe(`BENEFICIARY_INSTRUCTION_${to}`);
  });
});

describe('payment-instruction event payload', () => {
  it('an individual beneficiary appears with taxId as the document value and dateOfBirth from birthDate', () => {
    const beneficiary = individual();
    const payload = instructionEventPayload(beneficiary, beneficiary.paymentInstructions[0]!, CREATED_AT);
    expect(payload.entity).toEqual({
      type: 'INDIVIDUAL',
      firstName: 'Ana',
      lastName: 'Costa',
      taxId: '52998224725',
      dateOfBirth: '1990-05-20',
      address,
    });
  });

  it('carries the beneficiary id, customer and relationship', () => {
    const beneficiary = individual({ relationshipType: 'SELF_OWNED' });
    const payload = instructionEventPayload(beneficiary, beneficiary.paymentInstructions[0]!, CREATED_AT);
    expect(payload.id).toBe(beneficiary.id);
    expect(payload.customerId).toBe(CUSTOMER);
    expect(payload.relationshipType).toBe('SELF_OWNED');
  });

  it('an individual without birth date or address has no such keys (never undefined)', () => {
    const beneficiary = individual({
      entity: { type: 'INDIVIDUAL', firstName: 'Ana', lastName: 'Costa', identificationDocument: { type: 'CPF', value: '52998224725' } },
    });
    const payload = instructionEventPayload(beneficiary, beneficiary.paymentInstructions[0]!, CREATED_AT);
    expect(payload.entity).toEqual({ type: 'INDIVIDUAL', firstName: 'Ana', lastName: 'Costa', taxId: '52998224725' });
    expect(Object.keys(payload.entity as object)).not.toContain('dateOfBirth');
  });

  it('a company beneficiary appears with its legal name and taxId string', () => {
    const beneficiary = individual({
      entity: {
        type: 'COMPANY',
        legalName: 'Acme Pagamentos Ltda',
        identificationDocument: { type: 'CNPJ', value: '11222333000181' },
        address,
      },
    });
    const payload = instructionEventPayload(beneficiary, beneficiary.paymentInstructions[0]!, CREATED_AT);
    expect(payload.entity).toEqual({ type: 'COMPANY', legalName: 'Acme Pagamentos Ltda', taxId: '11222333000181', address });
  });

  it('the instruction address is given as {type, rail, key} with the PIX key as key', () => {
    const beneficiary = individual();
    const payload = instructionEventPayload(beneficiary, beneficiary.paymentInstructions[0]!, CREATED_AT) as InstructionEvent;
    expect(Object.keys(payload.instruction.address).sort()).toEqual(['key', 'rail', 'type']);
    expect(payload.instruction.address.rail).toBe('PIX_KEY');
    expect(payload.instruction.address.key).toBe('ana.costa@example.com.br');
    expect(payload.instruction.asset).toBe('BRL');
  });

  // openapi.yaml BeneficiaryInstructionEvent.instruction.address x-assumption: "the mock sends the
  // PIX key type (EMAIL, PHONE, CPF, CNPJ, EVP)"; the document's examples show type EMAIL.
  it.each([
    ['ana.costa@example.com.br', 'EMAIL'],
    ['+5521987654321', 'PHONE'],
    ['52998224725', 'CPF'],
    ['11222333000181', 'CNPJ'],
    ['7d9f2c3a-1b4e-4f6a-9c8d-2e1f0a3b4c5d', 'EVP'],
  ])('the address type of PIX key %s is the key type %s', (dictKey, type) => {
    const pi = instruction('CREATED', { address: { rail: 'PIX_KEY', dictKey } });
    const payload = instructionEventPayload(individual({ paymentInstructions: [pi] }), pi, CREATED_AT) as InstructionEvent;
    expect(payload.instruction.address).toEqual({ type, rail: 'PIX_KEY', key: dictKey });
  });

  it('atTime is the transition time given, not the instruction or beneficiary creation time', () => {
    const beneficiary = individual();
    const approved = moveInstruction(beneficiary.paymentInstructions[0]!, 'APPROVED', LATER);
    const payload = instructionEventPayload(beneficiary, approved, LATER) as InstructionEvent;
    expect(payload.atTime).toBe(LATER);
    expect(payload.atTime).not.toBe(beneficiary.createdAt);
    expect(payload.instruction.currentState.createdAt).toBe(LATER);
  });

  it('atTime is exactly the value passed in, whatever the state says', () => {
    const beneficiary = individual();
    const payload = instructionEventPayload(beneficiary, beneficiary.paymentInstructions[0]!, '2025-02-21T09:00:00.000Z');
    expect(payload.atTime).toBe('2025-02-21T09:00:00.000Z');
  });

  it('a rejection reason is carried in the instruction state of the payload', () => {
    const reason = { code: 'BENEFICIARY_REJECTED', message: 'The PIX key does not belong to the beneficiary.', details: {} };
    const beneficiary = individual();
    const rejected = moveInstruction(beneficiary.paymentInstructions[0]!, 'REJECTED', LATER, reason);
    const payload = instructionEventPayload(beneficiary, rejected, LATER) as InstructionEvent;
    expect(payload.instruction.currentState.reason).toEqual(reason);
    expect(payload.instruction.currentState.createdAt).toBe(LATER);
  });

  it('a state without a reason gives no reason key in the payload', () => {
    const beneficiary = individual();
    const payload = instructionEventPayload(beneficiary, beneficiary.paymentInstructions[0]!, CREATED_AT) as InstructionEvent;
    expect(payload.instruction.currentState).not.toHaveProperty('reason');
  });

  // openapi.yaml examples InstructionCreatedEvent … InstructionActionRequiredEvent all carry
  // instruction.currentState.status (CREATED, APPROVED, REJECTED, ACTION_REQUIRED).
  it('the instruction state in the payload carries the status it moved to, as in the document examples', () => {
    const beneficiary = individual();
    const approved = moveInstruction(beneficiary.paymentInstructions[0]!, 'APPROVED', LATER);
    const payload = instructionEventPayload(beneficiary, approved, LATER) as InstructionEvent;
    expect(payload.instruction.currentState).toEqual({ status: 'APPROVED', createdAt: LATER });
  });

  it('the payload has exactly the seed fields', () => {
    const beneficiary = individual();
    const payload = instructionEventPayload(beneficiary, beneficiary.paymentInstructions[0]!, CREATED_AT);
    expect(Object.keys(payload).sort()).toEqual(['atTime', 'customerId', 'entity', 'id', 'instruction', 'relationshipType']);
  });
});
