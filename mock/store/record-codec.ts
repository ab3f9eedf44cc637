// The form the memory store keeps a record in: one string per record (each char a byte), not a
// tree of objects. A million stored operations as object trees were tens of millions of small
// objects in the old generation (about 6.7 KB per operation with its quote, timeline and
// idempotency answers); V8's young-generation collections and its marking then cost with their
// number. Here object keys and key sets ("shapes") and short text values (assets, statuses, event
// types, names) are written once in a dictionary and named by number, canonical UUIDs take 16
// bytes, ISO-8601 instants 6 (2 when the record already holds that instant), SHA-256 digests in base64url
// (idempotency fingerprints) their 32 bytes. Decoding gives back an equal value (same keys in the same order,
// same strings and numbers, `undefined` kept), deep-frozen.
//
// A record kept in a table row (record-table.ts) is encoded and decoded knowing its row's id and
// scope: text equal to either is one byte, since the row keeps them anyway. A record's own id,
// and a timeline's operation (its scope), were 17 bytes each, several times per stored operation.
//
// Values it cannot keep exactly (a Date, a Map, a class instance, a function) make `encode`
// answer undefined: the caller keeps such a record as the object itself.

import { latin1Text, utf8Text, viewOf } from './buffer-text';
import { readUuid, writeUuid } from './uuid-bytes';
import { isoInstant, knownInstantMs, rememberInstant, writeIsoInstant, writesInPlace } from './iso-instant';

const NULL = 0;
const TRUE = 1;
const FALSE = 2;
const UNDEFINED = 3;
/** A whole number 0 ≤ n ≤ 2^53 - 1 as a varint (an idempotency key's expiry in ms: 6 bytes, not 9). */
const UINT = 4;
/** Any other number: 8 bytes, IEEE 754. */
const FLOAT = 5;
/** Text whose chars are all below 256: varint length, one byte each. */
const BYTES = 6;
/** Any other text: varint length, two bytes per UTF-16 unit. */
const WIDE = 7;
/** A lowercase canonical UUID: 16 bytes. */
const UUID = 8;
/** A `YYYY-MM-DDTHH:mm:ss.sssZ` instant that round-trips through Date: 6 bytes of milliseconds. */
const INSTANT = 9;
/** A dictionary string: varint id. */
const NAME = 10;
/** An object: varint shape id (its keys, in order), then each value. */
const OBJECT = 11;
/** An array: varint length, then each item. */
const ARRAY = 12;
/** Text equal to the id of the row the record is kept in (its own id): nothing more, the row knows it. */
const OWN_ID = 13;
/** Text equal to the scope of the row the record is kept in (an operation's customer, a timeline's operation). */
const OWN_SCOPE = 14;
/** An instant this record already holds: varint index among its instants, in the order written. */
const SAME_INSTANT = 15;
/** 43 chars of unpadded base64url that are exactly 32 bytes (a SHA-256 digest: idempotency fingerprints): those bytes. */
const DIGEST = 16;

const DIGEST_PATTERN = /^[A-Za-z0-9_-]{42}[AEIMQUYcgkosw048]$/;

/** Text worth a dictionary entry: at most 48 chars without digits (assets, statuses, names; not amounts or ids). */
/** The dictionary stops growing here (text past it is written out): it never grows without bound. */
const MAX_NAMES = 1 << 16;
const MAX_SHAPES = 1 << 16;

class Unkeepable extends Error {}

/** The row a record is kept in, which names its id and scope (looked up only when the record refers to them). */
export interface RecordOwner {
  rowId(row: number): string;
  rowScope(row: number): string;
  /**
   * The row's id (`scope` false) or scope as a UUID's 16 bytes into `into`; false, writing
   * nothing, when it is other text. `json` writes a record's own id from these, with no string.
   */
  rowUuid(row: number, scope: boolean, into: Uint8Array): boolean;
}

/**
 * A property put on a decoded record (the top-level object) before it is frozen, not enumerable:
 * JSON, Object.keys, spreads, copies and equality checks do not see it. The memory store puts
 * where the record is kept there (record-marks.ts), which a WeakMap entry per record handed out
 * cost about as much as decoding a small record (measured on pages of a million operations).
 */
export interface Hidden {
  key: symbol;
  value: unknown;
}

const EMPTY = Buffer.alloc(0);
const NULL_JSON = Buffer.from('null');
const TRUE_JSON = Buffer.from('true');
const FALSE_JSON = Buffer.from('false');
/** The char codes of JSON's punctuation, as the JSON writer puts them in its bytes. */
const QUOTE = 0x22; // "
const BACKSLASH = 0x5c; // \
const COMMA = 0x2c; // ,
const OPEN_BRACE = 0x7b; // {
const CLOSE_BRACE = 0x7d; // }
const OPEN_BRACKET = 0x5b; // [
const CLOSE_BRACKET = 0x5d; // ]

