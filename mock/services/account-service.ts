// Accounts: list, read, and the owner update of the seed ("the supplied owner replaces the
// current owner profile", "only accounts not yet submitted for review can be updated").
import { ServiceError } from '../errors/catalogue';
import { toResponseOwner, type OwnerInput } from '../domain/accounts';
import { readPage, type PageParams } from '../domain/pagination/page';
import type { Account } from '../domain/records';
import type { Deps } from './deps';
import { ownAccount } from './ownership';

export class AccountService {
  constructor(private readonly deps: Deps) {}

  list(customerId: string, params: PageParams) {
    const { store, codec } = this.deps;
    return readPage(codec, `account:${customerId}`, params, (q) => store.page('account', { scope: customerId, ...q }), (r) => r.account);
  }

  async get(customerId: string, accountId: string): Promise<Account> {
    return (await ownAccount(this.deps.store, customerId, accountId)).account;
  }

  async replaceOwner(customerId: string, accountId: string, owner: OwnerInput): Promise<Account> {
    const { store, clock } = this.deps;
    await ownAccount(store, customerId, accountId);
    const updated = await store.update('account', accountId, (record) => {
      if (record.review !== 'NOT_SUBMITTED') throw new ServiceError('ACCOUNT_NOT_EDITABLE', { accountId });
      // Assets never change (seed: "Assets cannot be modified after account creation").
      const account = { ...record.account, owner: toResponseOwner(owner, record.account.owner), updatedAt: clock.nowIso() };
      return { ...record, account };
    });
    return (updated as NonNullable<typeof updated>).account;
  }
}
