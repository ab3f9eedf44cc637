// Accounts: list, read, and the owner update of the seed ("the supplied owner replaces the
// current owner profile", "only accounts not yet submitted for review can be updated").
import { ServiceError } from '../errors/catalogue';
import {
  accountCreatedEvent,
  stepAccount,
  stepAsset,
  toResponseOwner,
  type AccountStatus,
  type AssetStatus,
  type OwnerInput,
  type StateReason,
} from '../domain/accounts';
import { readPage, type PageParams } from '../domain/pagination/page';
import type { Account, AccountRecord, EventType } from '../domain/records';
import type { DomainEvent } from '../events/event-bus';
import { resourceEvent } from '../events/resource-event';
import type { Deps } from './deps';
import { ownAccount } from './ownership';

export class AccountService {
  constructor(private readonly deps: Deps) {}

  list(customerId: string, params: PageParams) {
    const { store, codec } = this.deps;
    return readPage(
      codec,
      `account:${customerId}`,
      params,
      (q) => store.page('account', { scope: customerId, ...q }),
      (r) => r.account,
    );
  }

  async get(customerId: string, accountId: string): Promise<Account> {
    return (await ownAccount(this.deps.store, customerId, accountId)).account;
  }

  async replaceOwner(customerId: string, accountId: string, owner: OwnerInput): Promise<Account> {
    const { store, clocks } = this.deps;
    const clock = await clocks.clockOf(customerId);
    await ownAccount(store, customerId, accountId);
    const updated = await store.update('account', accountId, (record) => {
      if (record.review !== 'NOT_SUBMITTED') throw new ServiceError('ACCOUNT_NOT_EDITABLE', { accountId });
      // Assets never change (seed: "Assets cannot be modified after account creation").
      const account = { ...record.account, owner: toResponseOwner(owner, record.account.owner), updatedAt: clock.nowIso() };
      return { ...record, account };
    });
    return (updated as NonNullable<typeof updated>).account;
  }

  /** Adds an account (control API: a new customer's copy of the demo accounts); emits its lifecycle's creation event (ACCOUNT_CREATED). */
  async create(record: AccountRecord): Promise<Account> {
    const events = this.deps.outbox.entries(
      ...accountEvents(accountCreatedEvent(record.account), record.account, record.account.createdAt),
    );
    await this.deps.store.insert('account', record.account.customer.id, record.account.id, record, events);
    await this.deps.outbox.publish(events);
    return record.account;
  }

  /** Submits for review: the owner can no longer be replaced (seed), the account is UNDER_REVIEW. */
  submitForReview(customerId: string, accountId: string): Promise<Account> {
    return this.transition(customerId, accountId, 'UNDER_REVIEW', undefined, 'SUBMITTED');
  }

  approve(customerId: string, accountId: string): Promise<Account> {
    return this.transition(customerId, accountId, 'APPROVED');
  }

  reject(customerId: string, accountId: string, reason: StateReason): Promise<Account> {
    return this.transition(customerId, accountId, 'REJECTED', reason);
  }

  /** Review asks the customer to act: ACCOUNT_ACTION_REQUIRED, and the owner is editable again. */
  requireAction(customerId: string, accountId: string, reason: StateReason): Promise<Account> {
    return this.transition(customerId, accountId, 'ACTION_REQUIRED', reason, 'NOT_SUBMITTED');
  }

  /** Ends an asset's onboarding, with the event its lifecycle names (ACCOUNT_ASSET_ACTIVATED or ACCOUNT_ASSET_FAILED). */
  async settleAsset(customerId: string, accountId: string, currency: string, to: AssetStatus): Promise<Account> {
    const { store, clocks } = this.deps;
    const clock = await clocks.clockOf(customerId);
    await ownAccount(store, customerId, accountId);
    const at = clock.nowIso();
    // The event of the transition made, from the lifecycle.
    const change = this.deps.outbox.update((r: AccountRecord) => {
      const step = stepAsset(r.account, currency, to, at);
      return { next: { ...r, account: step.next }, events: accountEvents(step.event, step.next, at) };
    });
    const updated = (await store.update('account', accountId, change.change, change.of))!;
    await this.deps.outbox.publish(change.entries());
    return updated.account;
  }

  private async transition(
    customerId: string,
    accountId: string,
    to: AccountStatus,
    reason?: StateReason,
    review?: AccountRecord['review'],
  ): Promise<Account> {
    const { store, clocks } = this.deps;
    const clock = await clocks.clockOf(customerId);
    await ownAccount(store, customerId, accountId);
    const at = clock.nowIso();
    // The event of the transition made, from the lifecycle (the seed's account events: only the moves into ACTION_REQUIRED have one).
    const change = this.deps.outbox.update((r: AccountRecord) => {
      const step = stepAccount(r.account, to, at, reason);
      return { next: { account: step.next, review: review ?? r.review }, events: accountEvents(step.event, step.next, at) };
    });
    const updated = (await store.update('account', accountId, change.change, change.of))!;
    await this.deps.outbox.publish(change.entries());
    return updated.account;
  }
}

function accountEvents(eventType: EventType | null, account: Account, atTime: string): DomainEvent[] {
  return eventType ? [resourceEvent('ACCOUNT', eventType, account, account.customer.id, atTime)] : [];
}
