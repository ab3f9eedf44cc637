// One kind's records in the memory store, kept by columns (id in id-index.ts, insertion key, list, kept form)
// rather than as an object per record: with a million operations the old generation then holds a
// few large arrays, not tens of millions of small objects, which is what made young-generation
// collections and marking slow as the store grew. The kept forms (record-codec.ts) are bytes in
// buffers outside the heap (byte-arena.ts): as a string each they were most of the heap, and on
// Node 20 a young-generation collection still cost more the more of them there were.
//
// Reads decode the kept form; the last RECENT records written, or read a second time, stay
// decoded, so a page listed again is the same frozen objects (the response encoder keeps their
// checked JSON beside them, mock/http/response-encoder.ts) and its JSON goes when they leave
// this window. A record read once is handed out without joining the window: see READ_ONCE.
import { LRUCache } from 'lru-cache';
import { answerDelta, answerFrom, type AnswerDelta } from './answer-delta';
import { deepFreeze } from './freeze';
import { IdIndex } from './id-index';
import { KeptForms } from './kept-forms';
import { KeptJson } from './kept-json';
import type { Hidden, RecordCodec, RecordOwner } from './record-codec';
import { ReadOnceRows } from './read-once-rows';
import { PLACE, placeAt, placeRecord, type MarkTable } from './record-marks';
import { appendRow, lowerBound, removeRow } from './sorted-index';
import { withRoom } from './typed-room';

/** A linked answer that is the record as it is now (no difference to keep). */
const SAME = '';

/** Decoded records kept at hand per kind: a few pages of many lists, a bounded memory. */
const RECENT = 4096;

/**
 * Rows read once lately, kept as numbers only: a row read again while it is among them joins
 * the decoded window (2Q's admission, Johnson and Shasha 1994). Why: in a large store read at
 * random positions (a page anywhere in a million operations) almost no record is read twice
 * while in the window, yet every record in it outlived the young generation: each
 * young-generation collection copied the last thousand records read, with their JSON, and
 * promoted them to die in the old generation. Measured at 100k operations, those collections
 * took a fifth of the time of such pages. A record read once now dies young; a record read
 * again soon (the newest page, a small store's pages) is kept decoded from its second read on.
 */
const READ_ONCE = RECENT;

/** Numbers per row in the table's state (its version, then its marks and HELD). */
const STATE = 2;
/** The marks' bits (record-marks.ts: eight keys per table). */
const MARK_BITS = 0xff;
/** A row whose record is in the decoded window. */
const HELD = 0x100;

// The decoded window is lru-cache's (a linked list over slots), not a Map or Set that lets its
// first entry go: V8 leaves a deleted entry of a Map or Set in place until it rebuilds the table,
// and iteration steps over each, so taking the oldest after thousands of deletions at the front
// scanned thousands of holes: 2.2 µs per row read once in a large store (a fifth of decoding an
// operation), against 0.24 µs with lru-cache (measured, 4,096 rows). The rows read once are a
// ring of row numbers (read-once-rows.ts): first in, first out, and cheaper still.

/**
 * A check the caller wants a record's row marked with (record-marks.ts) as it is written, when the
 * record passes it: the mark it would otherwise put on the record the first time it listed it.
 * Why: a page of records listed for the first time (a random page of a million operations) was
 * checked record by record as it was sent; checked when written, the page is sent as it is kept
 * (sendAt). A record that does not pass gets no mark, and is checked when sent as before.
 */
export interface WriteCheck {
  /** The mark's key (the response encoder's check function). */
  key: object;
  passes(record: unknown): boolean;
}

/**
 * Whether `record` passes `check`. A check that throws marks nothing: the write (done by then)
 * stands, and whoever runs the check when the record is listed meets the same failure.
 */
function passes(check: WriteCheck, record: unknown): boolean {
  try {
    return check.passes(record);
  } catch {
    return false;
  }
}

/** One list (a scope) of a table, in key order, as a page walks it (slice.ts). */
export interface ListView {
  size: number;
  rowAt(position: number): number;
  keyAt(position: number): number;
  /** First position whose key is >= key. */
  lowerBound(key: number): number;
}

export interface TableRow {
  id: string;
  scope: string;
  key: number;
  record: unknown;
}