export class RecordCodec {
  private readonly names: string[] = [];
  private readonly nameIds = new Map<string, number>();
  private readonly shapes: string[][] = [[]];
  /** Shape id, then a key → the shape with that key added (a tree from the empty shape 0): no joined key strings per object. */
  private readonly transitions: Array<Map<string, number> | undefined> = [];
  /** Per first key, the shape last written with it (shapeOf): one per key that starts an object, at most. */
  private readonly shapeByFirstKey = new Map<string, number>();
  private out = Buffer.allocUnsafe(4096);
  private length = 0;
  private readonly float = new Float64Array(1);
  private readonly floatBytes = new Uint8Array(this.float.buffer);
  /** A UUID's 36 chars, written whole (hyphens too) by writeUuid in each decode of one. */
  private readonly uuidChars = Buffer.alloc(36);
  private readonly uuidCharsView = viewOf(this.uuidChars);
  /** A row's own id or scope as a UUID's bytes, filled in by `json` (RecordOwner.rowUuid). */
  private readonly uuidBytes = new Uint8Array(16);
  /** Per shape, a function that reads its values into an object literal of that shape. */
  private readonly builders: Array<((codec: RecordCodec) => object) | undefined> = [];
  /** The same per shape, putting `hidden` on the object before freezing it (a record's top level). */
  private readonly hiddenBuilders: Array<((codec: RecordCodec, hidden: Hidden) => object) | undefined> = [];
  /** Per shape, a function that writes an object of that shape as JSON from the next values, for `json`. */
  private readonly jsonWriters: Array<((codec: RecordCodec) => void) | undefined> = [];
  /**
   * The dictionary names' JSON string literals in UTF-8, for `json`: each written here the first
   * time `json` meets it, then copied from here four bytes to a store. Per name, where its
   * literal starts and ends here (undefined until then), and whether it has a byte beyond ASCII (see jsonWide).
   */
  private namesJson = Buffer.allocUnsafe(1024);
  private namesJsonView = viewOf(this.namesJson);
  private namesJsonLength = 0;
  private readonly nameJsonAt: Array<number | undefined> = [];
  private readonly nameJsonEnd: number[] = [];
  private readonly namesWide: boolean[] = [];
  /** Where `json` writes its text (UTF-8), and how far. */
  private jsonOut = Buffer.allocUnsafe(4096);
  /** `jsonOut` for stores of two and four bytes at once (keys, UUIDs, instants, names): unaligned, little-endian. */
  private jsonView = viewOf(this.jsonOut);
  private jsonAt = 0;
  /**
   * Whether the record's JSON so far has a byte beyond ASCII: set by each writer that may write
   * one. While it is not, the text is read back one char per byte, which costs less than reading
   * it as UTF-8 (most records are ASCII: ids, amounts, instants, names).
   */
  private jsonWide = false;
  /**
   * Where `json` wrote each instant of the record, in order, from its opening quote to past its
   * closing one: a repeat copies those bytes.
   */
  private readonly instantsWrittenAt: number[] = [];
  private readonly instantsWrittenEnd: number[] = [];
  /** How many of `instantsWrittenAt` are this record's (a count, not the array's length: setting a length calls the runtime). */
  private instantsWrittenAtCount = 0;
  /** For the decode under way: the hidden property its top-level object gets, until that object is read. */
  private hidden: Hidden | undefined = undefined;
  private lastInstant = -1;
  private lastInstantText = '';
  private input: Buffer = EMPTY;
  private at = 0;
  /** Where the input ends: reading past it is a broken kept form, not a value. */
  private end = 0;
  /** Where `decode` puts a kept form given as a string. */
  private text = Buffer.allocUnsafe(4096);
  /** The instants of the record being encoded (ms) or decoded (text), in order: a repeat names its index. */
  private instantsWritten: number[] = [];
  private instantsRead: string[] = [];
  /** How many of `instantsRead` are this record's (as instantsWrittenAtCount). */
  private instantsReadCount = 0;
  /** While encoding a row's record: its id and scope (undefined otherwise, so no text matches). */
  private ownId: string | undefined = undefined;
  private ownScope: string | undefined = undefined;
  /** While decoding a row's record: the row, asked for its id and scope on first need. */
  private owner: RecordOwner | undefined = undefined;
  private ownerRow = -1;

  /**
   * Puts `text` in the dictionary (while it has room): the ids of customers, accounts and
   * beneficiaries recur in every operation, quote and answer of theirs.
   */
  name(text: string): void {
    if (this.names.length >= MAX_NAMES || this.nameIds.has(text)) return;
    this.nameIds.set(text, this.names.length);
    this.names.push(text);
  }

  /**
   * The kept form of `value`, or undefined when it holds something JSON-like data does not. With
   * `own` (the id and scope of the row it is kept in), text equal to either is kept as a reference:
   * decode it with the same row.
   */
  encode(value: unknown, own?: { id: string; scope: string }): string | undefined {
    const length = this.encodeBytes(value, own);
    return length === undefined ? undefined : latin1Text(this.out, 0, length);
  }

  /**
   * `encode`, leaving the kept form in `bytes` (its first `length` bytes, valid until the next
   * call) rather than in a string: for a caller that keeps it elsewhere (byte-arena.ts).
   */
  encodeBytes(value: unknown, own?: { id: string; scope: string }): number | undefined {
    this.length = 0;
    this.instantsWritten.length = 0;
    this.ownId = own?.id;
    this.ownScope = own?.scope;
    try {
      this.write(value);
    } catch (error) {
      if (error instanceof Unkeepable) return undefined;
      throw error;
    } finally {
      this.ownId = this.ownScope = undefined;
    }
    return this.length;
  }

  /** What `encodeBytes` wrote. */
  get bytes(): Uint8Array {
    return this.out;
  }

