// Id → row of a record table. Every id the mock makes is a canonical UUID (randomUUID): those are
// kept as 16 bytes each in one buffer and found by open addressing in a typed array, so a
// million ids are two large arrays rather than a million strings and map entries (about 100
// bytes each). Any other id (fixtures, tests, imported snapshots) goes in an ordinary Map.

const EMPTY = 0;
const GONE = -1;
const HEX_CODES = [...'0123456789abcdef'].map((c) => c.charCodeAt(0));

export class IdIndex {
  /** The UUID of row r at r * 16; rows named by other ids leave their 16 bytes unused. */
  private bytes = new Uint8Array(16 * 64);
  /** Open addressing: row + 1, EMPTY, or GONE (a removed id: probing goes on past it). */
  private slots = new Int32Array(128);
  /** Slots not EMPTY (live and GONE): the table grows before probes get long. */
  private filled = 0;
  private readonly others = new Map<string, number>();
  private readonly otherIds = new Map<number, string>();
  private readonly scratch = new Uint8Array(16);
  /** A UUID's chars with hyphens in place, filled in by each idOf. */
  private readonly idChars = Buffer.from('00000000-0000-0000-0000-000000000000', 'latin1');
  private lastParsed = '';
  private lastWasUuid = false;
  private count = 0;

  get size(): number {
    return this.count;
  }

  get(id: string): number | undefined {
    if (!this.parse(id)) return this.others.get(id);
    const slot = this.find(this.scratch);
    return slot < 0 ? undefined : (this.slots[slot] as number) - 1;
  }

  /** Names `row` by `id`, which must be new here. */
  set(id: string, row: number): void {
    this.count++;
    if (!this.parse(id)) {
      this.others.set(id, row);
      this.otherIds.set(row, id);
      return;
    }
    // At half full (removed ids count until a rehash drops them), twice the room, or the same room
    // when most of what is filled was removed.
    if ((this.filled + 1) * 2 > this.slots.length)
      this.rehash(this.count * 4 > this.slots.length ? this.slots.length * 2 : this.slots.length);
    while ((row + 1) * 16 > this.bytes.length) {
      const bigger = new Uint8Array(this.bytes.length * 2);
      bigger.set(this.bytes);
      this.bytes = bigger;
    }
    this.bytes.set(this.scratch, row * 16);
    this.place(row);
  }

  delete(id: string): void {
    if (!this.parse(id)) {
      const row = this.others.get(id);
      if (row === undefined) return;
      this.others.delete(id);
      this.otherIds.delete(row);
      this.count--;
      return;
    }
    const slot = this.find(this.scratch);
    if (slot < 0) return;
    this.slots[slot] = GONE;
    this.count--;
  }

  /** The id of a row that has one. */
  idOf(row: number): string {
    const other = this.otherIds.get(row);
    if (other !== undefined) return other;
    // Written into one buffer and read as one flat string: the record codec asks this for every
    // record it decodes that refers to its own id.
    const chars = this.idChars;
    let at = 0;
    for (let i = 0; i < 16; i++) {
      if (i === 4 || i === 6 || i === 8 || i === 10) at++;
      const b = this.bytes[row * 16 + i] as number;
      chars[at++] = HEX_CODES[b >>> 4]!;
      chars[at++] = HEX_CODES[b & 15]!;
    }
    return chars.toString('latin1', 0, 36);
  }

  /** Reads a canonical UUID into `scratch`; false for any other id. The last id read is remembered (a get is often followed by a set). */
  private parse(id: string): boolean {
    if (id === this.lastParsed) return this.lastWasUuid;
    this.lastParsed = id;
    this.lastWasUuid = false;
    if (id.length !== 36) return false;
    let at = 0;
    for (let i = 0; i < 36; i++) {
      if (i === 8 || i === 13 || i === 18 || i === 23) {
        if (id.charCodeAt(i) !== 45) return false;
        continue;
      }
      const high = hexValue(id.charCodeAt(i));
      const low = hexValue(id.charCodeAt(++i));
      if (high < 0 || low < 0) return false;
      this.scratch[at++] = (high << 4) | low;
    }
    this.lastWasUuid = true;
    return true;
  }

  private hash(bytes: Uint8Array, offset: number): number {
    // FNV-1a over the 16 bytes: ids need not be random to spread.
    let h = 0x811c9dc5;
    for (let i = 0; i < 16; i++) h = Math.imul(h ^ (bytes[offset + i] as number), 0x01000193);
    return h >>> 0;
  }

  /** The slot holding `uuid`, or -1. */
  private find(uuid: Uint8Array): number {
    const mask = this.slots.length - 1;
    for (let slot = this.hash(uuid, 0) & mask; ; slot = (slot + 1) & mask) {
      const value = this.slots[slot] as number;
      if (value === EMPTY) return -1;
      if (value !== GONE && this.same(uuid, value - 1)) return slot;
    }
  }

  private same(uuid: Uint8Array, row: number): boolean {
    const base = row * 16;
    for (let i = 0; i < 16; i++) if (this.bytes[base + i] !== uuid[i]) return false;
    return true;
  }

  /** Puts a row whose UUID is in `bytes` into the first free slot of its probe. */
  private place(row: number): void {
    const mask = this.slots.length - 1;
    let slot = this.hash(this.bytes, row * 16) & mask;
    while (this.slots[slot] !== EMPTY) slot = (slot + 1) & mask;
    this.slots[slot] = row + 1;
    this.filled++;
  }

  private rehash(size: number): void {
    const old = this.slots;
    this.slots = new Int32Array(size);
    this.filled = 0;
    for (const value of old) if (value > 0) this.place(value - 1);
  }
}

/** 0 to 15 for a lowercase hex digit, -1 for anything else. */
function hexValue(code: number): number {
  if (code >= 48 && code <= 57) return code - 48;
  if (code >= 97 && code <= 102) return code - 87;
  return -1;
}
