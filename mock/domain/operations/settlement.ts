// What settling an operation does to balances, and the confirmed rail transactions it records.
// Debits are applied first and all-or-nothing: a short balance fails the operation with
// INSUFFICIENT_BALANCE (the Operation schema's x-assumption) and nothing moves.
import { negate } from '../money';
import type { Operation } from '../records';

export interface BalanceMove {
  accountId: string;
  asset: string;
  /** Decimal string; negative for a debit. */
  delta: string;
}

export interface TransactionDraft {
  rail: 'PIX' | 'INTERNAL';
  direction: 'CREDIT' | 'DEBIT';
  amount: Operation['sourceAmount'];
}

export interface SettlementPlan {
  debits: BalanceMove[];
  credits: BalanceMove[];
  transactions: TransactionDraft[];
}

export function settlementPlan(operation: Operation): SettlementPlan {
  const { accountId, sourceAmount: source, targetAmount: target, intent } = operation;
  switch (intent.type) {
    case 'DEPOSIT':
      // The payer sends the source amount by PIX; the account receives the target amount.
      return {
        debits: [],
        credits: [{ accountId, asset: target.asset, delta: target.value }],
        transactions: [{ rail: 'PIX', direction: 'CREDIT', amount: source }],
      };
    case 'WITHDRAWAL':
      return {
        debits: [{ accountId, asset: source.asset, delta: negate(source.value) }],
        credits: [],
        transactions: [{ rail: 'PIX', direction: 'DEBIT', amount: target }],
      };
    case 'SWAP':
      return {
        debits: [{ accountId, asset: source.asset, delta: negate(source.value) }],
        credits: [{ accountId, asset: target.asset, delta: target.value }],
        transactions: [
          { rail: 'INTERNAL', direction: 'DEBIT', amount: source },
          { rail: 'INTERNAL', direction: 'CREDIT', amount: target },
        ],
      };
    case 'TRANSFER':
      return {
        debits: [{ accountId, asset: source.asset, delta: negate(source.value) }],
        credits: [{ accountId: intent.targetAccount.id, asset: target.asset, delta: target.value }],
        transactions: [{ rail: 'INTERNAL', direction: 'DEBIT', amount: source }],
      };
  }
}
