// Owner profiles. Seed: the tax document is sent as `identificationDocument` and returned as
// `taxId`; the company owner's UBOs are not part of the update and are kept.
import { ServiceError } from '../errors/catalogue';
import { initialOf, initialStates, type StateOf } from '../../spec/lifecycles';
import { transitionEvent, type Step } from './lifecycle';
import type { Account, EventType, Schemas } from './records';

export type OwnerInput = Schemas['AccountUpdate']['owner'];
type Owner = Account['owner'];

export function toResponseOwner(input: OwnerInput, current: Owner): Owner {
  if (input.type === 'COMPANY') {
    const ubos = current.type === 'COMPANY' ? current.ubos : [];
    return compact({
      type: 'COMPANY' as const,
      legalName: input.legalName,
      taxId: input.identificationDocument,
      industry: input.industry,
      expectedMonthlyVolume: input.expectedMonthlyVolume,
      address: input.address,
      ubos,
    });
  }
  return compact({
    type: 'INDIVIDUAL' as const,
    firstName: input.firstName,
    lastName: input.lastName,
    taxId: input.identificationDocument,
    birthDate: input.birthDate,
    email: input.email,
    phone: input.phone,
    address: input.address,
  });
}

/** Drops absent optional fields so the response never carries `undefined`. */
function compact<T extends Record<string, unknown>>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}

export type AccountStatus = StateOf<'account'>;

// The account's transitions and their events are the document's `x-lifecycle` on
// AccountState.status (ours: the seed shows only ACTION_REQUIRED and says review transitions are
// not shown): submitted accounts are UNDER_REVIEW; review approves, rejects or asks for action again.

export interface StateReason {
  code: string;
  message: string;
  details?: Record<string, unknown>;
}

/**
 * The event of a new account: the one of the initial state its history starts in. A new customer's
 * accounts are copies of the fixtures', which may start anywhere in the lifecycle (accounts pulled
 * from a sandbox): one that does not start in an initial state is created with the lifecycle's own
 * creation event, that of its first initial state.
 */
export function accountCreatedEvent(account: Account): EventType | null {
  const first = (account.states[0] ?? account.currentState).status;
  return (initialOf('account', first) ?? initialStates('account')[0])?.event ?? null;
}

/** The account after a state transition, its history appended, with its event; throws when not allowed. */
export function stepAccount(account: Account, to: AccountStatus, at: string, reason?: StateReason): Step<Account> {
  const from = account.currentState.status;
  const event = transitionEvent('account', from, to, `An account in ${from} cannot become ${to}.`);
  const state = reason ? { status: to, createdAt: at, reason } : { status: to, createdAt: at };
  return { next: { ...account, currentState: state, states: [...account.states, state], updatedAt: at }, event };
}

/** The account after a state transition, its history appended; throws when not allowed. */
export function moveAccount(account: Account, to: AccountStatus, at: string, reason?: StateReason): Account {
  return stepAccount(account, to, at, reason).next;
}

export type AssetStatus = StateOf<'asset'>;

/** Ends an asset's onboarding, with its event (seed: assets themselves never change, their onboarding status does). */
export function stepAsset(account: Account, currency: string, to: AssetStatus, at: string): Step<Account> {
  const asset = account.assets.find((a) => a.currency === currency);
  if (!asset) throw new ServiceError('RESOURCE_NOT_FOUND', { resource: 'asset', id: currency }, `The account has no ${currency} asset.`);
  const event = transitionEvent('asset', asset.status, to, `The ${currency} asset is ${asset.status}, not ONBOARDING.`);
  const next = { ...account, assets: account.assets.map((a) => (a.currency === currency ? { ...a, status: to } : a)), updatedAt: at };
  return { next, event };
}

/** The account with an asset's onboarding ended; throws when not allowed. */
export function moveAsset(account: Account, currency: string, to: AssetStatus, at: string): Account {
  return stepAsset(account, currency, to, at).next;
}
