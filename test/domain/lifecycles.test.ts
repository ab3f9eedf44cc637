// The mock's state machines are the document's lifecycles (x-lifecycle, generated into
// spec/generated/lifecycles.ts): every declared transition is made and emits its declared event,
// every other pair of states is refused, and an edited table changes what the mock does.
import { describe, expect, it, jest } from '@jest/globals';
import { ServiceError } from '../../mock/errors/catalogue';
import * as accounts from '../../mock/domain/accounts';
import * as beneficiaries from '../../mock/domain/beneficiaries';
import type { Step } from '../../mock/domain/lifecycle';
import * as state from '../../mock/domain/operations/state-machine';
import type { Account, Operation, PaymentInstruction } from '../../mock/domain/records';
import { LIFECYCLE_NAMES, LIFECYCLES, transitionOf, type LifecycleName } from '../../spec/lifecycles';

const CREATED = '2025-03-10T14:30:00.000Z';
const LATER = '2025-03-10T15:00:00.000Z';

const operation = (status: string) =>
  ({ id: 'op-1', currentState: { status, createdAt: CREATED }, transactions: [] }) as unknown as Operation;
const account = (status: string) => {
  const current = { status, createdAt: CREATED };
  return { id: 'acc-1', currentState: current, states: [current], assets: [{ currency: 'BRL', status }] } as unknown as Account;
};
const instruction = (status: string) => ({ id: 'pi-1', currentState: { status, createdAt: CREATED } }) as unknown as PaymentInstruction;

type Machines = {
  state: typeof import('../../mock/domain/operations/state-machine');
  accounts: typeof import('../../mock/domain/accounts');
  beneficiaries: typeof import('../../mock/domain/beneficiaries');
};

/** The domain's move of each lifecycle, from a record in `from` to `to`. */
function movers(m: Machines): Record<LifecycleName, (from: string, to: string) => Step<unknown>> {
  return {
    operation: (from, to) => m.state.stepOperation(operation(from), to as never, LATER),
    account: (from, to) => m.accounts.stepAccount(account(from), to as never, LATER),
    asset: (from, to) => m.accounts.stepAsset(account(from), 'BRL', to as never, LATER),
    paymentInstruction: (from, to) => m.beneficiaries.stepInstruction(instruction(from), to as never, LATER),
  };
}

/** The ServiceError a move throws (by its name: the modules loaded with an edited table have their own class). */
function refusal(call: () => unknown): ServiceError {
  try {
    call();
  } catch (error) {
    expect((error as Error).constructor.name).toBe(ServiceError.name);
    return error as ServiceError;
  }
  throw new Error('expected INVALID_STATE_TRANSITION, nothing was thrown');
}

/** The domain modules loaded against a lifecycle table of the test's own (as if the document said so). */
function machinesWith(table: unknown): Machines {
  let loaded: Machines | undefined;
  jest.isolateModules(() => {
    jest.doMock('../../spec/generated/lifecycles', () => ({ LIFECYCLES: table }));
    /* eslint-disable @typescript-eslint/no-require-imports -- loaded again, inside isolateModules, against the test's table */
    loaded = {
      state: require('../../mock/domain/operations/state-machine'),
      accounts: require('../../mock/domain/accounts'),
      beneficiaries: require('../../mock/domain/beneficiaries'),
    };
    /* eslint-enable @typescript-eslint/no-require-imports */
  });
  jest.dontMock('../../spec/generated/lifecycles');
  return loaded!;
}

describe('the state machines follow the declared lifecycles', () => {
  const move = movers({ state, accounts, beneficiaries });

  const pairs = LIFECYCLE_NAMES.flatMap((name) => {
    const states = LIFECYCLES[name].states as readonly string[];
    return states.flatMap((from) => states.map((to) => [name, from, to] as const));
  });
  const declared = pairs.filter(([name, from, to]) => transitionOf(name, from, to));
  const undeclared = pairs.filter(([name, from, to]) => !transitionOf(name, from, to));

  it('every lifecycle the mock enforces is declared, with transitions', () => {
    expect([...LIFECYCLE_NAMES].sort()).toEqual(['account', 'asset', 'operation', 'paymentInstruction']);
    for (const name of LIFECYCLE_NAMES) expect(LIFECYCLES[name].transitions.length).toBeGreaterThan(0);
  });

  it.each(declared)('%s: %s -> %s is made and emits the declared event', (name, from, to) => {
    expect(move[name](from, to).event).toBe(transitionOf(name, from, to)!.event);
  });

  it.each(undeclared)('%s: %s -> %s is not declared, so it is refused with INVALID_STATE_TRANSITION', (name, from, to) => {
    const error = refusal(() => move[name](from, to));
    expect(error.code).toBe('INVALID_STATE_TRANSITION');
    expect(error.details).toEqual({ from, to });
  });
});

describe('one edit of the declaration changes the mock', () => {
  const edited = structuredClone(LIFECYCLES) as unknown as Record<LifecycleName, { transitions: Array<Record<string, unknown>> }>;
  // The edit: REQUESTED -> COMPLETED dropped; REQUESTED -> FAILED emits no event; CREATED -> APPROVED
  // emits the ACTION_REQUIRED event; an account's approval emits ACCOUNT_ACTION_REQUIRED.
  edited.operation.transitions = edited.operation.transitions
    .filter((t) => !(t.from === 'REQUESTED' && t.to === 'COMPLETED'))
    .map((t) => (t.from === 'REQUESTED' && t.to === 'FAILED' ? { ...t, event: null } : t));
  edited.paymentInstruction.transitions = edited.paymentInstruction.transitions.map((t) =>
    t.from === 'CREATED' && t.to === 'APPROVED' ? { ...t, event: 'BENEFICIARY_INSTRUCTION_ACTION_REQUIRED' } : t,
  );
  edited.account.transitions = edited.account.transitions.map((t) =>
    t.from === 'UNDER_REVIEW' && t.to === 'APPROVED' ? { ...t, event: 'ACCOUNT_ACTION_REQUIRED' } : t,
  );
  const move = movers(machinesWith(edited));

  it('a transition dropped from the declaration is refused', () => {
    expect(refusal(() => move.operation('REQUESTED', 'COMPLETED')).code).toBe('INVALID_STATE_TRANSITION');
    expect(move.operation('ACTION_REQUIRED', 'COMPLETED').event).toBe('OPERATION_COMPLETED');
  });

  it('a transition declared without an event emits none', () => {
    expect(move.operation('REQUESTED', 'FAILED').event).toBeNull();
  });

  it('a transition declared with another event emits that event', () => {
    expect(move.paymentInstruction('CREATED', 'APPROVED').event).toBe('BENEFICIARY_INSTRUCTION_ACTION_REQUIRED');
    expect(move.account('UNDER_REVIEW', 'APPROVED').event).toBe('ACCOUNT_ACTION_REQUIRED');
  });
});

describe('a new account', () => {
  it('whose history starts in an initial state emits that state’s creation event', () => {
    expect(accounts.accountCreatedEvent(account('ACTION_REQUIRED'))).toBe('ACCOUNT_CREATED');
  });

  it('copied from a fixture that starts mid-lifecycle (APPROVED, pulled from a sandbox) gets the lifecycle’s creation event', () => {
    expect(accounts.accountCreatedEvent(account('APPROVED'))).toBe('ACCOUNT_CREATED');
    expect(accounts.accountCreatedEvent(account('REJECTED'))).toBe('ACCOUNT_CREATED');
  });
});
