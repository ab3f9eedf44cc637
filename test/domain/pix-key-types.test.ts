// The DICT key type of a PIX key as the instruction event's address.type: an e-mail has '@', a
// phone is +, a non-zero digit and 8 to 15 digits in all, a CPF exactly 11 digits, a CNPJ exactly
// 14; anything else is a random key (EVP). Refused transitions name both states.
import { describe, expect, it } from '@jest/globals';
import { ServiceError } from '../../mock/errors/catalogue';
import { moveInstruction, pixKeyType } from '../../mock/domain/beneficiaries';
import { moveOperation } from '../../mock/domain/operations/state-machine';
import type { Operation, PaymentInstruction } from '../../mock/domain/records';

describe('PIX key types', () => {
  it.each([
    ['ana@example.com', 'EMAIL'],
    ['+5511987654321', 'PHONE'],
    ['+12345678', 'PHONE'],
    ['12345678901', 'CPF'],
    ['12345678000199', 'CNPJ'],
    ['3f2c9a1e-7b4d-4c8e-9a0f-1d2e3f4a5b6c', 'EVP'],
    ['x+5511987654321', 'EVP'],
    ['+5511987654321x', 'EVP'],
    ['+1234567', 'EVP'],
    ['+0511987654321', 'EVP'],
    ['x12345678000199', 'EVP'],
    ['12345678000199x', 'EVP'],
    ['123456789012', 'EVP'],
  ])('%s is %s', (key, type) => {
    expect(pixKeyType(key)).toBe(type);
  });
});

function refusal(call: () => unknown): ServiceError {
  try {
    call();
  } catch (error) {
    expect(error).toBeInstanceOf(ServiceError);
    return error as ServiceError;
  }
  throw new Error('expected a ServiceError');
}

describe('refused transitions say which', () => {
  it('a payment instruction', () => {
    const instruction = { currentState: { status: 'REJECTED', createdAt: '2025-01-01T00:00:00.000Z' } } as unknown as PaymentInstruction;
    const error = refusal(() => moveInstruction(instruction, 'APPROVED', '2025-01-02T00:00:00.000Z'));
    expect(error.message).toBe('A payment instruction in REJECTED cannot become APPROVED.');
    expect(error.details).toEqual({ from: 'REJECTED', to: 'APPROVED' });
  });

  it('an operation', () => {
    const operation = {
      currentState: { status: 'COMPLETED', createdAt: '2025-01-01T00:00:00.000Z' },
      transactions: [],
    } as unknown as Operation;
    const error = refusal(() => moveOperation(operation, 'FAILED', '2025-01-02T00:00:00.000Z'));
    expect(error.code).toBe('INVALID_STATE_TRANSITION');
    expect(error.message).toBe('An operation in COMPLETED cannot become FAILED.');
    expect(error.details).toEqual({ from: 'COMPLETED', to: 'FAILED' });
  });
});
