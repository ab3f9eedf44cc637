// Values the memory store keeps in the codec's form (record-codec.ts), each under a number naming
// its bytes in a byte arena outside the heap (byte-arena.ts): a table's records by row
// (record-table.ts), and the store's idempotency entries and removed records' answers under
// numbers of this instance's own (memory-store.ts). At a million stored operations those were
// about three million strings, most of the old generation. A value the codec cannot keep (a Date,
// a class instance) is kept as the frozen object itself.
import { ByteArena } from './byte-arena';
import { deepFreeze } from './freeze';
import type { Hidden, RecordCodec, RecordOwner } from './record-codec';

export class KeptForms {
  private readonly arena = new ByteArena();
  private readonly objects = new Map<number, object>();
  /** Numbers `add` gave that were released, to be given again. */
  private free: number[] = [];
  private count = 0;

  constructor(private readonly codec: RecordCodec) {}

  /**
   * Keeps `value` under `n`, in place of what `n` held. `n` is the caller's own (a table row), or
   * one `add` gave: an instance is numbered one way or the other, never both. With `own` (the id
   * and scope of the row it is kept in), text equal to either is kept as a reference to the row.
   */
  put(n: number, value: unknown, own?: { id: string; scope: string }): void {
    const length = this.codec.encodeBytes(value, own);
    if (length === undefined) {
      this.arena.remove(n);
      this.objects.set(n, deepFreeze(value) as object);
    } else {
      this.objects.delete(n);
      this.arena.put(n, this.codec.bytes, length);
    }
  }

  /**
   * The value kept under `n` (decoded afresh and deep-frozen, with `hidden` on it when it is an
   * object; a value kept whole is the same object each time, without it); `owner` and `row` name
   * the row it was put for.
   */
  get(n: number, owner?: RecordOwner, row = -1, hidden?: Hidden): unknown {
    const arena = this.arena;
    if (!arena.has(n)) return this.objects.get(n);
    return this.codec.decodeBytes(arena.buffer(n), arena.start(n), arena.length(n), owner, row, hidden);
  }

  /**
   * JSON.stringify of the value kept under `n`, written from its kept form without decoding it
   * (record-codec.ts, json); undefined for a value kept whole (the caller has the object).
   */
  json(n: number, owner?: RecordOwner, row = -1): string | undefined {
    const arena = this.arena;
    if (!arena.has(n)) return undefined;
    return this.codec.jsonBytes(arena.buffer(n), arena.start(n), arena.length(n), owner, row);
  }

  /** Reads ahead what reading `n` will (byte-arena.ts, warm). */
  warm(n: number): number {
    return this.arena.warm(n);
  }

  remove(n: number): void {
    this.arena.remove(n);
    this.objects.delete(n);
  }

  /** Keeps `value` under a number of this instance's own, and answers it. */
  add(value: unknown): number {
    const n = this.free.pop() ?? this.count++;
    this.put(n, value);
    return n;
  }

  /** Lets go of a number `add` gave, and of what it holds. */
  release(n: number): void {
    this.remove(n);
    this.free.push(n);
  }

  /** The bytes `n` takes here (an object kept whole: the length of its JSON, as an estimate for tests). */
  sizeOf(n: number): number {
    return this.arena.has(n) ? this.arena.length(n) : JSON.stringify(this.objects.get(n)).length;
  }

  clear(): void {
    this.arena.clear();
    this.objects.clear();
    this.free = [];
    this.count = 0;
  }
}
