// The memory store's idempotency entries by key, in claim order: the part of a Map the store uses
// (get, set, delete, keys in insertion order, clear), without a string and a map entry per key.
// A key of two UUIDs, as idempotency-keys.ts packs it (a marker and 32 bytes), is kept as those 32
// bytes in one buffer and found by open addressing, as id-index.ts keeps record ids; any other key
// goes in an ordinary Map. Why: at a million stored operations there are 1.75 million keys, and a
// 33-char string with its map entry was about 100 bytes of each, where 32 bytes and a slot are ~50.
//
// Entries are numbered in insertion order; a deleted one leaves a hole until the entries before
// the first live one are dropped (when a new key is added, so `keys()` may be walked while
// deleting, as the sweep does, but not while adding).
import { isPackedKey } from './idempotency-keys';

const EMPTY = 0;
const GONE = -1;
const KEY_BYTES = 32;
/** Holes at the front are dropped once they are this many and half of the entries. */
const COMPACT_AT = 1024;

export class IdempotencyMap<V> {
  /** The 32 bytes of a packed key of entry e (its index in `values`) at e * 32. */
  private bytes = new Uint8Array(KEY_BYTES * 64);
  /** Each entry's value; undefined once deleted. */
  private values: Array<V | undefined> = [];
  /** Open addressing over packed keys: entry + 1, EMPTY, or GONE (deleted: probing goes on past it). */
  private slots = new Int32Array(128);
  /** Slots not EMPTY (live and GONE): the table grows before probes get long. */
  private filled = 0;
  private readonly others = new Map<string, number>();
  private readonly otherKeys = new Map<number, string>();
  /** Entries before this one are all deleted. */
  private first = 0;
  private live = 0;
  private readonly scratch = new Uint8Array(KEY_BYTES);

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
    const packed = isPackedKey(key);
    // Grown before the new entry is added: a rehash places the entries whose bytes are in place.
    if (packed && (this.filled + 1) * 2 > this.slots.length)
      this.rehash(this.live * 4 > this.slots.length ? this.slots.length * 2 : this.slots.length);
    const next = this.values.length;
    this.values.push(value);
    this.live++;
    if (!packed) {
      this.others.set(key, next);
      this.otherKeys.set(next, key);
      return this;
    }
    const at = next * KEY_BYTES;
    while (at + KEY_BYTES > this.bytes.length) {
      const bigger = new Uint8Array(this.bytes.length * 2);
      bigger.set(this.bytes);
      this.bytes = bigger;
    }
    this.bytes.set(this.scratch, at);
    this.place(next);
    return this;
  }

  delete(key: string): boolean {
    let entry: number | undefined;
    if (isPackedKey(key)) {
      this.read(key);
      const slot = this.find();
      if (slot < 0) return false;
      entry = (this.slots[slot] as number) - 1;
      this.slots[slot] = GONE;
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
    this.bytes = new Uint8Array(KEY_BYTES * 64);
    this.values = [];
    this.slots = new Int32Array(128);
    this.filled = 0;
    this.others.clear();
    this.otherKeys.clear();
    this.first = this.live = 0;
  }

  private entryOf(key: string): number | undefined {
    if (!isPackedKey(key)) return this.others.get(key);
    this.read(key);
    const slot = this.find();
    return slot < 0 ? undefined : (this.slots[slot] as number) - 1;
  }

  private keyOf(entry: number): string {
    const other = this.otherKeys.get(entry);
    if (other !== undefined) return other;
    const at = entry * KEY_BYTES;
    return String.fromCharCode(1, ...this.bytes.subarray(at, at + KEY_BYTES));
  }

  /** A packed key's 32 bytes into `scratch`. */
  private read(key: string): void {
    for (let i = 0; i < KEY_BYTES; i++) this.scratch[i] = key.charCodeAt(i + 1);
  }

  private hash(bytes: Uint8Array, offset: number): number {
    // FNV-1a over the 32 bytes: keys need not be random to spread.
    let h = 0x811c9dc5;
    for (let i = 0; i < KEY_BYTES; i++) h = Math.imul(h ^ (bytes[offset + i] as number), 0x01000193);
    return h >>> 0;
  }

  /** The slot holding the key in `scratch`, or -1. */
  private find(): number {
    const mask = this.slots.length - 1;
    for (let slot = this.hash(this.scratch, 0) & mask; ; slot = (slot + 1) & mask) {
      const value = this.slots[slot] as number;
      if (value === EMPTY) return -1;
      if (value !== GONE && this.same(value - 1)) return slot;
    }
  }

  private same(entry: number): boolean {
    const at = entry * KEY_BYTES;
    for (let i = 0; i < KEY_BYTES; i++) if (this.bytes[at + i] !== this.scratch[i]) return false;
    return true;
  }

  /** Puts a packed entry (its bytes in place) in the first free slot of its probe. */
  private place(entry: number): void {
    const mask = this.slots.length - 1;
    let slot = this.hash(this.bytes, entry * KEY_BYTES) & mask;
    while ((this.slots[slot] as number) > 0) slot = (slot + 1) & mask;
    if (this.slots[slot] === EMPTY) this.filled++;
    this.slots[slot] = entry + 1;
  }

  private rehash(size: number): void {
    this.slots = new Int32Array(size);
    this.filled = 0;
    for (let entry = 0; entry < this.values.length; entry++) {
      if (this.values[entry] !== undefined && !this.otherKeys.has(entry)) this.place(entry);
    }
  }

  /** Drops the deleted entries before the first live one, once they are many: entries renumber from 0. */
  private compact(): void {
    const dropped = this.first;
    if (dropped < COMPACT_AT || dropped * 2 < this.values.length) return;
    this.values = this.values.slice(dropped);
    this.bytes.copyWithin(0, dropped * KEY_BYTES, (dropped + this.values.length) * KEY_BYTES);
    const others = [...this.otherKeys].map(([entry, key]) => [entry - this.first, key] as const);
    this.others.clear();
    this.otherKeys.clear();
    for (const [entry, key] of others) {
      this.others.set(key, entry);
      this.otherKeys.set(entry, key);
    }
    this.first = 0;
    this.rehash(this.slots.length);
  }
}
