// Preconditions found through the API, never by hard-coded ids: an account that can move BRL
// (the one with most BRL when the control API shows balances), a second account, a beneficiary
// with a usable BRL payment instruction.
import Decimal from 'decimal.js';
import type { ApiClient } from './client';
import type { Session } from './session';
import type { Account, Beneficiary, Page } from './types';

/** Every record of a list, walking with limit 100 (at most `maxPages` pages). */
export async function allPages<T>(api: ApiClient, path: string, query: Record<string, string> = {}, maxPages = 50): Promise<T[]> {
  const out: T[] = [];
  let cursor: string | null | undefined;
  for (let page = 0; page < maxPages; page++) {
    const res = await api.get<Page<T>>(path, { query: { ...query, limit: 100, ...(cursor ? { cursor, direction: 'NEXT' } : {}) } });
    if (res.status !== 200) throw new Error(`contract suite: ${path} answered ${res.status} while looking for preconditions`);
    out.push(...res.body.data);
    cursor = res.body.meta.nextCursor;
    if (!cursor) break;
  }
  return out;
}

export const hasAsset = (account: Account, currency: string) => account.assets.some((a) => a.currency === currency);

function usableFor(account: Account, currency: string): boolean {
  return account.assets.some((a) => a.currency === currency && a.status === 'ACTIVE');
}

export interface Accounts {
  /** Holds BRL and USDT, preferably active, with the most BRL when balances are visible. */
  funded: Account;
  /** Another account of the customer with a BRL asset. */
  other: Account;
  all: Account[];
}

export async function findAccounts(session: Session): Promise<Accounts> {
  const all = await allPages<Account>(session.api, '/api/accounts');
  const candidates = all.filter((a) => hasAsset(a, 'BRL') && hasAsset(a, 'USDT'));
  if (candidates.length === 0) throw new Error('contract suite: the customer has no account with BRL and USDT assets');
  let ranked: Account[];
  if (session.control) {
    const brl = new Map<string, Decimal>();
    for (const a of candidates) brl.set(a.id, new Decimal((await session.control.balances(a.id)).balances.BRL ?? '0'));
    ranked = [...candidates].sort((a, b) => brl.get(b.id)!.comparedTo(brl.get(a.id)!));
  } else {
    ranked = [...candidates].sort(
      (a, b) =>
        Number(usableFor(b, 'BRL')) - Number(usableFor(a, 'BRL')) ||
        Number(a.sourceAccountId === null) - Number(b.sourceAccountId === null),
    );
  }
  const funded = ranked[0]!;
  const other = all.find((a) => a.id !== funded.id && hasAsset(a, 'BRL'));
  if (!other) throw new Error('contract suite: the customer needs a second account with a BRL asset');
  return { funded, other, all };
}

/** A saved beneficiary with a BRL payment instruction that is not rejected or waiting for action. */
export async function findBeneficiary(api: ApiClient): Promise<Beneficiary | undefined> {
  const all = await allPages<Beneficiary>(api, '/v1/beneficiaries');
  return all.find((b) =>
    b.paymentInstructions.some((pi) => pi.asset === 'BRL' && ['CREATED', 'APPROVED', undefined].includes(pi.currentState.status)),
  );
}
