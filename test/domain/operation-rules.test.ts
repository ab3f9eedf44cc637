import { describe, expect, it } from '@jest/globals';
import Decimal from 'decimal.js';
import { ServiceError } from '../../mock/errors/catalogue';
import { buildOperation, propagatingTags, type NewOperation } from '../../mock/domain/operations/build';
import { settlementPlan, type SettlementPlan } from '../../mock/domain/operations/settlement';
import { canMove, moveOperation, stepOperation, type OperationStatus } from '../../mock/domain/operations/state-machine';
import type { Operation, Schemas } from '../../mock/domain/records';

const CUSTOMER = 'c0ffee00-0000-4000-8000-000000000001';
const ACCOUNT = 'acc00000-0000-4000-8000-000000000001';
const TARGET_ACCOUNT = 'acc00000-0000-4000-8000-000000000002';
const CREATED_AT = '2025-03-10T14:30:00.000Z';
const LATER = '2025-03-10T14:41:12.000Z';

type Transaction = Schemas['Transaction'];

const brl = (value: string) => ({ value, asset: 'BRL', decimals: 2 });
const usdt = (value: string) => ({ value, asset: 'USDT', decimals: 6 });

function confirmed(id: string, rail: string, direction: Transaction['direction'], amount: Schemas['Amount'], at: string): Transaction {
  return { id, rail, direction, amount, status: 'CONFIRMED', confirmedAt: at };
}

function operation(status: OperationStatus, overrides: Partial<Operation> = {}): Operation {
  return {
    id: 'op000000-0000-4000-8000-000000000001',
    customer: { id: CUSTOMER },
    accountId: ACCOUNT,
    sourceAmount: brl('100.00'),
    targetAmount: usdt('18.500000'),
    intent: { type: 'SWAP' },
    quote: { id: 'q0000000-0000-4000-8000-000000000001', rate: '0.185', expiresAt: '2025-03-10T14:30:30.000Z' },
    transactions: [],
    currentState: { status, createdAt: CREATED_AT },
    tags: [],
    createdAt: CREATED_AT,
    updatedAt: CREATED_AT,
    ...overrides,
  };
}

const STATUSES: OperationStatus[] = ['REQUESTED', 'COMPLETED', 'FAILED', 'ACTION_REQUIRED'];
const ALLOWED: Array<[OperationStatus, OperationStatus]> = [
  ['REQUESTED', 'COMPLETED'],
  ['REQUESTED', 'FAILED'],
  ['REQUESTED', 'ACTION_REQUIRED'],
  ['ACTION_REQUIRED', 'REQUESTED'],
  ['ACTION_REQUIRED', 'COMPLETED'],
  ['ACTION_REQUIRED', 'FAILED'],
];
const FORBIDDEN = STATUSES.flatMap((from) => STATUSES.map((to) => [from, to] as [OperationStatus, OperationStatus])).filter(
  ([from, to]) => !ALLOWED.some(([f, t]) => f === from && t === to),
);

describe('operation state machine', () => {
  it.each(ALLOWED)('an operation in %s can become %s', (from, to) => {
    expect(canMove(from, to)).toBe(true);
    const moved = moveOperation(operation(from), to, LATER);
    expect(moved.currentState).toEqual({ status: to, createdAt: LATER });
    expect(moved.updatedAt).toBe(LATER);
    expect(moved.createdAt).toBe(CREATED_AT);
  });

  it.each(FORBIDDEN)('an operation in %s cannot become %s: INVALID_STATE_TRANSITION (409)', (from, to) => {
    expect(canMove(from, to)).toBe(false);
    let thrown: unknown;
    try {
      moveOperation(operation(from), to, LATER);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ServiceError);
    const error = thrown as ServiceError;
    expect(error.code).toBe('INVALID_STATE_TRANSITION');
    expect(error.status).toBe(409);
    expect(error.details).toEqual({ from, to });
  });

  it.each(ALLOWED)('an operation moving from %s to %s emits the OPERATION_* event of the state it enters', (from, to) => {
    expect(stepOperation(operation(from), to, LATER).event).toBe(`OPERATION_${to}`);
  });
});

