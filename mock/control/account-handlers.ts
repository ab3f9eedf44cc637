// Account actions: review transitions and asset onboarding through AccountService (so the same
// ACCOUNT_* events fire), and the balances the service API does not show.
import { atScale, fitsScale } from '../domain/money';
import { ServiceError } from '../errors/catalogue';
import type { Deps } from '../services/deps';
import { ok, type ControlContext, type ControlHandlers } from './context';
import { accountOwner } from './lookup';
import { assertPublic } from './public-schemas';

/**
 * An account's balances as the control API shows them: every asset of the account (0 when never
 * credited) and any other asset holding a balance, each at its asset's scale ("25020.00", not the
 * stored "25020").
 */
export async function balancesAtScale(
  deps: Pick<Deps, 'store' | 'reference'>,
  account: { id: string; assets: ReadonlyArray<{ currency: string }> },
): Promise<Record<string, string>> {
  const stored = await deps.store.balances(account.id);
  const assets = new Set([...account.assets.map((a) => a.currency), ...Object.keys(stored)]);
  const balances: Record<string, string> = {};
  for (const asset of assets) {
    const scale = deps.reference.scales[asset];
    balances[asset] = scale === undefined ? (stored[asset] ?? '0') : atScale(stored[asset] ?? '0', scale);
  }
  return balances;
}

export function accountHandlers(c: ControlContext) {
  const { store, reference } = c.deps;
  const accounts = c.services.accounts;
  const reasonOf = (body: { reason: unknown }) => {
    assertPublic(c.publicContract, 'Reason', body.reason, 'body.reason');
    return body.reason as { code: string; message: string };
  };
  const withOwner = async (params: { accountId: string }) => ({
    id: params.accountId,
    customerId: await accountOwner(store, params.accountId),
  });

  const balancesOf = async (accountId: string) => {
    const record = await store.get('account', accountId);
    const account = record?.account ?? { id: accountId, assets: [] };
    return { accountId, balances: await balancesAtScale(c.deps, account) };
  };

  return {
    submitAccountForReview: async ({ params }) => {
      const { id, customerId } = await withOwner(params);
      return ok(await accounts.submitForReview(customerId, id));
    },
    approveAccount: async ({ params }) => {
      const { id, customerId } = await withOwner(params);
      return ok(await accounts.approve(customerId, id));
    },
    rejectAccount: async ({ params, body }) => {
      const { id, customerId } = await withOwner(params);
      return ok(await accounts.reject(customerId, id, reasonOf(body)));
    },
    requireAccountAction: async ({ params, body }) => {
      const { id, customerId } = await withOwner(params);
      return ok(await accounts.requireAction(customerId, id, reasonOf(body)));
    },
    activateAccountAsset: async ({ params }) => {
      const { id, customerId } = await withOwner(params);
      return ok(await accounts.settleAsset(customerId, id, params.currency, 'ACTIVE'));
    },
    failAccountAsset: async ({ params }) => {
      const { id, customerId } = await withOwner(params);
      return ok(await accounts.settleAsset(customerId, id, params.currency, 'FAILED'));
    },
    getAccountBalances: async ({ params }) => {
      const { id } = await withOwner(params);
      return ok(await balancesOf(id));
    },
    setAccountBalances: async ({ params, body }) => {
      const { id } = await withOwner(params);
      const entries = Object.entries(body);
      const fields: Array<{ field: string; message: string }> = [];
      for (const [asset, value] of entries) {
        const scale = reference.scales[asset];
        if (scale === undefined)
          fields.push({ field: `body.${asset}`, message: `is not an asset the mock knows (${Object.keys(reference.scales).join(', ')})` });
        else if (!fitsScale(value, scale)) fields.push({ field: `body.${asset}`, message: `has more than ${scale} decimal places` });
      }
      if (fields.length > 0) throw new ServiceError('VALIDATION_ERROR', { fields });
      for (const [asset, value] of entries) await store.setBalance(id, asset, value);
      return ok(await balancesOf(id));
    },
  } satisfies Partial<ControlHandlers>;
}
