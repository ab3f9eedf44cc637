// The rows of a record table read once lately (record-table.ts, READ_ONCE: 2Q's admission), as
// row numbers only: a ring of the last `capacity` rows read once, the oldest let go first, and per
// row where in the ring it stands. Why not lru-cache, as before: the window is first in, first out
// (a row joins once, and leaves when it is read again or pushed out), and a page of a large store
// read at random asks it of every record it lists; lru-cache's bookkeeping (a Map, its options,
// its eviction) was about 1.5 µs of each such record in the server's profile, where this is a few
// reads and writes of typed arrays. One difference: a row that leaves early (read again) keeps
// its place in the ring until the ring comes round, so the window is the last `capacity` rows
// that joined, not `capacity` rows still waiting; in a large store read at random almost no row
// leaves early, and in a small one the rows that do are kept decoded anyway.
import { withRoom } from './typed-room';

export class ReadOnceRows {
  /** The rows in the order they joined (-1: a place not taken yet); `next` is the oldest place, taken next. */
  private readonly ring: Int32Array;
  private next = 0;
  /** Per row, its place in the ring + 1; 0 when it is not among them. */
  private placeOf = new Uint16Array(64);

  constructor(capacity: number) {
    // Places + 1 are kept in 16 bits.
    if (!Number.isInteger(capacity) || capacity < 1 || capacity >= 0xffff)
      throw new RangeError(`read-once rows: capacity ${capacity} out of range`);
    this.ring = new Int32Array(capacity).fill(-1);
  }

  has(row: number): boolean {
    return row < this.placeOf.length && this.placeOf[row] !== 0;
  }

  /** Reads the row's place (record-table.ts, warm). */
  warm(row: number): number {
    return this.placeOf[row] ?? 0;
  }

  /** The row joins as the newest (the table adds only a row not among them); the oldest leaves when the ring is full. */
  add(row: number): void {
    const at = this.next;
    const oldest = this.ring[at]!;
    // A row that left (read again) or joined again since holds another place: it stays as it is.
    if (oldest >= 0 && this.placeOf[oldest] === at + 1) this.placeOf[oldest] = 0;
    this.ring[at] = row;
    this.placeOf = withRoom(this.placeOf, row);
    this.placeOf[row] = at + 1;
    this.next = at + 1 === this.ring.length ? 0 : at + 1;
  }

  /** The row leaves; true when it was among them. */
  delete(row: number): boolean {
    if (!this.has(row)) return false;
    this.placeOf[row] = 0;
    return true;
  }
}