describe('moving an operation', () => {
  it('when a withdrawal fails for a short balance, then the reason is kept on the new state', () => {
    const reason = { code: 'INSUFFICIENT_BALANCE', message: 'The source balance is short.', details: { available: '10.00' } };
    const failed = moveOperation(operation('REQUESTED'), 'FAILED', LATER, { reason });
    expect(failed.currentState).toEqual({ status: 'FAILED', createdAt: LATER, reason });
  });

  it('when no reason is given, then the new state carries no reason key at all', () => {
    const flagged = operation('ACTION_REQUIRED', {
      currentState: { status: 'ACTION_REQUIRED', createdAt: CREATED_AT, reason: { code: 'DOCUMENT_REJECTED', message: 'x' } },
    });
    const back = moveOperation(flagged, 'REQUESTED', LATER);
    expect(Object.keys(back.currentState)).toEqual(['status', 'createdAt']);
  });

  it('when an operation completes with transactions, then they are appended after the existing ones', () => {
    const first = confirmed('t1', 'INTERNAL', 'DEBIT', brl('100.00'), CREATED_AT);
    const second = confirmed('t2', 'INTERNAL', 'CREDIT', usdt('18.500000'), LATER);
    const completed = moveOperation(operation('REQUESTED', { transactions: [first] }), 'COMPLETED', LATER, { transactions: [second] });
    expect(completed.transactions).toEqual([first, second]);
  });

  it('when no transactions are given, then the existing ones are kept unchanged', () => {
    const first = confirmed('t1', 'PIX', 'CREDIT', brl('100.00'), CREATED_AT);
    expect(moveOperation(operation('REQUESTED', { transactions: [first] }), 'ACTION_REQUIRED', LATER).transactions).toEqual([first]);
  });

  it('leaves the original operation untouched (a new value is returned)', () => {
    const original = operation('REQUESTED');
    const snapshot = JSON.parse(JSON.stringify(original));
    const transaction = confirmed('t1', 'INTERNAL', 'CREDIT', usdt('18.500000'), LATER);
    const moved = moveOperation(original, 'COMPLETED', LATER, { transactions: [transaction] });
    expect(moved).not.toBe(original);
    expect(original).toEqual(snapshot);
  });

  it('keeps every other field of the operation', () => {
    const original = operation('REQUESTED', { tags: [{ key: 'costCenter', value: 'CC-1' }] });
    const moved = moveOperation(original, 'COMPLETED', LATER);
    const { currentState: _a, updatedAt: _b, ...rest } = moved;
    const { currentState: _c, updatedAt: _d, ...expected } = original;
    expect(rest).toEqual(expected);
  });
});

/** The plan with every delta normalised, so "-100" and "-100.00" compare equal. */
function normalised(plan: SettlementPlan) {
  const move = (m: { accountId: string; asset: string; delta: string }) => ({ ...m, delta: new Decimal(m.delta).toFixed() });
  return { debits: plan.debits.map(move), credits: plan.credits.map(move), transactions: plan.transactions };
}

