// The magic values that force an outcome: only a WITHDRAWAL of exactly 666.66 is forced short,
// only a DEPOSIT of exactly 777.77 settles at once (any trailing zeros), and the PIX key
// reject@fos-mock.test is rejected in any letter case and with surrounding spaces.
import { describe, expect, it } from '@jest/globals';
import { depositSettlesAtOnce, instructionRejectedAtOnce, withdrawalForcedShort } from '../../mock/domain/magic-values';
import type { Operation, PaymentInstruction } from '../../mock/domain/records';

const op = (type: string, value: string) => ({ intent: { type }, sourceAmount: { value } }) as unknown as Operation;
const pix = (dictKey: string) => ({ address: { dictKey } }) as unknown as PaymentInstruction;

describe('magic amounts', () => {
  it('666.66 forces a withdrawal short, and nothing else', () => {
    expect(withdrawalForcedShort(op('WITHDRAWAL', '666.66'))).toBe(true);
    expect(withdrawalForcedShort(op('WITHDRAWAL', '666.660000'))).toBe(true);
    expect(withdrawalForcedShort(op('WITHDRAWAL', '666.67'))).toBe(false);
    expect(withdrawalForcedShort(op('DEPOSIT', '666.66'))).toBe(false);
    expect(withdrawalForcedShort(op('TRANSFER', '666.66'))).toBe(false);
  });

  it('777.77 settles a deposit at once, and nothing else', () => {
    expect(depositSettlesAtOnce(op('DEPOSIT', '777.77'))).toBe(true);
    expect(depositSettlesAtOnce(op('DEPOSIT', '777.770'))).toBe(true);
    expect(depositSettlesAtOnce(op('DEPOSIT', '777.78'))).toBe(false);
    expect(depositSettlesAtOnce(op('WITHDRAWAL', '777.77'))).toBe(false);
    expect(depositSettlesAtOnce(op('TRANSFER', '777.77'))).toBe(false);
  });
});

describe('the rejected PIX key', () => {
  it.each(['reject@fos-mock.test', 'REJECT@FOS-MOCK.TEST', '  Reject@Fos-Mock.Test '])('%j is rejected at once', (key) => {
    expect(instructionRejectedAtOnce(pix(key))).toBe(true);
  });

  it.each(['reject@fos-mock.tests', 'accept@fos-mock.test', '+5511999999999'])('%j is not', (key) => {
    expect(instructionRejectedAtOnce(pix(key))).toBe(false);
  });
});
