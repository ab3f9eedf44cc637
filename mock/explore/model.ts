// What one generated run knows of the records it made, by the names their ids were saved under
// (`q3` is the third quote; a step refers to it as `{{q3}}`). Commands pick records through it,
// and the checks compare what the target answers with it. Nothing here predicts an answer: the
// model holds facts the run saw, and the checks are rules any answer must keep.
import type { HttpAnswer } from '../scenarios/http';
import type { Step } from '../scenarios/types';

export type OperationKind = 'deposit' | 'withdrawal' | 'swap' | 'transfer';

export interface QuoteRecord {
  name: string;
  /** The template of the account it was asked for (`{{customer.accounts[0]}}`). */
  account: string;
  sourceAsset: string;
  targetAsset: string;
  /** The operation (by name) that the target accepted on it, if any. */
  usedBy?: string;
  /** The clock moved since it was made: it may have expired (steps prefer quotes that have not). */
  stale?: boolean;
}

export interface OperationRecord {
  name: string;
  kind: OperationKind;
  quote?: string;
  /** Every status the run saw it in, in order, repeats dropped. */
  statuses: string[];
  /** Failed through the control API (its reason is the one given there). */
  failedByControl?: boolean;
}

/** A mutating call that was answered (not by an injected fault): what replays are compared with. */
export interface CallRecord {
  step: Step;
  key: string;
  answer: HttpAnswer;
  /** 1-based index of the step. */
  index: number;
  /** The customer's clock (ms moved since the run began) when it was made: keys are kept 24 hours. */
  atMs: number;
}

export interface Model {
  /** Templates of the customer's accounts and beneficiaries, as the scenario built-ins name them. */
  accounts: string[];
  beneficiaries: string[];
  quotes: QuoteRecord[];
  operations: OperationRecord[];
  subscriptions: string[];
  /** Beneficiaries the run made (by name). */
  madeBeneficiaries: string[];
  calls: CallRecord[];
  /** The other customer's idempotency key was sent once already (a second time is this customer's own replay). */
  foreignKeyUsed?: boolean;
  /** How far the run moved the customer's clock, ms. */
  clockMs: number;
  /** How many names were handed out (names stay unique within a run). */
  counter: number;
}

export function emptyModel(accountCount: number, beneficiaryCount: number): Model {
  return {
    accounts: Array.from({ length: accountCount }, (_, i) => `{{customer.accounts[${i}]}}`),
    beneficiaries: Array.from({ length: beneficiaryCount }, (_, i) => `{{customer.beneficiaries[${i}]}}`),
    quotes: [],
    operations: [],
    subscriptions: [],
    madeBeneficiaries: [],
    calls: [],
    counter: 0,
    clockMs: 0,
  };
}

/** A fresh name for a record the next step saves (`q1`, `op2`, ...). */
export function nextName(model: Model, prefix: string): string {
  model.counter += 1;
  return `${prefix}${model.counter}`;
}

/** The item at a generated index (any natural number), or undefined when there is none. */
export function pick<T>(items: readonly T[], index: number): T | undefined {
  return items.length === 0 ? undefined : items[index % items.length];
}
