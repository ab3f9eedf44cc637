// The behaviour every Store must have, written once and run against each implementation
// (memory-store.test.ts, redis-store.test.ts), in parts by subject (contract/). Records are plain
// JSON to a store: tests compare values (toEqual), never the identity of returned objects. An
// update's change function may run more than once under contention (a store that retries
// optimistically), so no test counts its calls; what must hold is that every concurrent update lands.
import { describe } from '@jest/globals';
import type { Store } from '../../mock/store';
import { keysAndSeedingContract } from './contract/keys-and-seeding';
import { storeKit } from './contract/kit';
import { outboxContract } from './contract/outbox';
import { pagesContract } from './contract/pages';
import { quotesAndBalancesContract } from './contract/quotes-and-balances';
import { recordsContract } from './contract/records';
import { stateContract } from './contract/state';

export function storeContract<S extends Store>(name: string, makeStore: () => Promise<S>, dispose?: (store: S) => Promise<void>): void {
  describe(name, () => {
    const kit = storeKit(makeStore, dispose);
    recordsContract(kit);
    pagesContract(kit);
    quotesAndBalancesContract(kit);
    keysAndSeedingContract(kit);
    stateContract(kit);
    outboxContract(kit);
  });
}