  /** The value `encode` was given, rebuilt and deep-frozen; `owner` and `row` name the row it was encoded for. */
  decode(kept: string, owner?: RecordOwner, row = -1): unknown {
    // The length first: `textOf` may put a larger buffer in `text`.
    const length = this.textOf(kept);
    return this.decodeBytes(this.text, 0, length, owner, row);
  }

  /** Puts a kept form given as a string into `text` (a byte per char); answers its length. */
  private textOf(kept: string): number {
    if (this.text.length < kept.length) this.text = Buffer.allocUnsafe(Math.max(kept.length, this.text.length * 2));
    return this.text.write(kept, 0, kept.length, 'latin1');
  }

  /** The value `encodeBytes` was given, from `length` bytes of `input` at `start`. */
  decodeBytes(input: Buffer, start: number, length: number, owner?: RecordOwner, row = -1, hidden?: Hidden): unknown {
    this.startReading(input, start, length, owner, row);
    // Only a value that is an object gets it: the first object read is then the top level.
    this.hidden = length > 0 && input[start] === OBJECT ? hidden : undefined;
    try {
      return this.read();
    } finally {
      this.input = EMPTY;
      this.owner = undefined;
      this.hidden = undefined;
    }
  }

  /**
   * `JSON.stringify` of what `decode` would give, written straight from the kept form: no object
   * is built (undefined for a kept `undefined`, as JSON.stringify answers). Why: a record listed
   * once from a large store was decoded, deep-frozen and stringified only to be sent (about 4 and
   * 4.6 µs for an operation); the response encoder takes this text instead (record-table.ts, sendAt).
   */
  json(kept: string, owner?: RecordOwner, row = -1): string | undefined {
    // The length first: `textOf` may put a larger buffer in `text`.
    const length = this.textOf(kept);
    return this.jsonBytes(this.text, 0, length, owner, row);
  }

  /** `json` from `length` bytes of `input` at `start`. */
  jsonBytes(input: Buffer, start: number, length: number, owner?: RecordOwner, row = -1): string | undefined {
    this.startReading(input, start, length, owner, row);
    this.jsonAt = 0;
    this.jsonWide = false;
    this.instantsWrittenAtCount = 0;
    try {
      if (length > 0 && input[start] === UNDEFINED) return undefined;
      this.writeJson();
      // One flat string from the bytes (text built by `+=` would be a rope of small strings, flattened later).
      return this.jsonWide ? utf8Text(this.jsonOut, 0, this.jsonAt) : latin1Text(this.jsonOut, 0, this.jsonAt);
    } finally {
      this.input = EMPTY;
      this.owner = undefined;
    }
  }

  /** Where `decodeBytes` and `jsonBytes` read from, and for which row. */
  private startReading(input: Buffer, start: number, length: number, owner: RecordOwner | undefined, row: number): void {
    this.input = input;
    this.at = start;
    this.end = start + length;
    this.instantsReadCount = 0;
    this.owner = owner;
    this.ownerRow = row;
  }

  private byte(b: number): void {
    if (this.length === this.out.length) this.grow(1);
    this.out[this.length++] = b;
  }

  /**
   * Room for `n` more bytes in `out`, so a value of known size is written with plain stores and
   * no check per byte (a string's bytes, a UUID's, an instant's were each a `byte` call).
   */
  private reserve(n: number): Buffer {
    if (this.length + n > this.out.length) this.grow(n);
    return this.out;
  }

  private grow(n: number): void {
    this.out = grown(this.out, this.length, this.length + n);
  }

  private varint(n: number): void {
    // Past 32 bits by division (bit operators would cut the number to 32 bits).
    while (n >= 2 ** 31) {
      this.byte((n % 0x80) | 0x80);
      n = Math.floor(n / 0x80);
    }
    while (n >= 0x80) {
      this.byte((n & 0x7f) | 0x80);
      n >>>= 7;
    }
    this.byte(n);
  }

  private write(value: unknown): void {
    switch (typeof value) {
      case 'string':
        return this.writeString(value);
      case 'number':
        if (Number.isSafeInteger(value) && value >= 0 && !Object.is(value, -0)) {
          this.byte(UINT);
          return this.varint(value);
        }
        this.byte(FLOAT);
        this.float[0] = value;
        for (const b of this.floatBytes) this.byte(b);
        return;
      case 'boolean':
        return this.byte(value ? TRUE : FALSE);
      case 'undefined':
        return this.byte(UNDEFINED);
      case 'object':
        if (value === null) return this.byte(NULL);
        if (Array.isArray(value)) {
          this.byte(ARRAY);
          this.varint(value.length);
          for (let i = 0; i < value.length; i++) this.write(value[i]);
          return;
        }
        return this.writeObject(value);
      default:
        throw new Unkeepable();
    }
  }

  private writeObject(value: object): void {
    const proto = Object.getPrototypeOf(value) as unknown;
    if (proto !== Object.prototype && proto !== null) throw new Unkeepable();
    const keys = Object.keys(value);
    const shape = this.shapeOf(keys);
    this.byte(OBJECT);
    this.varint(shape);
    // All values in one call, in the keys' order: a load by key per field was most of the time here.
    // Kept data has no getters; one that removed a field as it was read would leave the shape
    // naming more values than were read: such an object is not kept in this form.
    const values = Object.values(value) as unknown[];
    if (values.length !== keys.length) throw new Unkeepable();
    for (let i = 0; i < values.length; i++) this.write(values[i]);
  }

