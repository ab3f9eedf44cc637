// Idempotency keys as the memory store keeps them for 24 h of mock time. A key is the customer's
// id and the client's key (`${customerId}:${key}`, mock/http/operation-route.ts), in practice two
// UUIDs: 73 chars, a 96-byte string on the heap per key, one and three quarters of them per stored
// operation. Two UUIDs are kept as their 32 bytes behind a marker (a 56-byte string); any other key
// as it is, escaped when it could be taken for a packed one. `unpackKey(packKey(k)) === k`.

import { latin1Text } from './buffer-text';
import { readUuid } from './uuid-bytes';

const PACKED = 1;
const ESCAPED = '\u0002';
/** The marker and 32 bytes of the key being packed (one array, reused: every idempotent request packs its key). */
const packed = Buffer.alloc(33);

/** The key packed last and its packed form: a request's key is packed to claim it and again to complete it. */
let lastKey = '';
let lastPacked = '';

export function packKey(key: string): string {
  if (key === lastKey) return lastPacked;
  if (key.length === 73 && packUuidPair(key)) {
    // One flat string of 33 one-byte chars (a concatenation would be a rope), by Buffer's own latin1 reader.
    lastPacked = latin1Text(packed, 0, 33);
    lastKey = key;
    return lastPacked;
  }
  const first = key.charCodeAt(0);
  return first === PACKED || key.startsWith(ESCAPED) ? ESCAPED + key : key;
}

/** Fills `packed` from `uuid:uuid` (canonical lowercase UUIDs); false, half-filled, for anything else. */
function packUuidPair(key: string): boolean {
  if (key.charCodeAt(36) !== 58) return false;
  packed[0] = PACKED;
  return readUuid(key, 0, packed, 1) && readUuid(key, 37, packed, 17);
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
