// Idempotency keys as the memory store keeps them for 24 h of mock time. A key is the customer's
// id and the client's key (`${customerId}:${key}`, mock/http/operation-route.ts), in practice two
// UUIDs: 73 chars, a 96-byte string on the heap per key, one and three quarters of them per stored
// operation. Two UUIDs are kept as their 32 bytes behind a marker (a 56-byte string); any other key
// as it is, escaped when it could be taken for a packed one. `unpackKey(packKey(k)) === k`.

const PACKED = 1;
const ESCAPED = '\u0002';
/** A lowercase hex digit's value by char code; -1 for other chars below 128 (upper case too: packed keys are lowercase), none above. */
const HEX_VALUE = new Int8Array(128).fill(-1);
for (let i = 0; i < 16; i++) HEX_VALUE['0123456789abcdef'.charCodeAt(i)] = i;
/** The marker and 32 bytes of the key being packed (one array, reused: packing runs twice per idempotent request). */
const packed = new Array<number>(33);

export function packKey(key: string): string {
  if (key.length === 73 && packUuidPair(key)) {
    // One flat string of 33 one-byte chars (a concatenation would be a rope).
    return String.fromCharCode.apply(null, packed);
  }
  const first = key.charCodeAt(0);
  return first === PACKED || key.startsWith(ESCAPED) ? ESCAPED + key : key;
}

/** Fills `packed` from `uuid:uuid` (canonical lowercase UUIDs); false, half-filled, for anything else. */
function packUuidPair(key: string): boolean {
  if (key.charCodeAt(36) !== 58) return false;
  packed[0] = PACKED;
  let out = 1;
  for (let at = 0; at < 73;) {
    // The hyphens of each UUID (8-4-4-4-12) and the colon between them.
    const inUuid = at < 36 ? at : at - 37;
    if (inUuid === 8 || inUuid === 13 || inUuid === 18 || inUuid === 23) {
      if (key.charCodeAt(at) !== 45) return false;
      at++;
      continue;
    }
    if (at === 36) {
      at++;
      continue;
    }
    const high = HEX_VALUE[key.charCodeAt(at)] ?? -1;
    const low = HEX_VALUE[key.charCodeAt(at + 1)] ?? -1;
    if (high < 0 || low < 0) return false;
    packed[out++] = (high << 4) | low;
    at += 2;
  }
  return true;
}

export function unpackKey(kept: string): string {
  if (kept.startsWith(ESCAPED)) return kept.slice(1);
  if (!isPackedKey(kept)) return kept;
  const hex = Buffer.from(kept.slice(1), 'latin1').toString('hex');
  return `${uuid(hex.slice(0, 32))}:${uuid(hex.slice(32))}`;
}

function uuid(hex: string): string {
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** Whether a kept key is two UUIDs packed (a marker and their 32 bytes): an escaped key never is. */
export function isPackedKey(kept: string): boolean {
  return kept.length === 33 && kept.charCodeAt(0) === PACKED;
}
