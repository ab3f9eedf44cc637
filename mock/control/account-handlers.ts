// Account actions: review transitions and asset onboarding through AccountService (so the same
// ACCOUNT_* events fire), and the balances the service API does not show.
import { atScale, fitsScale } from '../domain/money';
import { ServiceError } from '../errors/catalogue';
import { ok, type ControlContext, type ControlHandlers } from './context';
import { accountOwner } from './lookup';
import { assertPublic } from './public-schemas';

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

  /** Every asset of the account (0 when never credited) and any other asset holding a balance, at its scale. */
  const balancesOf = async (accountId: string) => {
    const record = await store.get('account', accountId);
    const stored = await store.balances(accountId);
    const assets = new Set([...(record?.account.assets ?? []).map((a) => a.currency), ...Object.keys(stored)]);
    const balances: Record<string, string> = {};
    for (const asset of assets) {
      const scale = reference.scales[asset];
      balances[asset] = scale === undefined ? (stored[asset] ?? '0') : atScale(stored[asset] ?? '0', scale);
    }
    return { accountId, balances };
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