  /**
   * The shape id of these keys, in this order. First the shape last seen with the same first key,
   * compared key by key (property names are mostly the same interned strings, so each is one
   * comparison); else a walk of the transitions, a Map look-up per key.
   */
  private shapeOf(keys: string[]): number {
    const first = keys.length === 0 ? '' : (keys[0] as string);
    const guess = this.shapeByFirstKey.get(first);
    if (guess !== undefined && sameKeys(this.shapes[guess]!, keys)) return guess;
    let shape = 0;
    for (const key of keys) {
      let next = this.transitions[shape]?.get(key);
      if (next === undefined) {
        if (this.shapes.length >= MAX_SHAPES) throw new Unkeepable();
        next = this.shapes.length;
        this.shapes.push([...this.shapes[shape]!, key]);
        (this.transitions[shape] ??= new Map()).set(key, next);
      }
      shape = next;
    }
    this.shapeByFirstKey.set(first, shape);
    return shape;
  }

  private writeString(text: string): void {
    if (text === this.ownId) return this.byte(OWN_ID);
    if (text === this.ownScope) return this.byte(OWN_SCOPE);
    // Instants first: never dictionary names, and the commonest text after ids.
    if (text.length === 24 && text.charCodeAt(10) === 84 && text.charCodeAt(23) === 90) {
      const ms = knownInstantMs(text) ?? instantMs(text);
      if (ms !== undefined) {
        // A record repeats its instants (an operation's creation and update, its state's, each
        // settled transaction's): the second time, two bytes instead of seven.
        const seen = this.instantsWritten.indexOf(ms);
        if (seen >= 0) {
          this.byte(SAME_INSTANT);
          return this.varint(seen);
        }
        this.instantsWritten.push(ms);
        const out = this.reserve(7);
        let at = this.length;
        out[at++] = INSTANT;
        // 6 bytes, big-endian: past 32 bits by division (bit operators would cut the number).
        const high = Math.floor(ms / 2 ** 32);
        const low = ms - high * 2 ** 32;
        out[at++] = (high >>> 8) & 0xff;
        out[at++] = high & 0xff;
        out[at++] = low >>> 24;
        out[at++] = (low >>> 16) & 0xff;
        out[at++] = (low >>> 8) & 0xff;
        out[at++] = low & 0xff;
        this.length = at;
        return;
      }
    }
    if (text.length === 43 && DIGEST_PATTERN.test(text)) {
      // Decoded by Buffer straight into `out`: no Buffer allocated per digest.
      const out = this.reserve(33);
      out[this.length] = DIGEST;
      this.length += 1 + out.write(text, this.length + 1, 32, 'base64url');
      return;
    }
    const name = this.nameIds.get(text);
    if (name !== undefined) {
      this.byte(NAME);
      return this.varint(name);
    }
    if (text.length === 36 && text.charCodeAt(8) === 45 && this.writeUuid(text)) return;
    if (this.names.length < MAX_NAMES && text.length <= 48 && !hasDigit(text)) {
      const id = this.names.length;
      this.names.push(text);
      this.nameIds.set(text, id);
      this.byte(NAME);
      return this.varint(id);
    }
    const n = text.length;
    // Written as one byte a char, the usual case; should a char need two, written again as WIDE.
    const start = this.length;
    this.byte(BYTES);
    this.varint(n);
    const out = this.reserve(n);
    let at = this.length;
    for (let i = 0; i < n; i++) {
      const c = text.charCodeAt(i);
      if (c > 0xff) return this.writeWide(text, start);
      out[at++] = c;
    }
    this.length = at;
  }

  /** A canonical UUID as UUID and its 16 bytes; false, with nothing written, for any other text. */
  private writeUuid(text: string): boolean {
    const out = this.reserve(17);
    out[this.length] = UUID;
    if (!readUuid(text, 0, out, this.length + 1)) return false;
    this.length += 17;
    return true;
  }