export class RecordTable implements MarkTable, RecordOwner {
  private readonly rowOf = new IdIndex();
  private readonly keys: number[] = [];
  /** The scope number of each row; -1 for a free row. */
  private readonly lists: number[] = [];
  /** Each row's record in the codec's form, outside the heap (kept-forms.ts). */
  private readonly forms: KeptForms;
  /**
   * Per row, at STATE × row: how many times its record was written (what a handed-out record's
   * marks are checked against, record-marks.ts), then its marks (a bit per key, cleared when the
   * record changes) with HELD while it is in the decoded window. Side by side in one array: a
   * record listed for the first time from a large store has all three read (whether it is held,
   * its version for its place, its marks for the response check), and each array of its own was
   * a cache miss of its own at a random row.
   */
  private state = new Uint32Array(STATE * 64);
  private readonly free: number[] = [];
  /** Scope (a customer, an operation for its timeline, a subscription) → its number; like ids, mostly UUIDs. */
  private readonly scopeOf = new IdIndex();
  /** Each scope's rows in key order. */
  private readonly scopeRows: number[][] = [];
  /**
   * The records kept decoded (RECENT), least recently used let go first; a row's HELD flag says
   * whether it is here, so a row that is not (most rows of a large store) costs no look-up.
   */
  private readonly recent = new LRUCache<number, object>({
    max: RECENT,
    // Also called when a row's record is replaced ('set'): `remember` then sets HELD again.
    dispose: (_record, row) => {
      this.state[STATE * row + 1]! &= ~HELD;
    },
  });
  /** Rows read once and not kept decoded since (READ_ONCE), oldest let go first: row numbers only. */
  private readonly readOnce = new ReadOnceRows(READ_ONCE);
  private readonly markBits = new Map<object, number>();
  /** What the codec puts on each record it decodes for this table (decodeAt): one object, refilled. */
  private readonly hidden: Hidden = { key: PLACE, value: undefined };
  /**
   * Rows an idempotency answer shows (memory-store.ts): how that first answer differs from the
   * record now, in the codec's form (answer-delta.ts); SAME while the record is unchanged.
   */
  private readonly answers: Array<string | object | undefined> = [];
  /** What `warm` read, summed (kept only so that its reads are made). */
  private warmed = 0;

  /**
   * @param writeChecks checks each record written here runs, marking its row when it passes (the
   * store's array for this kind, shared: a check added later applies to later writes).
   */
  constructor(
    private readonly codec: RecordCodec,
    private readonly writeChecks: readonly WriteCheck[] = [],
  ) {
    this.forms = new KeptForms(codec);
  }

  get size(): number {
    return this.rowOf.size;
  }

  has(id: string): boolean {
    return this.rowOf.get(id) !== undefined;
  }

  get(id: string): unknown {
    const row = this.rowOf.get(id);
    return row === undefined ? undefined : this.recordAt(row);
  }

  /** Adds a record whose id is new (the caller checks); it is frozen, and handed out as it is while recent. */
  insert(id: string, scope: string, key: number, record: unknown): void {
    const row = this.free.pop() ?? this.lists.length;
    let list = this.scopeOf.get(scope);
    if (list === undefined) {
      list = this.scopeRows.length;
      this.scopeOf.set(scope, list);
      this.scopeRows.push([]);
    }
    this.rowOf.set(id, row);
    this.keys[row] = key;
    this.lists[row] = list;
    this.keep(row, record, id, scope);
    this.scopeRows[list] = appendRow(this.scopeRows[list]!, this.keys, row);
  }

  /** Replaces the record of an existing id (false when there is none); its place in its list stays. */
  replace(id: string, record: unknown): boolean {
    const row = this.rowOf.get(id);
    if (row === undefined) return false;
    // The answer that showed this record is worked out before the record changes, then kept as
    // its difference from the new one.
    const answer = this.answers[row] === undefined ? undefined : this.answerAt(row);
    const kept = this.keep(row, record, id, this.rowScope(row));
    if (answer !== undefined) this.answers[row] = this.deltaForm(answerDelta(answer, kept as object));
    return true;
  }

  /**
   * Links an idempotency answer to the row it shows, while the two are the same: true when linked
   * (one answer per row; a second one showing the same record is kept whole by the caller).
   */
  linkAnswer(row: number): boolean {
    const list = this.lists[row];
    if (list === undefined || list < 0 || this.answers[row] !== undefined) return false;
    this.answers[row] = SAME;
    return true;
  }

  /**
   * The first answer linked to the record at `row` inserted under `key`, as it was sent; undefined
   * when none is (insertion keys are unique: a row reused after a removal holds another key).
   */
  answerOf(row: number, key: number): object | undefined {
    return this.isLinked(row, key) ? this.answerAt(row) : undefined;
  }

