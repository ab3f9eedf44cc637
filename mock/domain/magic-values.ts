// Magic values (ours, documented in the README: inputs that force an outcome without the control API).
// A client under test can reach a failure path through the public API alone, e.g. from a
// contract run that has no /_mock access. Listed in the README and in the control document's
// description; each is an x-assumption of the public document. Kept few and memorable.
import { Decimal } from './money';
import type { Operation, PaymentInstruction } from './records';
import type { Reason } from './operations/state-machine';

export const MAGIC_VALUES = {
  /** A withdrawal whose quote's source amount is exactly this fails at settlement with INSUFFICIENT_BALANCE, whatever the balance. */
  failingWithdrawalAmount: '666.66',
  /** A deposit whose quote's source amount is exactly this settles at once: COMPLETED right after REQUESTED. */
  instantDepositAmount: '777.77',
  /** A PIX key that is REJECTED as soon as its payment instruction is created (_CREATED, then _REJECTED). */
  rejectedPixKey: 'reject@fos-mock.test',
} as const;

function sourceIs(operation: Operation, value: string): boolean {
  return new Decimal(operation.sourceAmount.value).equals(value);
}

/** 666.66: the withdrawal's debit is refused at settlement as if the balance were short. */
export function withdrawalForcedShort(operation: Operation): boolean {
  return operation.intent.type === 'WITHDRAWAL' && sourceIs(operation, MAGIC_VALUES.failingWithdrawalAmount);
}

/** 777.77: the deposit's payment arrives the moment it is created. */
export function depositSettlesAtOnce(operation: Operation): boolean {
  return operation.intent.type === 'DEPOSIT' && sourceIs(operation, MAGIC_VALUES.instantDepositAmount);
}

/** reject@fos-mock.test (any letter case): the instruction is rejected on creation. */
export function instructionRejectedAtOnce(instruction: PaymentInstruction): boolean {
  return instruction.address.dictKey.trim().toLowerCase() === MAGIC_VALUES.rejectedPixKey;
}

export const MAGIC_REJECTION: Reason = {
  code: 'BENEFICIARY_REJECTED',
  message: `The PIX key ${MAGIC_VALUES.rejectedPixKey} is always rejected (fos-mock magic value).`,
};