  /** `text` as WIDE at `start` (in place of what was begun there): two bytes per UTF-16 unit. */
  private writeWide(text: string, start: number): void {
    this.length = start;
    this.byte(WIDE);
    this.varint(text.length);
    const out = this.reserve(2 * text.length);
    let at = this.length;
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      out[at++] = c >>> 8;
      out[at++] = c & 0xff;
    }
    this.length = at;
  }

  private next(): number {
    if (this.at >= this.end) throw new Error(`record codec: the kept form ends at ${this.at}, inside a value`);
    return this.input[this.at++]!;
  }

  /** An instant's ms since 1970, six bytes big-endian (at most 2^48 - 1: past 9999 too). */
  private readInstantMs(): number {
    const input = this.input;
    const at = this.at;
    if (at + 6 > this.end) throw new Error(`record codec: the kept form ends inside an instant at ${at}`);
    this.at = at + 6;
    // The top two bytes times 2^32, the low four as an unsigned 32-bit number: integer arithmetic all through.
    return (
      (input[at]! * 256 + input[at + 1]!) * 4_294_967_296 +
      ((input[at + 2]! << 24) >>> 0) +
      (input[at + 3]! << 16) +
      (input[at + 4]! << 8) +
      input[at + 5]!
    );
  }

  private readVarint(): number {
    // One or two bytes (below 16,384: shape and name numbers, most lengths) in integer steps.
    const input = this.input;
    const at = this.at;
    if (at + 1 < this.end) {
      const b0 = input[at]!;
      if (b0 < 0x80) {
        this.at = at + 1;
        return b0;
      }
      const b1 = input[at + 1]!;
      if (b1 < 0x80) {
        this.at = at + 2;
        return (b0 & 0x7f) | (b1 << 7);
      }
    }
    let n = 0;
    let scale = 1;
    for (;;) {
      const b = this.next();
      n += (b & 0x7f) * scale;
      if (b < 0x80) return n;
      scale *= 128;
    }
  }

  /** The next value of the input (the builders call it for each field, in order). */
  read(): unknown {
    const tag = this.next();
    switch (tag) {
      case NULL:
        return null;
      case TRUE:
        return true;
      case FALSE:
        return false;
      case UNDEFINED:
        return undefined;
      case UINT:
        return this.readVarint();
      case FLOAT:
        for (let i = 0; i < 8; i++) this.floatBytes[i] = this.next();
        return this.float[0];
      case BYTES: {
        const n = this.readVarint();
        const start = this.at;
        this.at = start + n;
        if (this.at > this.end) throw new Error(`record codec: the kept form ends inside text at ${start}`);
        return latin1Text(this.input, start, this.at);
      }
      case WIDE: {
        const codes = new Array<number>(this.readVarint());
        for (let i = 0; i < codes.length; i++) codes[i] = (this.next() << 8) | this.next();
        return String.fromCharCode(...codes);
      }
      case UUID: {
        if (this.at + 16 > this.end) throw new Error(`record codec: the kept form ends at ${this.end}, inside a value`);
        writeUuid(this.input, this.at, this.uuidCharsView, 0);
        this.at += 16;
        return latin1Text(this.uuidChars, 0, 36);
      }
      case INSTANT: {
        const ms = this.readInstantMs();
        // A record repeats its instants (createdAt, updatedAt, its state's): written once.
        if (ms !== this.lastInstant) {
          this.lastInstant = ms;
          this.lastInstantText = isoInstant(ms);
        }
        this.instantsRead[this.instantsReadCount++] = this.lastInstantText;
        return this.lastInstantText;
      }
      case SAME_INSTANT: {
        const n = this.readVarint();
        if (n >= this.instantsReadCount) throw new Error(`record codec: a repeated instant at ${this.at} names none read before`);
        return this.instantsRead[n];
      }
      case DIGEST: {
        const start = this.at;
        this.at += 32;
        if (this.at > this.end) throw new Error(`record codec: the kept form ends inside a digest at ${start}`);
        return this.input.toString('base64url', start, this.at);
      }
      case NAME:
        return this.names[this.readVarint()];
      case OWN_ID:
        return this.ownerOf(tag).rowId(this.ownerRow);
      case OWN_SCOPE:
        return this.ownerOf(tag).rowScope(this.ownerRow);
      case OBJECT: {
        const shape = this.readVarint();
        const hidden = this.hidden;
        if (hidden !== undefined) {
          this.hidden = undefined;
          const build = (this.hiddenBuilders[shape] ??= builderOf(this.shapes[shape]!, true));
          return build(this, hidden);
        }
        const build = (this.builders[shape] ??= builderOf(this.shapes[shape]!));
        return build(this);
      }
      case ARRAY: {
        const n = this.readVarint();
        const array: unknown[] = new Array(n);
        for (let i = 0; i < n; i++) array[i] = this.read();
        return Object.freeze(array);
      }
      default:
        throw new Error(`record codec: unknown tag ${tag} at ${this.at - 1}`);
    }
  }

  /**
   * Writes the next value as JSON.stringify writes it (the same walk as `read`, tag by tag), into
   * `jsonOut`. An object leaves out a field that is `undefined`, an array writes it as null.
   */
  private writeJson(): void {
    // Looked at, not taken: the default case hands the value to `read` whole. Past the end, `next` throws.
    const tag = this.at < this.end ? this.input[this.at] : this.next();
    switch (tag) {
      case UNDEFINED:
      case NULL:
        this.at++;
        return this.jsonBytesOf(NULL_JSON);
      case TRUE:
        this.at++;
        return this.jsonBytesOf(TRUE_JSON);
      case FALSE:
        this.at++;
        return this.jsonBytesOf(FALSE_JSON);
      case NAME: {
        this.at++;
        const id = this.readVarint();
        const start = this.nameJsonAt[id] ?? this.addNameJson(id);
        if (this.namesWide[id]) this.jsonWide = true;
        const n = this.nameJsonEnd[id]! - start;
        this.jsonRoom(n);
        copyBytes(this.namesJson, this.namesJsonView, start, this.jsonOut, this.jsonView, this.jsonAt, n);
        this.jsonAt += n;
        return;
      }
      case UUID: {
        this.at++;
        if (this.at + 16 > this.end) throw new Error(`record codec: the kept form ends inside a UUID at ${this.at}`);
        this.jsonUuid(this.input, this.at);
        this.at += 16;
        return;
      }
      case BYTES: {
        const tagAt = this.at++;
        const n = this.readVarint();
        const start = this.at;
        if (start + n > this.end) throw new Error(`record codec: the kept form ends inside text at ${start}`);
        const input = this.input;
        // Printable ASCII without a quote or a backslash: the kept bytes are the JSON between quotes.
        // Copied as checked; anything else is written by JSON.stringify over what was written.
        this.jsonRoom(n + 2);
        const out = this.jsonOut;
        let at = this.jsonAt;
        out[at++] = QUOTE;
        for (let i = start; i < start + n; i++) {
          const c = input[i]!;
          if (!plainInJson(c)) {
            this.at = tagAt;
            return this.jsonText(JSON.stringify(this.read()));
          }
          out[at++] = c;
        }
        out[at++] = QUOTE;
        this.jsonAt = at;
        this.at = start + n;
        return;
      }
      case INSTANT: {
        this.at++;
        const ms = this.readInstantMs();
        const start = this.jsonAt;
        if (writesInPlace(ms)) {
          // Digits straight into the output: no string in between (an operation holds several).
          this.jsonRoom(26);
          const out = this.jsonOut;
          out[start] = QUOTE;
          writeIsoInstant(ms, this.jsonView, start + 1);
          out[start + 25] = QUOTE;
          this.jsonAt += 26;
        } else {
          this.jsonPlain(isoInstant(ms));
        }
        this.instantsWrittenAt[this.instantsWrittenAtCount] = start;
        this.instantsWrittenEnd[this.instantsWrittenAtCount++] = this.jsonAt;
        return;
      }
      case SAME_INSTANT: {
        this.at++;
        const n = this.readVarint();
        if (n >= this.instantsWrittenAtCount) throw new Error(`record codec: a repeated instant at ${this.at} names none written before`);
        // The bytes written for it the first time, quotes and all.
        const from = this.instantsWrittenAt[n]!;
        const length = this.instantsWrittenEnd[n]! - from;
        // Room first: it may move the output to a larger buffer (offsets stay).
        this.jsonRoom(length);
        copyBytes(this.jsonOut, this.jsonView, from, this.jsonOut, this.jsonView, this.jsonAt, length);
        this.jsonAt += length;
        return;
      }
      case UINT: {
        this.at++;
        const n = this.readVarint();
        if (n < 10) return this.jsonByte(48 + n);
        return this.jsonPlain(String(n), false);
      }
      case OWN_ID:
      case OWN_SCOPE: {
        this.at++;
        const owner = this.ownerOf(tag);
        // A UUID (every id the mock makes) from its bytes; other text as the row names it.
        if (owner.rowUuid(this.ownerRow, tag === OWN_SCOPE, this.uuidBytes)) return this.jsonUuid(this.uuidBytes, 0);
        return this.jsonPlain(tag === OWN_ID ? owner.rowId(this.ownerRow) : owner.rowScope(this.ownerRow));
      }
      case DIGEST:
        return this.jsonPlain(this.read() as string);
      case OBJECT: {
        this.at++;
        const shape = this.readVarint();
        return (this.jsonWriters[shape] ??= jsonWriterOf(this.shapes[shape]!))(this);
      }
      case ARRAY: {
        this.at++;
        const n = this.readVarint();
        this.jsonByte(OPEN_BRACKET);
        for (let i = 0; i < n; i++) {
          if (i > 0) this.jsonByte(COMMA);
          this.writeJson();
        }
        return this.jsonByte(CLOSE_BRACKET);
      }
      default:
        // Other numbers and wide text: the value, then JSON.stringify's own writing of it (-0 as 0,
        // a NaN as null, escapes).
        return this.jsonText(JSON.stringify(this.read()));
    }
  }

  /** A UUID's 16 bytes at `from` in `bytes`, written as its JSON string (38 chars, hyphens in place). */
  private jsonUuid(bytes: Uint8Array, from: number): void {
    this.jsonRoom(38);
    const out = this.jsonOut;
    let at = this.jsonAt;
    out[at++] = QUOTE;
    at = writeUuid(bytes, from, this.jsonView, at);
    out[at++] = QUOTE;
    this.jsonAt = at;
  }

  private jsonRoom(n: number): void {
    if (this.jsonAt + n <= this.jsonOut.length) return;
    this.jsonOut = grown(this.jsonOut, this.jsonAt, this.jsonAt + n);
    this.jsonView = viewOf(this.jsonOut);
  }

  private jsonByte(b: number): void {
    this.jsonRoom(1);
    this.jsonOut[this.jsonAt++] = b;
  }

  /**
   * An object of a shape whose keys are `keyBytes` (each `"key":` in UTF-8) written as JSON by a
   * loop, for a shape of more keys than its generated writer takes (jsonWriterOf).
   */
  jsonObjectByLoop(keyBytes: readonly Uint8Array[], wide: boolean): void {
    if (wide) this.jsonWide = true;
    this.jsonByte(OPEN_BRACE);
    let written = false;
    for (let i = 0; i < keyBytes.length; i++) {
      // JSON.stringify leaves out a field that is undefined (a tag of one byte, nothing after it).
      if (this.at < this.end && this.input[this.at] === UNDEFINED) {
        this.at++;
        continue;
      }
      if (written) this.jsonByte(COMMA);
      written = true;
      this.jsonBytesOf(keyBytes[i]!);
      this.writeJson();
    }
    this.jsonByte(CLOSE_BRACE);
  }

  /** Writes the name's JSON string literal into `namesJson` (the first time `json` meets it); answers where it starts. */
  private addNameJson(id: number): number {
    const json = Buffer.from(JSON.stringify(this.names[id]));
    const start = this.namesJsonLength;
    if (start + json.length > this.namesJson.length) {
      this.namesJson = grown(this.namesJson, start, start + json.length);
      this.namesJsonView = viewOf(this.namesJson);
    }
    json.copy(this.namesJson, start);
    this.namesJsonLength = start + json.length;
    this.nameJsonAt[id] = start;
    this.nameJsonEnd[id] = start + json.length;
    this.namesWide[id] = !isAscii(json);
    return start;
  }

  private jsonBytesOf(bytes: Uint8Array): void {
    this.jsonRoom(bytes.length);
    const out = this.jsonOut;
    const at = this.jsonAt;
    const n = bytes.length;
    // Locals in the loop: a field written per byte cost a fifth of the whole walk.
    for (let i = 0; i < n; i++) out[at + i] = bytes[i]!;
    this.jsonAt = at + n;
  }

  /**
   * `text` as a JSON string (`quoted`) or as it is, byte by byte when it is printable ASCII
   * without a quote or a backslash (ids, instants, numbers); else JSON.stringify's text of it.
   */
  private jsonPlain(text: string, quoted = true): void {
    const n = text.length;
    this.jsonRoom(n + 2);
    const out = this.jsonOut;
    const start = this.jsonAt;
    let at = start;
    if (quoted) out[at++] = QUOTE;
    for (let i = 0; i < n; i++) {
      const c = text.charCodeAt(i);
      if (!plainInJson(c)) {
        this.jsonAt = start;
        return this.jsonText(quoted ? JSON.stringify(text) : text);
      }
      out[at++] = c;
    }
    if (quoted) out[at++] = QUOTE;
    this.jsonAt = at;
  }

  /** JSON text (possibly beyond ASCII) as UTF-8. */
  private jsonText(text: string): void {
    const n = text.length;
    this.jsonRoom(n * 3);
    const out = this.jsonOut;
    const at = this.jsonAt;
    // ASCII byte by byte (Buffer#write costs more than a short text); else the runtime's UTF-8.
    for (let i = 0; i < n; i++) {
      const c = text.charCodeAt(i);
      if (c >= 0x80) {
        this.jsonWide = true;
        this.jsonAt = at + out.write(text, at, 'utf8');
        return;
      }
      out[at + i] = c;
    }
    this.jsonAt = at + n;
  }

  private ownerOf(tag: number): RecordOwner {
    if (this.owner === undefined) throw new Error(`record codec: tag ${tag} at ${this.at - 1} refers to a row, and none was named`);
    return this.owner;
  }
}

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
/** An instant's separators (`YYYY-MM-DDTHH:mm:ss.sssZ`) and where they stand. */
const SEPARATORS = '--T::.Z';
const SEPARATOR_AT = [4, 7, 10, 13, 16, 19, 23];

