// Id → row of a record table. Every id the mock makes is a canonical UUID (randomUUID): those are
// kept as 16 bytes each and found by open addressing (byte-key-slots.ts), so a million ids are two
// large arrays rather than a million strings and map entries (about 100 bytes each). Any other id
// (fixtures, tests, imported snapshots) goes in an ordinary Map.
import { viewOf } from './buffer-text';
import { ByteKeySlots } from './byte-key-slots';
import { readUuid, writeUuid } from './uuid-bytes';

export class IdIndex {
  /** Each UUID id as its 16 bytes, naming its row. */
  private readonly uuids = new ByteKeySlots(16);
  private readonly others = new Map<string, number>();
  private readonly otherIds = new Map<number, string>();
  private readonly scratch = new Uint8Array(16);
  /** A UUID's 36 chars, written whole (hyphens too) by writeUuid in each idOf. */
  private readonly idChars = Buffer.alloc(36);
  private readonly idCharsView = viewOf(this.idChars);
  private lastParsed = '';
  private lastWasUuid = false;
  private count = 0;

  get size(): number {
    return this.count;
  }

  get(id: string): number | undefined {
    if (!this.parse(id)) return this.others.get(id);
    const row = this.uuids.find(this.scratch);
    return row < 0 ? undefined : row;
  }

  /** Names `row` by `id`, which must be new here. */
  set(id: string, row: number): void {
    this.count++;
    if (!this.parse(id)) {
      this.others.set(id, row);
      this.otherIds.set(row, id);
      return;
    }
    this.uuids.add(row, this.scratch);
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
    if (this.uuids.remove(this.scratch) >= 0) this.count--;
  }

  /** The id of a row that has one. */
  idOf(row: number): string {
    const other = this.otherIds.get(row);
    if (other !== undefined) return other;
    // Written into one buffer and read as one flat string: the record codec asks this for every
    // record it decodes that refers to its own id.
    writeUuid(this.uuids.keyOf(row), 0, this.idCharsView, 0);
    return this.idChars.toString('latin1', 0, 36);
  }

  /** Reads ahead what copyUuid of `row` reads (record-table.ts, warm). */
  warm(row: number): number {
    return this.uuids.warm(row);
  }

  /**
   * The UUID id of a row into `into` as its 16 bytes; false (nothing written) when the row's id is
   * other text. The record codec writes a record's own id into JSON from these, with no string.
   */
  copyUuid(row: number, into: Uint8Array): boolean {
    if (this.otherIds.size > 0 && this.otherIds.has(row)) return false;
    this.uuids.copyKey(row, into);
    return true;
  }

  /** Reads a canonical UUID into `scratch`; false for any other id. The last id read is remembered (a get is often followed by a set). */
  private parse(id: string): boolean {
    if (id === this.lastParsed) return this.lastWasUuid;
    this.lastParsed = id;
    this.lastWasUuid = false;
    if (id.length !== 36 || !readUuid(id, 0, this.scratch, 0)) return false;
    this.lastWasUuid = true;
    return true;
  }
}
