// Where the shared store keeps what, under the prefix (default "fos:"), all store data under "s:"
// so `clear` leaves the clock, faults and the shared secret (shared-state.ts) alone:
//   s:seq                    insertion sequence (the keys cursors name)
//   s:rec:<kind>             hash id → "<version>|<record JSON>" (version: a new one from "version" on every write)
//   s:meta:<kind>            hash id → "<key>|<scope>"
//   s:list:<kind>:<scope>    sorted set id by key: a page is O(log n + page size)
//   s:bal:<account>          hash asset → decimal string; s:bal-accounts: the accounts that have one
//   s:idem:<key>, s:idem-exp idempotency entries and their expiry (mock time) index
//   s:idem-own               the keys on a customer's own clock (not in the index: that clock decides their expiry)
//   s:outbox, s:outbox-at    outbox entries (id → JSON) and when each was written or taken (Redis's clock, ms)
//   version                  the version counter, outside "s:"
import type { Kind } from '../store';

export class RedisKeys {
  constructor(readonly prefix: string) {}

  /** A key of the store's data ("s:" and the parts). */
  key(...parts: string[]): string {
    return `${this.prefix}s:${parts.join(':')}`;
  }
  /** The version counter: outside "s:", so neither clear nor import starts it again (a cached version is never reused). */
  version(): string {
    return `${this.prefix}version`;
  }
  records(kind: Kind): string {
    return this.key('rec', kind);
  }
  meta(kind: Kind): string {
    return this.key('meta', kind);
  }
  list(kind: Kind, scope: string): string {
    return this.key('list', kind, scope);
  }
  balance(accountId: string): string {
    return this.key('bal', accountId);
  }
  idem(key: string): string {
    return this.key('idem', key);
  }
  /** The outbox and its index by time, in the order the scripts take them. */
  outbox(): [string, string] {
    return [this.key('outbox'), this.key('outbox-at')];
  }
}