/** The number written in `text` from `from` to `to` (decimal digits only), or -1. */
function digitsAt(text: string, from: number, to: number): number {
  let value = 0;
  for (let i = from; i < to; i++) {
    const d = text.charCodeAt(i) - 48;
    if (d < 0 || d > 9) return -1;
    value = value * 10 + d;
  }
  return value;
}

/**
 * The milliseconds of a `YYYY-MM-DDTHH:mm:ss.sssZ` text that Date.prototype.toISOString would
 * write back exactly (year 1970 to 9999, a real day and time), or undefined. Read digit by
 * digit: this runs for every instant of every record written.
 */
function instantMs(text: string): number | undefined {
  for (let i = 0; i < SEPARATOR_AT.length; i++) if (text.charCodeAt(SEPARATOR_AT[i]!) !== SEPARATORS.charCodeAt(i)) return undefined;
  const year = digitsAt(text, 0, 4);
  const month = digitsAt(text, 5, 7);
  const day = digitsAt(text, 8, 10);
  const hour = digitsAt(text, 11, 13);
  const minute = digitsAt(text, 14, 16);
  const second = digitsAt(text, 17, 19);
  const ms = digitsAt(text, 20, 23);
  if (year < 1970 || month < 1 || month > 12 || day < 1 || hour < 0 || hour > 23 || minute < 0 || minute > 59) return undefined;
  if (second < 0 || second > 59 || ms < 0) return undefined;
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  if (day > DAYS_IN_MONTH[month - 1]! + (month === 2 && leap ? 1 : 0)) return undefined;
  const instant = Date.UTC(year, month - 1, day, hour, minute, second, ms);
  rememberInstant(text, instant);
  return instant;
}

