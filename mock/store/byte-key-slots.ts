// Fixed-width byte keys (a UUID's 16 bytes, two UUIDs' 32) found by open addressing. Each key is
// kept in one buffer at the place of the number it names (a table row, an idempotency entry), and
// a typed array of slots holds number + 1. A million keys are then two typed arrays, not a million
// strings and map entries (about 100 bytes each). Used by id-index.ts and idempotency-map.ts.

const EMPTY = 0;
/** A removed key: probing goes on past it. */
const GONE = -1;

export class ByteKeySlots {
  /** The key of number n at n * width; numbers without a key here leave their bytes unused. */
  private bytes: Uint8Array;
  /** Open addressing: number + 1, EMPTY or GONE. */
  private slots = new Int32Array(128);
  /** Slots not EMPTY (live and GONE): the table grows before probes get long. */
  private filled = 0;
  private live = 0;

  constructor(private readonly width: number) {
    this.bytes = new Uint8Array(width * 64);
  }

  /** The number `key` names, or -1. */
  find(key: Uint8Array): number {
    const slot = this.slotOf(key);
    return slot < 0 ? -1 : (this.slots[slot] as number) - 1;
  }

  /** Names `n` by `key`; neither may be named here already. */
  add(n: number, key: Uint8Array): void {
    // At half full (removed keys count until a rehash drops them), twice the room, or the same
    // room when most of what is filled was removed.
    if ((this.filled + 1) * 2 > this.slots.length)
      this.rehash(this.live * 4 > this.slots.length ? this.slots.length * 2 : this.slots.length);
    const at = n * this.width;
    while (at + this.width > this.bytes.length) {
      const bigger = new Uint8Array(this.bytes.length * 2);
      bigger.set(this.bytes);
      this.bytes = bigger;
    }
    this.bytes.set(key, at);
    this.place(n);
    this.live++;
  }

  /** Forgets `key`; answers the number it named, or -1. */
  remove(key: Uint8Array): number {
    const slot = this.slotOf(key);
    if (slot < 0) return -1;
    const n = (this.slots[slot] as number) - 1;
    this.slots[slot] = GONE;
    this.live--;
    return n;
  }

  /** Copies the key of `n` into `into` (no view allocated: the record codec's JSON asks for one per record). */
  copyKey(n: number, into: Uint8Array): void {
    const bytes = this.bytes;
    const at = n * this.width;
    for (let i = 0; i < this.width; i++) into[i] = bytes[at + i]!;
  }

  /** Reads `n`'s first byte (record-table.ts, warm: the key is then at hand). */
  warm(n: number): number {
    return this.bytes[n * this.width] ?? 0;
  }

  /** The key of `n` (a view: copy it to keep it). */
  keyOf(n: number): Uint8Array {
    return this.bytes.subarray(n * this.width, (n + 1) * this.width);
  }

  /** Numbers below `by` name nothing any more: every key moves down by `by` (its number too), up to number `end`. */
  shift(by: number, end: number): void {
    this.bytes.copyWithin(0, by * this.width, end * this.width);
    this.rehash(this.slots.length, by);
  }

  clear(): void {
    this.bytes = new Uint8Array(this.width * 64);
    this.slots = new Int32Array(128);
    this.filled = this.live = 0;
  }

  private hash(bytes: Uint8Array, offset: number): number {
    // FNV-1a over the key's bytes: keys need not be random to spread.
    let h = 0x811c9dc5;
    for (let i = 0; i < this.width; i++) h = Math.imul(h ^ (bytes[offset + i] as number), 0x01000193);
    return h >>> 0;
  }

  private slotOf(key: Uint8Array): number {
    const mask = this.slots.length - 1;
    for (let slot = this.hash(key, 0) & mask; ; slot = (slot + 1) & mask) {
      const value = this.slots[slot] as number;
      if (value === EMPTY) return -1;
      if (value !== GONE && this.same(key, value - 1)) return slot;
    }
  }

  private same(key: Uint8Array, n: number): boolean {
    const at = n * this.width;
    for (let i = 0; i < this.width; i++) if (this.bytes[at + i] !== key[i]) return false;
    return true;
  }

  /** Puts `n`, its key in place, in the first free slot of its probe (a new key: a GONE slot will do). */
  private place(n: number): void {
    const mask = this.slots.length - 1;
    let slot = this.hash(this.bytes, n * this.width) & mask;
    while ((this.slots[slot] as number) > 0) slot = (slot + 1) & mask;
    if (this.slots[slot] === EMPTY) this.filled++;
    this.slots[slot] = n + 1;
  }

  /** A new slot table of `size` with every live key, its number lowered by `by`. */
  private rehash(size: number, by = 0): void {
    const old = this.slots;
    this.slots = new Int32Array(size);
    this.filled = 0;
    for (const value of old) if (value > 0) this.place(value - 1 - by);
  }
}
