// Owner profiles. Seed: the tax document is sent as `identificationDocument` and returned as
// `taxId`; the company owner's UBOs are not part of the update and are kept.
import { ServiceError } from '../errors/catalogue';
import type { Account, Schemas } from './records';

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

export type AccountStatus = 'ACTION_REQUIRED' | 'UNDER_REVIEW' | 'APPROVED' | 'REJECTED';

// Ours (the seed shows only ACTION_REQUIRED and says review transitions are not shown):
// submitted accounts are UNDER_REVIEW; review approves, rejects or asks for action again.
const ACCOUNT_NEXT: Record<AccountStatus, AccountStatus[]> = {
  ACTION_REQUIRED: ['UNDER_REVIEW'],
  UNDER_REVIEW: ['APPROVED', 'REJECTED', 'ACTION_REQUIRED'],
  APPROVED: ['ACTION_REQUIRED'],
  REJECTED: [],
};

export interface StateReason {
  code: string;
  message: string;
  details?: Record<string, unknown>;
}

/** The account after a state transition, its history appended; throws when not allowed. */
export function moveAccount(account: Account, to: AccountStatus, at: string, reason?: StateReason): Account {
  const from = account.currentState.status as AccountStatus;
  if (!ACCOUNT_NEXT[from]?.includes(to)) {
    throw new ServiceError('INVALID_STATE_TRANSITION', { from, to }, `An account in ${from} cannot become ${to}.`);
  }
  const state = reason ? { status: to, createdAt: at, reason } : { status: to, createdAt: at };
  return { ...account, currentState: state, states: [...account.states, state], updatedAt: at };
}

export type AssetStatus = 'ACTIVE' | 'FAILED';

/** Ends an asset's onboarding (seed: assets themselves never change, their onboarding status does). */
export function moveAsset(account: Account, currency: string, to: AssetStatus, at: string): Account {
  const asset = account.assets.find((a) => a.currency === currency);
  if (!asset) throw new ServiceError('RESOURCE_NOT_FOUND', { resource: 'asset', id: currency }, `The account has no ${currency} asset.`);
  if (asset.status !== 'ONBOARDING') {
    throw new ServiceError(
      'INVALID_STATE_TRANSITION',
      { from: asset.status, to },
      `The ${currency} asset is ${asset.status}, not ONBOARDING.`,
    );
  }
  return { ...account, assets: account.assets.map((a) => (a.currency === currency ? { ...a, status: to } : a)), updatedAt: at };
}