/**
 * A function building a frozen object of these keys, in this order, from the codec's next
 * values. Generated per shape because an object literal of fixed keys is built several times
 * faster than one filled key by key (each `object[key] =` with a changing key is a slow
 * generic store). Keys go in as JSON string literals; `__proto__` as a computed key, so it is an
 * own field as JSON.parse makes it, not the prototype.
 */
function builderOf(keys: string[], withHidden: true): (codec: RecordCodec, hidden: Hidden) => object;
function builderOf(keys: string[]): (codec: RecordCodec) => object;
function builderOf(keys: string[], withHidden = false): (codec: RecordCodec, hidden: Hidden) => object {
  const fields = keys.map((key) => (key === '__proto__' ? `["__proto__"]: c.read()` : `${JSON.stringify(key)}: c.read()`));
  const literal = `{${fields.join(', ')}}`;
  // Not enumerable, not writable: defineProperty's defaults.
  const body = withHidden
    ? `const o = ${literal}; Object.defineProperty(o, h.key, { value: h.value }); return Object.freeze(o);`
    : `return Object.freeze(${literal});`;
  // eslint-disable-next-line @typescript-eslint/no-implied-eval -- the source is built from JSON string literals only (see above)
  return new Function('c', 'h', body) as (codec: RecordCodec, hidden: Hidden) => object;
}

