// Values the memory store keeps by a key of its own (idempotency entries, answers linked to a
// removed record) in the codec's form (record-codec.ts), each under a number naming its bytes in
// a byte arena outside the heap (byte-arena.ts): at a million stored operations there are 1.75
// million idempotency entries, which as a string each were a large part of the old generation.
import { ByteArena } from './byte-arena';
import { deepFreeze } from './freeze';
import type { RecordCodec } from './record-codec';

/** A value as kept: a number naming its bytes, or the frozen value when the codec cannot keep it. */
export type Kept = number | object;

export class KeptForms {
  private readonly arena = new ByteArena();
  /** Numbers released, to be named again. */
  private free: number[] = [];
  private count = 0;

  constructor(private readonly codec: RecordCodec) {}

  /** Keeps `value` in place of `previous` (what an earlier `keep` answered for the same key, or undefined). */
  keep(value: object, previous: Kept | undefined): Kept {
    const length = this.codec.encodeBytes(value);
    if (length === undefined) {
      this.release(previous);
      return deepFreeze(value);
    }
    const n = typeof previous === 'number' ? previous : (this.free.pop() ?? this.count++);
    this.arena.put(n, this.codec.bytes, length);
    return n;
  }

  /** The value kept as `kept` (a new frozen object each time for a number). */
  read(kept: Kept): unknown {
    if (typeof kept !== 'number') return kept;
    const arena = this.arena;
    return this.codec.decodeBytes(arena.buffer(kept), arena.start(kept), arena.length(kept));
  }

  /** The bytes `kept` takes here (an object: the length of its JSON, as an estimate for tests). */
  sizeOf(kept: Kept): number {
    return typeof kept === 'number' ? this.arena.length(kept) : JSON.stringify(kept).length;
  }

  /** Lets go of what `kept` names (nothing to do for an object or undefined). */
  release(kept: Kept | undefined): void {
    if (typeof kept !== 'number') return;
    this.arena.remove(kept);
    this.free.push(kept);
  }

  clear(): void {
    this.arena.clear();
    this.free = [];
    this.count = 0;
  }
}
