// Account and asset state rules: which account transitions are allowed (and the 409 refusal that
// names both states), the history a transition appends, and how an asset's onboarding ends.
import { describe, expect, it } from '@jest/globals';
import { ServiceError } from '../../mock/errors/catalogue';
import { moveAccount, moveAsset, toResponseOwner, type AccountStatus, type OwnerInput } from '../../mock/domain/accounts';
import type { Account } from '../../mock/domain/records';

type Owner = Account['owner'];

const CREATED = '2025-03-10T14:30:00.000Z';
const LATER = '2025-03-10T15:00:00.000Z';

function account(status: string, assets: Array<{ currency: string; status: string }> = []): Account {
  const state = { status, createdAt: CREATED };
  return { id: 'acc-1', currentState: state, states: [state], assets, updatedAt: CREATED } as unknown as Account;
}

function refusal(call: () => unknown): ServiceError {
  try {
    call();
  } catch (error) {
    expect(error).toBeInstanceOf(ServiceError);
    return error as ServiceError;
  }
  throw new Error('expected a ServiceError');
}

const ALLOWED: Array<[AccountStatus, AccountStatus]> = [
  ['ACTION_REQUIRED', 'UNDER_REVIEW'],
  ['UNDER_REVIEW', 'APPROVED'],
  ['UNDER_REVIEW', 'REJECTED'],
  ['UNDER_REVIEW', 'ACTION_REQUIRED'],
  ['APPROVED', 'ACTION_REQUIRED'],
];
const STATUSES: AccountStatus[] = ['ACTION_REQUIRED', 'UNDER_REVIEW', 'APPROVED', 'REJECTED'];

describe('account transitions', () => {
  it.each(ALLOWED)('%s may become %s; the new state is current and appended to the history', (from, to) => {
    const moved = moveAccount(account(from), to, LATER);
    expect(moved.currentState).toEqual({ status: to, createdAt: LATER });
    expect(moved.states).toEqual([
      { status: from, createdAt: CREATED },
      { status: to, createdAt: LATER },
    ]);
    expect(moved.updatedAt).toBe(LATER);
  });

  const forbidden = STATUSES.flatMap((from) => STATUSES.map((to) => [from, to] as const)).filter(
    ([from, to]) => !ALLOWED.some(([f, t]) => f === from && t === to),
  );
  it.each(forbidden)('%s may not become %s: INVALID_STATE_TRANSITION naming both', (from, to) => {
    const error = refusal(() => moveAccount(account(from), to, LATER));
    expect(error.code).toBe('INVALID_STATE_TRANSITION');
    expect(error.status).toBe(409);
    expect(error.details).toEqual({ from, to });
    expect(error.message).toBe(`An account in ${from} cannot become ${to}.`);
  });

  it('an account in a status the machine does not know is refused too, not crashed on', () => {
    const error = refusal(() => moveAccount(account('CLOSED'), 'APPROVED', LATER));
    expect(error.code).toBe('INVALID_STATE_TRANSITION');
    expect(error.details).toEqual({ from: 'CLOSED', to: 'APPROVED' });
  });

  it('a reason is kept on the new state', () => {
    const reason = { code: 'DOCS', message: 'Send the documents again.' };
    expect(moveAccount(account('UNDER_REVIEW'), 'ACTION_REQUIRED', LATER, reason).currentState).toEqual({
      status: 'ACTION_REQUIRED',
      createdAt: LATER,
      reason,
    });
  });
});

describe('ending an asset onboarding', () => {
  const assets = [
    { currency: 'BRL', status: 'ONBOARDING' },
    { currency: 'USDT', status: 'ACTIVE' },
  ];

  it('an ONBOARDING asset becomes ACTIVE or FAILED, the others are untouched', () => {
    const moved = moveAsset(account('APPROVED', assets), 'BRL', 'FAILED', LATER);
    expect(moved.assets).toEqual([
      { currency: 'BRL', status: 'FAILED' },
      { currency: 'USDT', status: 'ACTIVE' },
    ]);
    expect(moved.updatedAt).toBe(LATER);
  });

  it('an asset the account does not have is RESOURCE_NOT_FOUND naming it', () => {
    const error = refusal(() => moveAsset(account('APPROVED', assets), 'EUR', 'ACTIVE', LATER));
    expect(error.code).toBe('RESOURCE_NOT_FOUND');
    expect(error.details).toEqual({ resource: 'asset', id: 'EUR' });
    expect(error.message).toBe('The account has no EUR asset.');
  });

  it('an asset whose onboarding already ended is INVALID_STATE_TRANSITION naming its status', () => {
    const error = refusal(() => moveAsset(account('APPROVED', assets), 'USDT', 'FAILED', LATER));
    expect(error.code).toBe('INVALID_STATE_TRANSITION');
    expect(error.details).toEqual({ from: 'ACTIVE', to: 'FAILED' });
    expect(error.message).toBe('The USDT asset is ACTIVE, not ONBOARDING.');
  });
});

describe('the owner returned after an update', () => {
  const address = { street: 'Rua A', city: 'Recife', country: 'BR' };
  const cpf = { value: '12345678901', type: 'CPF' };
  const cnpj = { value: '12345678000199', type: 'CNPJ' };

  it('an individual: the identificationDocument sent comes back as taxId, absent fields are left out', () => {
    const input = { type: 'INDIVIDUAL', firstName: 'Ana', lastName: 'Lima', identificationDocument: cpf, address };
    expect(toResponseOwner(input as unknown as OwnerInput, { type: 'INDIVIDUAL' } as unknown as Owner)).toEqual({
      type: 'INDIVIDUAL',
      firstName: 'Ana',
      lastName: 'Lima',
      taxId: cpf,
      address,
    });
  });

  it("a company keeps the current company owner's UBOs; a company replacing an individual has none", () => {
    const input = { type: 'COMPANY', legalName: 'Acme', identificationDocument: cnpj, address };
    const ubos = [{ firstName: 'Bia' }];
    expect(toResponseOwner(input as unknown as OwnerInput, { type: 'COMPANY', ubos } as unknown as Owner)).toEqual({
      type: 'COMPANY',
      legalName: 'Acme',
      taxId: cnpj,
      address,
      ubos,
    });
    expect(toResponseOwner(input as unknown as OwnerInput, { type: 'INDIVIDUAL' } as unknown as Owner)).toEqual({
      type: 'COMPANY',
      legalName: 'Acme',
      taxId: cnpj,
      address,
      ubos: [],
    });
  });
});
