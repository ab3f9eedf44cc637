// Breaks made by a store that keeps too little (createApp's `store` option): quotes never marked
// consumed, idempotency keys that ignore the request body.
import { MemoryStore, type IdempotencyClaim, type Kind } from '../../../mock/store';
import type { RecordTypes } from '../../../mock/domain/records';
import type { Break } from './break';

/**
 * Quotes are never checked nor marked consumed: the operation is inserted and the answer is true,
 * so each quote can fund any number of operations.
 */
class QuoteNeverConsumedStore extends MemoryStore {
  override async insertConsumingQuote<K extends Kind>(
    _quoteId: string,
    kind: K,
    scope: string,
    id: string,
    record: RecordTypes[K],
  ): Promise<boolean> {
    await this.insert(kind, scope, id, record);
    return true;
  }
}

/** The idempotency key is remembered, but a different request under it replays the first answer. */
class KeyIgnoresBodyStore extends MemoryStore {
  override async claimIdempotencyKey(key: string, fingerprint: string, now: number, ttlMs: number): Promise<IdempotencyClaim> {
    const claim = await super.claimIdempotencyKey(key, fingerprint, now, ttlMs);
    return claim.outcome === 'CLAIMED' ? claim : { ...claim, entry: { ...claim.entry, fingerprint } };
  }
}

export const quoteUsableTwice: Break = {
  id: 'quote-usable-twice',
  rules: ['QUOTE-CONSUMED-ONCE'],
  what: 'a quote is never marked consumed: it funds any number of operations',
  files: ['quotes'],
  options: () => ({ store: new QuoteNeverConsumedStore() }),
};

export const keyReusedOtherBody: Break = {
  id: 'key-reused-other-body',
  rules: ['IDEM-KEY-REUSED'],
  what: 'an idempotency key reused with a different body replays the first answer (no 422)',
  files: ['idempotency'],
  options: () => ({ store: new KeyIgnoresBodyStore() }),
};

/** Idempotency keys without their customer: one customer's key is taken for another's. */
class KeyWithoutCustomerStore extends MemoryStore {
  private static unscoped = (key: string) => key.slice(key.indexOf(':') + 1);
  override claimIdempotencyKey(key: string, fingerprint: string, now: number, ttlMs: number): Promise<IdempotencyClaim> {
    return super.claimIdempotencyKey(KeyWithoutCustomerStore.unscoped(key), fingerprint, now, ttlMs);
  }
  override completeIdempotencyKey(...[key, ...rest]: Parameters<MemoryStore['completeIdempotencyKey']>) {
    return super.completeIdempotencyKey(KeyWithoutCustomerStore.unscoped(key), ...rest);
  }
  override releaseIdempotencyKey(...[key, ...rest]: Parameters<MemoryStore['releaseIdempotencyKey']>) {
    return super.releaseIdempotencyKey(KeyWithoutCustomerStore.unscoped(key), ...rest);
  }
}

export const keySharedByCustomers: Break = {
  id: 'key-shared-by-customers',
  rules: ['TENANCY-IDEMPOTENCY-SCOPE'],
  what: 'idempotency keys are not scoped by customer: one customer’s key refuses or replays another’s request',
  files: ['tenancy'],
  options: () => ({ store: new KeyWithoutCustomerStore() }),
};
