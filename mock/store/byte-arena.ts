// Byte strings by number (a table row, an idempotency entry), kept in a few large buffers outside
// the JavaScript heap rather than as a string each. Why: on Node 20 a young-generation collection
// costs about 5 ms more per GB of strings in the old generation, and almost nothing for the same
// bytes in ArrayBuffers (measured alone: 0.05 ms empty, 4.7 ms with 900 MB of strings, 0.08 ms
// with 900 MB in ArrayBuffers). With a million stored operations the codec's kept forms
// (record-codec.ts) were most of the heap, and these collections a tenth of the time of a page.
//
// Each number's bytes are appended to the active segment; where they are is three numbers side by
// side in one typed array (segment, start, length), so that reading a number's bytes touches one
// place in memory, not three: a random page of a million records reads ten numbers nowhere near
// each other, and each array was a cache miss of its own.
// A new segment is an eighth of the live bytes (at least 16 KiB, at most 4 MiB), so a kind with a
// few records holds a few KB however often they are rewritten, and a large one few buffers. Bytes
// replaced or removed are garbage in their segment until more than an eighth of what it used is:
// its live bytes then move to the active segment and the segment is let go (compaction). Why an
// eighth: records written twice (an operation, then its settlement) leave each segment nearly
// half garbage; a threshold of a half let 42% of the operations' bytes be garbage at a million,
// a quarter 18%. A compaction costs a pass over the numbers' segments (about a millisecond at a
// million) and a copy of the segment's live bytes; bytes that live long are copied several times
// over (about five, in a simulation of entries expiring oldest first), a memcpy each.

import { withRoom } from './typed-room';

/** Bytes per segment at most: large enough that a million records are a few hundred buffers. */
const SEGMENT = 4 << 20;
/** The least segment size. */
const FIRST_SEGMENT = 16 << 10;
/** No segment. */
const NONE = -1;
/** Numbers per span: segment, start, length. */
const SPAN = 3;

export class ByteArena {
  private segments: Array<Buffer | undefined> = [];
  /** Bytes appended to each segment, and those still live there. */
  private used: number[] = [];
  private live: number[] = [];
  private active = NONE;
  /** Per number, at SPAN × n: its segment (NONE when it has no bytes), start and length. */
  private spans = new Int32Array(SPAN * 64).fill(NONE);

  /** Live bytes in all segments. */
  private liveBytes = 0;

  constructor(private readonly segmentBytes = SEGMENT) {}

  has(n: number): boolean {
    return SPAN * n < this.spans.length && this.spans[SPAN * n]! !== NONE;
  }

  /** Keeps `length` bytes of `bytes` under `n`, in place of what it held. */
  put(n: number, bytes: Uint8Array, length: number): void {
    this.remove(n);
    this.room(n);
    this.place(n, bytes, 0, length);
  }

  remove(n: number): void {
    if (!this.has(n)) return;
    const segment = this.spans[SPAN * n]!;
    const length = this.spans[SPAN * n + 2]!;
    this.spans[SPAN * n] = NONE;
    this.live[segment]! -= length;
    this.liveBytes -= length;
    if (segment !== this.active && this.mostlyGarbage(segment)) this.compact(segment);
  }

  /** The segment holding `n`'s bytes (from `start(n)`, `length(n)` of them); `n` must have bytes. */
  buffer(n: number): Buffer {
    return this.segments[this.spans[SPAN * n]!]!;
  }

  /**
   * Reads `n`'s place and a byte of each 64 of its bytes, answering their sum: what reading its
   * bytes will need, read ahead (record-table.ts, warm). Nothing when `n` has no bytes.
   */
  warm(n: number): number {
    if (!this.has(n)) return 0;
    const bytes = this.segments[this.spans[SPAN * n]!]!;
    const start = this.spans[SPAN * n + 1]!;
    const end = start + this.spans[SPAN * n + 2]!;
    let sum = 0;
    for (let at = start; at < end; at += 64) sum += bytes[at]!;
    return sum;
  }

  start(n: number): number {
    return this.spans[SPAN * n + 1]!;
  }

  length(n: number): number {
    return this.spans[SPAN * n + 2]!;
  }

  clear(): void {
    this.segments = [];
    this.used = [];
    this.live = [];
    this.active = NONE;
    this.liveBytes = 0;
    this.spans = new Int32Array(SPAN * 64).fill(NONE);
  }

  /** Bytes held in segments, live or not (what tests bound). */
  get segmentBytesHeld(): number {
    let total = 0;
    for (const segment of this.segments) total += segment?.length ?? 0;
    return total;
  }

  private place(n: number, from: Uint8Array, start: number, length: number): void {
    const segment = this.segmentFor(length);
    const at = this.used[segment]!;
    this.segments[segment]!.set(from.subarray(start, start + length), at);
    this.used[segment] = at + length;
    this.live[segment]! += length;
    this.liveBytes += length;
    this.spans[SPAN * n] = segment;
    this.spans[SPAN * n + 1] = at;
    this.spans[SPAN * n + 2] = length;
  }

  /** The active segment once `length` bytes fit in it (opening new ones as needed). */
  private segmentFor(length: number): number {
    while (this.active === NONE || this.used[this.active]! + length > this.segments[this.active]!.length) this.open(length);
    return this.active;
  }

  /**
   * Opens a segment (as large as `length` needs) as the active one. The one it takes over from is
   * compacted at once if it is past the threshold: a record written and soon replaced (an
   * operation, then its settlement) leaves its garbage in the active segment, where no removal
   * later looks.
   */
  private open(length: number): void {
    const retired = this.active;
    let segment = this.segments.indexOf(undefined);
    if (segment < 0) segment = this.segments.length;
    let size = Math.min(FIRST_SEGMENT, this.segmentBytes);
    while (size < this.segmentBytes && size * 8 < this.liveBytes) size *= 2;
    // allocUnsafeSlow: a buffer of its own, not a slice of Node's shared pool.
    this.segments[segment] = Buffer.allocUnsafeSlow(Math.max(size, length));
    this.used[segment] = 0;
    this.live[segment] = 0;
    this.active = segment;
    if (retired !== NONE && this.mostlyGarbage(retired)) this.compact(retired);
  }

  /** More than an eighth of what the segment used is garbage (or it holds nothing live). */
  private mostlyGarbage(segment: number): boolean {
    return this.live[segment]! * 8 < this.used[segment]! * 7 || this.live[segment] === 0;
  }

  /** Moves the live bytes of `segment` to the active one and lets it go. */
  private compact(segment: number): void {
    const old = this.segments[segment]!;
    const moving = this.live[segment]!;
    // It stays in `segments` while its bytes move (it is not the active one, so nothing lands in
    // it), and its place is free for a new segment only after.
    const spans = this.spans;
    for (let i = 0; i < spans.length; i += SPAN) {
      if (spans[i] === segment) this.place(i / SPAN, old, spans[i + 1]!, spans[i + 2]!);
    }
    this.segments[segment] = undefined;
    this.used[segment] = this.live[segment] = 0;
    // Counted again where they went.
    this.liveBytes -= moving;
  }

  private room(n: number): void {
    this.spans = withRoom(this.spans, SPAN * n + SPAN - 1, NONE);
  }
}
