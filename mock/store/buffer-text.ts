// Text from a Buffer's bytes by Buffer's own readers, without toString's argument handling
// (undocumented, stable since Node 0.x): the record codec, its instants and packed idempotency
// keys make a string from reused buffers on every record, so that handling showed in profiles.
// Also the one DataView over a Buffer's bytes (viewOf), that those writers store through.

interface Slicers {
  latin1Slice(start: number, end: number): string;
  utf8Slice(start: number, end: number): string;
}

/** One char per byte (Latin-1), as one flat string. */
export function latin1Text(buffer: Buffer, start: number, end: number): string {
  return (buffer as unknown as Slicers).latin1Slice(start, end);
}

/** The bytes as UTF-8 (the codec's JSON may go beyond Latin-1). */
export function utf8Text(buffer: Buffer, start: number, end: number): string {
  return (buffer as unknown as Slicers).utf8Slice(start, end);
}

/**
 * The DataView over the bytes of `buffer` (a Buffer may be a slice of a larger ArrayBuffer): the
 * codec's JSON, UUIDs and instants are written through one, several bytes to a store.
 */
export function viewOf(buffer: Buffer): DataView {
  return new DataView(buffer.buffer, buffer.byteOffset, buffer.byteLength);
}