  /** The answer linked to that record expired: its row no longer keeps the difference. */
  unlinkAnswer(row: number, key: number): void {
    if (this.isLinked(row, key)) this.answers[row] = undefined;
  }

  private isLinked(row: number, key: number): boolean {
    return (this.lists[row] ?? -1) >= 0 && this.keys[row] === key && this.answers[row] !== undefined;
  }

  /** The insertion key of a live row (a record handed out from it: record-marks.ts). */
  keyAt(row: number): number {
    return this.keys[row]!;
  }

  /**
   * Removes the record; answers the idempotency answer linked to it, for the caller to keep whole,
   * with the record's insertion key (undefined when there was no answer or no record).
   */
  remove(id: string): { answer: object; key: number } | undefined {
    const row = this.rowOf.get(id);
    if (row === undefined) return undefined;
    const answer = this.answers[row] === undefined ? undefined : this.answerAt(row);
    this.answers[row] = undefined;
    removeRow(this.scopeRows[this.lists[row]!]!, this.keys, row);
    this.rowOf.delete(id);
    this.recent.delete(row);
    this.readOnce.delete(row);
    this.lists[row] = -1;
    this.forms.remove(row);
    // An object handed out before is no longer this row's record: its marks and place go.
    this.state[STATE * row]!++;
    this.state[STATE * row + 1] = 0;
    this.free.push(row);
    return answer === undefined ? undefined : { answer, key: this.keys[row]! };
  }

  /** The rows of a scope in key order (empty when the scope has none). */
  list(scope: string): ListView | undefined {
    const list = this.scopeOf.get(scope);
    if (list === undefined) return undefined;
    const rows = this.scopeRows[list]!;
    const keys = this.keys;
    return {
      size: rows.length,
      rowAt: (position) => rows[position]!,
      keyAt: (position) => keys[rows[position]!]!,
      lowerBound: (key) => lowerBound(rows, keys, key),
    };
  }

  recordAt(row: number): unknown {
    // A read makes it the most recently used.
    const recent = this.heldAt(row);
    if (recent !== undefined) return recent;
    // Read again while among the rows read once: it joins the window.
    const held = this.readOnce.delete(row);
    const record = this.decodeAt(row, held);
    if (held) {
      this.remember(row, record);
    } else {
      this.readOnce.add(row);
    }
    return record;
  }

  /**
   * `recordAt` for a record the caller only sends: one read once (not in either window) comes as
   * its JSON, written from the kept form without decoding it (kept-json.ts). The windows decide
   * as for `recordAt`: a record read a second time while among the rows read once is decoded and
   * joins the decoded window, where its JSON is kept beside it by the encoder.
   */
  sendAt(row: number): unknown {
    const recent = this.heldAt(row);
    if (recent !== undefined) return recent;
    if (this.readOnce.has(row)) return this.recordAt(row);
    const json = this.forms.json(row, this, row);
    // A value the codec kept whole is the object itself, handed out as recordAt does.
    if (json === undefined) return this.recordAt(row);
    this.readOnce.add(row);
    return new KeptJson(json, placeAt(this, row, this.state[STATE * row]!, false));
  }

  /** The row's record from the decoded window (a read: made the most recently used), when it is there. */
  private heldAt(row: number): object | undefined {
    return (this.state[STATE * row + 1]! & HELD) === 0 ? undefined : this.recent.get(row);
  }

  /**
   * Reads, for each of `rows`, what listing it will read (sendAt, recordAt): its state, key, list, place
   * among the rows read once, id and kept form. Why: in a large store a page's rows stand at
   * random places in memory, and each of those reads was a cache miss taken between the long
   * walks that write each record's JSON, one after the other; read here in one loop, where no
   * read waits for another, the processor fetches them together. A row in the decoded window is
   * handed out as it is, so only its state is read. The sum is kept so that the reads are not left
   * out as unused.
   */
  warm(rows: readonly number[]): void {
    let sum = 0;
    for (let i = 0; i < rows.length; i++) {
      const row = rows[i]!;
      const state = this.state[STATE * row + 1]!;
      if ((state & HELD) !== 0) continue;
      sum += state + this.keys[row]! + this.lists[row]!;
      sum += this.readOnce.warm(row) + this.rowOf.warm(row) + this.forms.warm(row);
    }
    this.warmed = sum;
  }

