// The memory store's idempotency entries by key, in claim order: the part of a Map the store uses
// (get, set, delete, keys in insertion order, clear), without a string and a map entry per key.
// A key of two UUIDs, as idempotency-keys.ts packs it (a marker and 32 bytes), is kept as those 32
// bytes and found by open addressing (byte-key-slots.ts, as id-index.ts keeps record ids); any other key
// goes in an ordinary Map. Why: at a million stored operations there are 1.75 million keys, and a
// 33-char string with its map entry was about 100 bytes of each, where 32 bytes and a slot are ~50.
//
// Entries are numbered in insertion order; a deleted one leaves a hole until the entries before
// the first live one are dropped (when a new key is added, so `keys()` may be walked while
// deleting, as the sweep does, but not while adding).
import { ByteKeySlots } from './byte-key-slots';
import { isPackedKey } from './idempotency-keys';

const KEY_BYTES = 32;
/** Holes at the front are dropped once they are this many and half of the entries. */
const COMPACT_AT = 1024;

export class IdempotencyMap<V> {
  /** Each packed key as its 32 bytes, naming its entry (its index in `values`). */
  private readonly packed = new ByteKeySlots(KEY_BYTES);
  /** Each entry's value; undefined once deleted. */
  private values: Array<V | undefined> = [];
  private readonly others = new Map<string, number>();
  private readonly otherKeys = new Map<number, string>();
  /** Entries before this one are all deleted. */
  private first = 0;
  private live = 0;
  private readonly scratch = new Uint8Array(KEY_BYTES);
  /** The packed key whose bytes `scratch` holds. */
  private scratchKey: string | undefined = undefined;
  /**
   * The key looked up last and its entry (-1: none). A request looks its key up five times in a
   * row (its claim gets and sets it, its completion gets it twice and sets it): one search.
   * Forgotten when an entry goes (delete, clear); set, the only caller of compact, names its own.
   */
  private lastKey: string | undefined = undefined;
  private lastEntry = -1;

  get size(): number {
    return this.live;
  }

  get(key: string): V | undefined {
    const entry = this.entryOf(key);
    return entry === undefined ? undefined : this.values[entry];
  }

  /** Sets the value of `key`: in place when it is there (its position stays), else as the last entry. */
  set(key: string, value: V): this {
    if (value === undefined) throw new TypeError('idempotency map: a value is required');
    const entry = this.entryOf(key);
    if (entry !== undefined) {
      this.values[entry] = value;
      return this;
    }
    this.compact();
    const next = this.values.length;
    this.values.push(value);
    this.live++;
    this.lastKey = key;
    this.lastEntry = next;
    if (isPackedKey(key)) {
      // Usually read already, by the look-up just above.
      if (this.scratchKey !== key) this.read(key);
      this.packed.add(next, this.scratch);
    } else {
      const kept = flatCopy(key);
      this.others.set(kept, next);
      this.otherKeys.set(next, kept);
    }
    return this;
  }

  delete(key: string): boolean {
    this.lastKey = undefined;
    let entry: number | undefined;
    if (isPackedKey(key)) {
      this.read(key);
      const found = this.packed.remove(this.scratch);
      if (found < 0) return false;
      entry = found;
    } else {
      entry = this.others.get(key);
      if (entry === undefined) return false;
      this.others.delete(key);
      this.otherKeys.delete(entry);
    }
    this.values[entry] = undefined;
    this.live--;
    while (this.first < this.values.length && this.values[this.first] === undefined) this.first++;
    return true;
  }

  /** The keys in insertion order, as given to `set`. */
  *keys(): IterableIterator<string> {
    for (let entry = this.first; entry < this.values.length; entry++) {
      if (this.values[entry] !== undefined) yield this.keyOf(entry);
    }
  }

  clear(): void {
    this.lastKey = undefined;
    this.packed.clear();
    this.values = [];
    this.others.clear();
    this.otherKeys.clear();
    this.first = this.live = 0;
  }

  private entryOf(key: string): number | undefined {
    if (key !== this.lastKey) {
      this.lastKey = key;
      this.lastEntry = this.search(key);
    }
    return this.lastEntry < 0 ? undefined : this.lastEntry;
  }

  /** The entry of `key`, or -1. */
  private search(key: string): number {
    if (!isPackedKey(key)) return this.others.get(key) ?? -1;
    this.read(key);
    return this.packed.find(this.scratch);
  }

  private keyOf(entry: number): string {
    return this.otherKeys.get(entry) ?? String.fromCharCode(1, ...this.packed.keyOf(entry));
  }

  /** A packed key's 32 bytes into `scratch`. */
  private read(key: string): void {
    for (let i = 0; i < KEY_BYTES; i++) this.scratch[i] = key.charCodeAt(i + 1);
    this.scratchKey = key;
  }

  /** Drops the deleted entries before the first live one, once they are many: entries renumber from 0. */
  private compact(): void {
    const dropped = this.first;
    if (dropped < COMPACT_AT || dropped * 2 < this.values.length) return;
    this.packed.shift(dropped, this.values.length);
    this.values = this.values.slice(dropped);
    const others = [...this.otherKeys].map(([entry, key]) => [entry - dropped, key] as const);
    this.others.clear();
    this.otherKeys.clear();
    for (const [entry, key] of others) {
      this.others.set(key, entry);
      this.otherKeys.set(entry, key);
    }
    this.first = 0;
  }
}

/**
 * A key kept for 24 h as one flat string: a key built by concatenation (`${customer}:${key}`) is
 * a rope of several strings, a few times the size of its text. (A packed key is kept as its bytes.)
 */
function flatCopy(text: string): string {
  return JSON.parse(JSON.stringify(text)) as string;
}