describe('settlement plans', () => {
  it('a deposit credits the account with the target amount and records one PIX credit of the source amount', () => {
    const deposit = operation('REQUESTED', {
      sourceAmount: brl('100.00'),
      targetAmount: usdt('18.500000'),
      intent: { type: 'DEPOSIT', fundingInstruction: { rail: 'PIX', payload: '000201' } },
    });
    const plan = settlementPlan(deposit);
    expect(plan.debits).toEqual([]);
    expect(plan.credits).toEqual([{ accountId: ACCOUNT, asset: 'USDT', delta: '18.500000' }]);
    expect(plan.transactions).toEqual([{ rail: 'PIX', direction: 'CREDIT', amount: brl('100.00') }]);
  });

  it('a withdrawal debits the source amount from the account and records one PIX debit of the target amount', () => {
    const withdrawal = operation('REQUESTED', {
      sourceAmount: usdt('18.500000'),
      targetAmount: brl('100.49'),
      intent: { type: 'WITHDRAWAL', beneficiary: { id: 'b1' } },
    });
    expect(normalised(settlementPlan(withdrawal))).toEqual({
      debits: [{ accountId: ACCOUNT, asset: 'USDT', delta: '-18.5' }],
      credits: [],
      transactions: [{ rail: 'PIX', direction: 'DEBIT', amount: brl('100.49') }],
    });
  });

  it('a swap debits the source asset and credits the target asset of the same account, with two internal transactions', () => {
    const swap = operation('REQUESTED', { sourceAmount: brl('100.00'), targetAmount: usdt('18.500000'), intent: { type: 'SWAP' } });
    expect(normalised(settlementPlan(swap))).toEqual({
      debits: [{ accountId: ACCOUNT, asset: 'BRL', delta: '-100' }],
      credits: [{ accountId: ACCOUNT, asset: 'USDT', delta: '18.5' }],
      transactions: [
        { rail: 'INTERNAL', direction: 'DEBIT', amount: brl('100.00') },
        { rail: 'INTERNAL', direction: 'CREDIT', amount: usdt('18.500000') },
      ],
    });
  });

  it('a transfer debits the source account and credits the target account, with one internal debit', () => {
    const transfer = operation('REQUESTED', {
      sourceAmount: brl('250.75'),
      targetAmount: brl('250.75'),
      intent: { type: 'TRANSFER', targetAccount: { id: TARGET_ACCOUNT, owner: 'Acme Ltda' } },
    });
    expect(normalised(settlementPlan(transfer))).toEqual({
      debits: [{ accountId: ACCOUNT, asset: 'BRL', delta: '-250.75' }],
      credits: [{ accountId: TARGET_ACCOUNT, asset: 'BRL', delta: '250.75' }],
      transactions: [{ rail: 'INTERNAL', direction: 'DEBIT', amount: brl('250.75') }],
    });
  });

  it('every debit is negative and every credit positive, whatever the intent', () => {
    const intents: Operation['intent'][] = [
      { type: 'DEPOSIT', fundingInstruction: { rail: 'PIX', payload: '000201' } },
      { type: 'WITHDRAWAL', beneficiary: { id: 'b1' } },
      { type: 'SWAP' },
      { type: 'TRANSFER', targetAccount: { id: TARGET_ACCOUNT, owner: 'x' } },
    ];
    for (const intent of intents) {
      const plan = settlementPlan(operation('REQUESTED', { intent }));
      for (const debit of plan.debits) expect(new Decimal(debit.delta).isNegative()).toBe(true);
      for (const credit of plan.credits) expect(new Decimal(credit.delta).greaterThan(0)).toBe(true);
    }
  });
});

describe('building a new operation', () => {
  const base: NewOperation = {
    id: 'op000000-0000-4000-8000-000000000009',
    customerId: CUSTOMER,
    accountId: ACCOUNT,
    sourceAmount: brl('100.00'),
    targetAmount: usdt('18.500000'),
    intent: { type: 'SWAP' },
    quote: { id: 'q1', rate: '0.185', expiresAt: '2025-03-10T14:30:30.000Z' },
    accountTags: [],
    at: CREATED_AT,
  };

  it('a new operation is REQUESTED, with no transactions, created and updated at the given time', () => {
    const op = buildOperation(base);
    expect(op).toEqual({
      id: base.id,
      customer: { id: CUSTOMER },
      accountId: ACCOUNT,
      sourceAmount: brl('100.00'),
      targetAmount: usdt('18.500000'),
      intent: { type: 'SWAP' },
      quote: base.quote,
      transactions: [],
      currentState: { status: 'REQUESTED', createdAt: CREATED_AT },
      tags: [],
      createdAt: CREATED_AT,
      updatedAt: CREATED_AT,
    });
  });

  it('propagating account tags are stamped on the operation without the propagates flag', () => {
    const op = buildOperation({ ...base, accountTags: [{ key: 'costCenter', value: 'CC-4488', propagates: true }] });
    expect(op.tags).toEqual([{ key: 'costCenter', value: 'CC-4488' }]);
    expect(op.tags[0]).not.toHaveProperty('propagates');
  });

  it('hidden and non-propagating account tags are not stamped', () => {
    const accountTags = [
      { key: null, value: 'onboarding-batch-042' },
      { key: 'segment', value: 'smb', propagates: false },
      { key: 'tier', value: 'gold' },
      { key: 'costCenter', value: 'CC-9319', propagates: true },
    ];
    expect(buildOperation({ ...base, accountTags }).tags).toEqual([{ key: 'costCenter', value: 'CC-9319' }]);
  });

  it('several propagating tags keep the account order', () => {
    const tags = propagatingTags([
      { key: 'b', value: '2', propagates: true },
      { key: 'a', value: '1', propagates: true },
    ]);
    expect(tags).toEqual([
      { key: 'b', value: '2' },
      { key: 'a', value: '1' },
    ]);
  });

  it("stamping does not change the account's own tags", () => {
    const accountTags = [{ key: 'costCenter', value: 'CC-1', propagates: true }];
    buildOperation({ ...base, accountTags });
    expect(accountTags).toEqual([{ key: 'costCenter', value: 'CC-1', propagates: true }]);
  });
});
