// Canonical UUIDs (lowercase, 8-4-4-4-12: what randomUUID makes) as their 16 bytes: record ids
// (id-index.ts), ids inside kept records (record-codec.ts) and idempotency keys of two UUIDs
// (idempotency-keys.ts) are kept so. One reader, checked as it reads: a pattern test first would
// read each text twice; one writer of the text back.

/** Each hex digit's char code, by value: a byte is written back as two of these. */
const HEX_CODES = [...'0123456789abcdef'].map((c) => c.charCodeAt(0));

/** A lowercase hex digit's value by char code; -1 for any other char below 128 (none above). */
const HEX_VALUE = new Int8Array(128).fill(-1);
for (let i = 0; i < 16; i++) HEX_VALUE[HEX_CODES[i]!] = i;

/**
 * Reads the canonical UUID at `from` in `text` (36 chars from there) into `into` at `at` (16
 * bytes); false for anything else, with `into` possibly part written.
 */
export function readUuid(text: string, from: number, into: Uint8Array, at: number): boolean {
  for (let i = 0; i < 36; i += 2) {
    // The hyphens stand at 8, 13, 18 and 23; the digits after each start a byte at an odd place.
    if (i === 8 || i === 13 || i === 18 || i === 23) {
      if (text.charCodeAt(from + i) !== 45) return false;
      i--;
      continue;
    }
    const high = HEX_VALUE[text.charCodeAt(from + i)] ?? -1;
    const low = HEX_VALUE[text.charCodeAt(from + i + 1)] ?? -1;
    if (high < 0 || low < 0) return false;
    into[at++] = (high << 4) | low;
  }
  return true;
}

/**
 * Each byte's two hex digits as one 16-bit number, the first digit in the low byte: two of them
 * make a 32-bit number that a little-endian store writes in the digits' order.
 */
const HEX_PAIRS = new Uint16Array(256);
for (let b = 0; b < 256; b++) HEX_PAIRS[b] = HEX_CODES[b >>> 4]! | (HEX_CODES[b & 15]! << 8);

/**
 * Writes the 16 bytes at `from` in `bytes` as the canonical UUID's 36 chars (hyphens in place) at
 * `at` in the bytes `view` covers; answers where the writing ended. Into a buffer, so that the
 * caller reads one flat string from it (a `+=` chain would be a rope of small strings, several
 * times larger). Two bytes' four digits to a store: the record codec's JSON writes the UUIDs of
 * every record listed from a large store (seven in an operation), and eight stores and the
 * hyphens cost far less than forty.
 */
export function writeUuid(bytes: Uint8Array, from: number, view: DataView, at: number): number {
  // 8-4-4-4-12 digits: bytes 0-3, 4-5, 6-7, 8-9, 10-15.
  view.setUint32(at, fourDigits(bytes, from), true);
  view.setUint32(at + 4, fourDigits(bytes, from + 2), true);
  view.setUint8(at + 8, 45);
  view.setUint32(at + 9, fourDigits(bytes, from + 4), true);
  view.setUint8(at + 13, 45);
  view.setUint32(at + 14, fourDigits(bytes, from + 6), true);
  view.setUint8(at + 18, 45);
  view.setUint32(at + 19, fourDigits(bytes, from + 8), true);
  view.setUint8(at + 23, 45);
  view.setUint32(at + 24, fourDigits(bytes, from + 10), true);
  view.setUint32(at + 28, fourDigits(bytes, from + 12), true);
  view.setUint32(at + 32, fourDigits(bytes, from + 14), true);
  return at + 36;
}

/** The four hex digits of the two bytes at `i`, as a little-endian 32-bit number (the first digit lowest). */
function fourDigits(bytes: Uint8Array, i: number): number {
  // Each pair is below 0x8000 (digits are ASCII), so the shift stays a positive 32-bit number.
  return HEX_PAIRS[bytes[i]!]! | (HEX_PAIRS[bytes[i + 1]!]! << 16);
}
