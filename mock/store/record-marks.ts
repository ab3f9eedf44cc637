// Marks a caller may put on a record the memory store handed out, which last as long as the
// record's kept form does: a record decoded again from an unchanged kept form carries the marks
// of the object it was decoded from before, and a change to the record clears them.
//
// Why: the response encoder checks a listed record against the document once and remembers
// that beside the object (mock/http/response-encoder.ts). The memory store keeps only the
// records written or read again lately decoded (record-table.ts), so in a large store a record listed again is
// a new object, and without a mark it was checked again every time it left that window: about a
// third of what a page of such records cost. The codec is faithful (record-codec.ts): a value
// decoded from the same kept form is equal to the one that passed.
//
// A key is any object the caller chooses (the encoder uses its check function); each table has
// room for eight keys, the first eight it is asked about (a table holds one kind, which only a
// few checks ever see). Records from elsewhere (the Redis store, a value built by a handler)
// have no place here: `hasMark` answers false and `setMark` does nothing.

/** What a table keeps of its marks (record-table.ts implements it). */
export interface MarkTable {
  /** The version of a row's kept form now (a count of its writes): a mark holds while it is still the one decoded. */
  keptAt(row: number): number;
  /** The insertion key of a row's record: a row reused by another record holds another key. */
  keyAt(row: number): number;
  /** The mark bit of `key` in this table, or undefined when its eight bits are taken. */
  bitOf(key: object, assign: boolean): number | undefined;
  marksAt(row: number): number;
  addMark(row: number, bit: number): void;
}

export interface Place {
  table: MarkTable;
  row: number;
  /**
   * The record's insertion key as well as its kept form's version: a row reused by another record
   * (after a removal) counts its writes on from where the first one left them.
   */
  key: number;
  /** The kept form's version when this record was handed out (MarkTable.keptAt). */
  kept: number;
  /**
   * Whether the table let this object into its decoded window (written, or read a second time):
   * false for a record read once, handed out and let go, which the table will not hand out again
   * (it decodes a new object next time). A value the codec cannot keep, handed out as the same
   * object each time, is placed again on each read, with this flag as that read decided.
   */
  held: boolean;
}

/**
 * Where a record the table decoded is kept: a hidden property the codec puts on it before freezing
 * it (record-codec.ts, Hidden). A record the table was given (a write) is already frozen by then,
 * and its place goes in `places` instead, as does that of a value the codec kept whole. The place
 * holds its table: a decoded object written into another store (an in-process export imported
 * elsewhere) keeps its first table alive as long as it lives.
 */
export const PLACE = Symbol('fos-mock: where the memory store keeps this record');

const places = new WeakMap<object, Place>();

/** The place of a record kept `kept` at `row`, `held` in the table's decoded window or not. */
export function placeAt(table: MarkTable, row: number, kept: number, held: boolean): Place {
  return { table, row, key: table.keyAt(row), kept, held };
}

/** Called by a table for a record object it hands out that was not decoded with its place on it. */
export function placeRecord(record: object, place: Place): void {
  places.set(record, place);
}

/**
 * Where a record the store handed out is kept, while its kept form is still the one it was decoded
 * from or written as (memory-store.ts keeps an idempotency answer that is such a record as a link).
 */
export function handedOutAt(record: unknown): Place | undefined {
  if (typeof record !== 'object' || record === null) return undefined;
  // The place itself, not a copy: the response encoder asks this twice for every record it lists.
  // `places` first: a decoded object gets an entry there only by being written afterwards (back
  // to its row, or into another table or store, whose place then is the newer one).
  const written = places.get(record);
  if (written !== undefined && isLive(written)) return written;
  const decoded = (record as { [PLACE]?: Place })[PLACE];
  return decoded !== undefined && isLive(decoded) ? decoded : undefined;
}

/** `place` while the record kept there is still the one it names (the same version of the same record), else undefined. */
export function liveAt(place: Place): Place | undefined {
  return isLive(place) ? place : undefined;
}

function isLive(place: Place): boolean {
  return place.table.keptAt(place.row) === place.kept && place.table.keyAt(place.row) === place.key;
}

export function hasMark(record: unknown, key: object): boolean {
  return hasMarkAt(handedOutAt(record), key);
}

/** Marks a record the store handed out; false when it has no place to keep the mark (not the store's, changed since, or no bit left). */
export function setMark(record: unknown, key: object): boolean {
  return setMarkAt(handedOutAt(record), key);
}

/** `hasMark` for a record whose place (handedOutAt) the caller has already looked up. */
export function hasMarkAt(place: Place | undefined, key: object): boolean {
  const bit = place?.table.bitOf(key, false);
  return place !== undefined && bit !== undefined && (place.table.marksAt(place.row) & bit) !== 0;
}

/** `setMark` for a record whose place (handedOutAt) the caller has already looked up. */
export function setMarkAt(place: Place | undefined, key: object): boolean {
  const bit = place?.table.bitOf(key, true);
  if (place === undefined || bit === undefined) return false;
  place.table.addMark(place.row, bit);
  return true;
}

/**
 * A record the memory store's table handed out once and keeps nothing of but its form
 * (record-table.ts, READ_ONCE): the table will not hand this object out again, so keeping
 * anything beside it (its JSON) is work for nothing and one more weak entry for the collector.
 */
export function handedOutOnce(record: unknown): boolean {
  return handedOutAt(record)?.held === false;
}