  /**
   * A record for the table's own use (an answer rebuilt from it, a snapshot's rows): the same
   * object a read would give, but not a read that decides what stays decoded (READ_ONCE).
   */
  private current(row: number): unknown {
    // peek: not a read, so not made the most recently used.
    return this.recent.peek(row) ?? this.decodeAt(row, false);
  }

  /** The row's record decoded, with its place on it (record-marks.ts): every record object handed out is placed. */
  private decodeAt(row: number, held: boolean): unknown {
    const place = placeAt(this, row, this.state[STATE * row]!, held);
    this.hidden.value = place;
    const record = this.forms.get(row, this, row, this.hidden);
    this.hidden.value = undefined;
    // A record the codec could not keep is the same frozen object each time, without the property.
    if (typeof record === 'object' && record !== null && (record as { [PLACE]?: unknown })[PLACE] !== place) placeRecord(record, place);
    return record;
  }

  /** Every record with its id, scope and key, in key order (snapshot export). */
  rows(): TableRow[] {
    const out: TableRow[] = [];
    for (let row = 0; row < this.lists.length; row++) {
      const list = this.lists[row]!;
      if (list < 0) continue;
      out.push({ id: this.rowOf.idOf(row), scope: this.scopeOf.idOf(list), key: this.keys[row]!, record: this.current(row) });
    }
    return out.sort((a, b) => a.key - b.key);
  }

  /** The id of a live row (the codec asks it for a record that refers to its own id). */
  rowId(row: number): string {
    return this.rowOf.idOf(row);
  }

  /** The scope of a live row. */
  rowScope(row: number): string {
    return this.scopeOf.idOf(this.lists[row]!);
  }

  /** The row's id (or its scope's) as a UUID's 16 bytes, when it is one (record-codec.ts, RecordOwner). */
  rowUuid(row: number, scope: boolean, into: Uint8Array): boolean {
    return scope ? this.scopeOf.copyUuid(this.lists[row]!, into) : this.rowOf.copyUuid(row, into);
  }

  keptAt(row: number): number {
    return this.state[STATE * row]!;
  }

  bitOf(key: object, assign: boolean): number | undefined {
    let bit = this.markBits.get(key);
    if (bit === undefined && assign && this.markBits.size < 8) this.markBits.set(key, (bit = 1 << this.markBits.size));
    return bit;
  }

  marksAt(row: number): number {
    return (this.state[STATE * row + 1] ?? 0) & MARK_BITS;
  }

  addMark(row: number, bit: number): void {
    this.state = withRoom(this.state, STATE * row + STATE - 1);
    this.state[STATE * row + 1]! |= bit;
  }

  private keep(row: number, record: unknown, id: string, scope: string): unknown {
    const frozen = deepFreeze(record);
    // Text equal to the row's id or scope is kept as a reference to it (record-codec.ts).
    this.forms.put(row, frozen, { id, scope });
    this.state = withRoom(this.state, STATE * row + STATE - 1);
    this.state[STATE * row]!++;
    // Its marks go; whether it is held stays with the window.
    this.state[STATE * row + 1]! &= HELD;
    for (const check of this.writeChecks) {
      const bit = this.bitOf(check.key, true);
      if (bit !== undefined && passes(check, frozen)) this.addMark(row, bit);
    }
    // Written: kept decoded from now on, not waiting for a second read.
    this.readOnce.delete(row);
    this.place(row, frozen);
    this.remember(row, frozen);
    return frozen;
  }

  private answerAt(row: number): object {
    const kept = this.answers[row];
    const delta = kept === SAME ? undefined : ((typeof kept === 'string' ? this.codec.decode(kept) : kept) as AnswerDelta);
    return answerFrom(this.current(row) as object, delta);
  }

  private deltaForm(delta: AnswerDelta | undefined): string | object {
    if (delta === undefined) return SAME;
    return this.codec.encode(delta) ?? deepFreeze(delta);
  }

  /** Keeps a record at hand (it was placed as such when written or decoded). */
  private remember(row: number, record: unknown): void {
    // The most recently used now; past RECENT the least recently used goes.
    this.recent.set(row, record as object);
    this.state[STATE * row + 1]! |= HELD;
  }

  /** A record written is placed as kept at hand: its marks follow its kept form (record-marks.ts). */
  private place(row: number, record: unknown): void {
    if (typeof record === 'object' && record !== null) placeRecord(record, placeAt(this, row, this.state[STATE * row]!, true));
  }
}
