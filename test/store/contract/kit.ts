// What every part of the Store contract shares: the records it stores (small stand-ins under the
// operation and subscription kinds: the store never looks inside a record), and the kit a part
// gets from ../store-contract.ts: fresh stores, disposed of after each test, and a few set-ups.
import { afterEach } from '@jest/globals';
import type { Operation, QuoteRecord, SubscriptionRecord } from '../../../mock/domain/records';
import type { PageQuery, PageSlice, Store } from '../../../mock/store';

export const CUSTOMER = 'customer-a';
export const OTHER_CUSTOMER = 'customer-b';
export const ACCOUNT = 'account-1';
export const TTL = 24 * 60 * 60 * 1000;
export const T0 = Date.parse('2025-03-10T00:00:00.000Z');

export function quote(id = 'quote-1'): QuoteRecord {
  return {
    id,
    customerId: CUSTOMER,
    accountId: ACCOUNT,
    sourceAsset: 'BRL',
    targetAsset: 'USDT',
    sourceAmount: '100.00',
    targetAmount: '18.500000',
    rate: '0.185',
    createdAt: '2025-03-10T14:30:00.000Z',
    expiresAt: '2025-03-10T14:30:30.000Z',
    operationId: null,
    internal: false,
  };
}

/**
 * The store never looks inside a record, so most tests keep small stand-ins (an id, a number)
 * under the operation and subscription kinds; these give a stand-in its kind's record type.
 */
export interface StandIn {
  id?: string;
  n?: number;
  v?: number;
  count?: number;
  [field: string]: unknown;
}
export const asOperation = (record: StandIn) => record as unknown as Operation;
export const asSubscription = (record: StandIn) => record as unknown as SubscriptionRecord;
export const standIn = (record: unknown) => record as StandIn;

export const idsOf = (slice: PageSlice<Operation>) => slice.items.map((item) => item.record.id);
export const shape = (slice: PageSlice<Operation>) => ({ ids: idsOf(slice), hasBefore: slice.hasBefore, hasAfter: slice.hasAfter });

/** Runs `mutate`, ignoring the TypeError a frozen record throws: either way the store must not change. */
export function tryToMutate(mutate: () => void): void {
  try {
    mutate();
  } catch (error) {
    if (!(error instanceof TypeError)) throw error;
  }
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export interface StoreKit<S extends Store> {
  /** A new, empty store, disposed of after the test. */
  fresh: () => Promise<S>;
  /** A store holding quote-1 of CUSTOMER. */
  storeWithQuote: () => Promise<S>;
  /** A store holding these operations (stand-ins) in `scope`, inserted in this order. */
  withOperations: (ids: string[], scope?: string) => Promise<S>;
  /** The insertion key of each record of a scope, by id. */
  keysById: (store: Store, scope?: string) => Promise<Record<string, number>>;
  /** A page of CUSTOMER's operations: 10, ascending, unless the query says otherwise. */
  page: (store: Store, query: Partial<PageQuery<Operation>>) => Promise<PageSlice<Operation>>;
}

/** Registers the disposal of the stores a test opened, and gives the kit. */
export function storeKit<S extends Store>(makeStore: () => Promise<S>, dispose?: (store: S) => Promise<void>): StoreKit<S> {
  const opened: S[] = [];
  const fresh = async (): Promise<S> => {
    const store = await makeStore();
    opened.push(store);
    return store;
  };
  afterEach(async () => {
    for (const store of opened.splice(0)) await dispose?.(store);
  });
  return {
    fresh,
    storeWithQuote: async () => {
      const store = await fresh();
      await store.insert('quote', CUSTOMER, 'quote-1', quote());
      return store;
    },
    withOperations: async (ids, scope = CUSTOMER) => {
      const store = await fresh();
      for (const id of ids) await store.insert('operation', scope, id, asOperation({ id }));
      return store;
    },
    keysById: async (store, scope = CUSTOMER) => {
      const slice = await store.page('operation', { scope, limit: 1000, order: 'ASCENDING' });
      return Object.fromEntries(slice.items.map((item) => [item.record.id, item.key]));
    },
    page: (store, query) => store.page('operation', { scope: CUSTOMER, limit: 10, order: 'ASCENDING', ...query }),
  };
}