/** Keys a shape's writer writes as constants, at most; a shape with more is written by a loop. */
const MAX_GENERATED_KEYS = 256;
/** A key's bytes written as constants, at most; a longer key is copied from its bytes. */
const MAX_CONSTANT_KEY = 64;

/**
 * A function writing an object of these keys, in this order, as JSON from the codec's next
 * values (leaving out a field that is `undefined`, as JSON.stringify does). Generated per shape,
 * as `builderOf` is, with each key's bytes (`"id":`, UTF-8) written as constants: a key copied
 * from a buffer byte by byte in a loop was about a sixth of the walk of an operation (its 45
 * fields in 12 objects), which took 1.85 µs this way against 2.1 (200,000 seeded operations
 * written in a loop); four bytes to a store (a DataView's) took another twentieth off. The source
 * holds numbers only (the bytes of JSON string literals). Its size is bounded: a long key (a
 * snapshot may hold one of millions of chars) is copied from its bytes, and a shape of many keys
 * gets the loop, so no key makes source to compile by the megabyte. A shape with a key beyond
 * ASCII marks the record's JSON wide (RecordCodec's jsonWide) whether or not that field is written.
 */
function jsonWriterOf(keys: string[]): (codec: RecordCodec) => void {
  const keyBytes = keys.map((key) => Buffer.from(`${JSON.stringify(key)}:`));
  const wide = !keyBytes.every(isAscii);
  if (keys.length > MAX_GENERATED_KEYS) return (codec) => codec.jsonObjectByLoop(keyBytes, wide);
  const fields = keyBytes.map((bytes, k) => {
    const write =
      bytes.length <= MAX_CONSTANT_KEY
        ? `c.jsonRoom(${bytes.length + 1}); o = c.jsonOut; v = c.jsonView; a = c.jsonAt; ` +
          `if (w) o[a++] = ${COMMA}; else w = true; ${constantStores(bytes)} c.jsonAt = a + ${bytes.length};`
        : `if (w) c.jsonByte(${COMMA}); else w = true; c.jsonBytesOf(K[${k}]);`;
    return `if (c.at < c.end && c.input[c.at] === ${UNDEFINED}) c.at++; else { ${write} c.writeJson(); }`;
  });
  const body =
    `return function (c) {\nlet o, v, a, w = false; ${wide ? 'c.jsonWide = true; ' : ''}c.jsonByte(${OPEN_BRACE});\n` +
    fields.join('\n') +
    `\nc.jsonByte(${CLOSE_BRACE});\n};`;
  // eslint-disable-next-line @typescript-eslint/no-implied-eval -- the source holds numbers only (see above)
  const make = new Function('K', body) as (keys: Buffer[]) => (codec: RecordCodec) => void;
  return make(keyBytes);
}

/**
 * Source storing `bytes` at `a` in the generated writer: four at a time into the DataView `v`
 * (little-endian, so the first byte is the word's lowest), the rest one by one into `o`.
 */
function constantStores(bytes: Uint8Array): string {
  const stores: string[] = [];
  let i = 0;
  for (; i + 4 <= bytes.length; i += 4) {
    // `* 2 ** 24` keeps the word the positive number its bytes are (a shift would make it negative from 0x80 up).
    const word = bytes[i]! + (bytes[i + 1]! << 8) + (bytes[i + 2]! << 16) + bytes[i + 3]! * 2 ** 24;
    stores.push(`v.setUint32(a + ${i}, ${word}, true);`);
  }
  for (; i < bytes.length; i++) stores.push(`o[a + ${i}] = ${bytes[i]!};`);
  return stores.join(' ');
}

/**
 * Copies `n` bytes from `from` in `source` to `at` in `target` (regions that do not overlap), four
 * to a store through each one's DataView, the last few one by one: a name or a repeated instant
 * in a record's JSON is 5 to 26 bytes, copied several times an operation.
 */
function copyBytes(
  source: Uint8Array,
  sourceView: DataView,
  from: number,
  target: Uint8Array,
  targetView: DataView,
  at: number,
  n: number,
): void {
  let i = 0;
  for (; i + 4 <= n; i += 4) targetView.setUint32(at + i, sourceView.getUint32(from + i, true), true);
  for (; i < n; i++) target[at + i] = source[from + i]!;
}

/** Whether every byte is ASCII (below 0x80): read one char per byte, such text is the same as read as UTF-8. */
function isAscii(bytes: Uint8Array): boolean {
  for (let i = 0; i < bytes.length; i++) if (bytes[i]! >= 0x80) return false;
  return true;
}

/** A buffer of at least `needed` bytes (twice the old one's at least), the first `used` copied from `buffer`. */
function grown(buffer: Buffer, used: number, needed: number): Buffer<ArrayBuffer> {
  const bigger = Buffer.allocUnsafe(Math.max(buffer.length * 2, needed));
  buffer.copy(bigger, 0, 0, used);
  return bigger;
}

/** A char JSON writes as itself inside a string: printable ASCII but the quote and the backslash. */
function plainInJson(c: number): boolean {
  return c >= 0x20 && c < 0x7f && c !== QUOTE && c !== BACKSLASH;
}

function sameKeys(shape: string[], keys: string[]): boolean {
  if (shape.length !== keys.length) return false;
  for (let i = 0; i < keys.length; i++) if (shape[i] !== keys[i]) return false;
  return true;
}

function hasDigit(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 48 && c <= 57) return true;
  }
  return false;
}
