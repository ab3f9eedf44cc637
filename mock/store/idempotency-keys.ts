// Idempotency keys as the memory store keeps them for 24 h of mock time. A key is the customer's
// id and the client's key (`${customerId}:${key}`, mock/http/operation-route.ts), in practice two
// UUIDs: 73 chars, a 96-byte string on the heap per key, one and three quarters of them per stored
// operation. Two UUIDs are kept as their 32 bytes behind a marker (a 56-byte string); any other key
// as it is, escaped when it could be taken for a packed one. `unpackKey(packKey(k)) === k`.

const PACKED = 1;
const ESCAPED = '\u0002';
const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';
const UUID_PAIR = new RegExp(`^${UUID}:${UUID}$`);

export function packKey(key: string): string {
  if (key.length === 73 && UUID_PAIR.test(key)) {
    const bytes = Buffer.allocUnsafe(33);
    bytes[0] = PACKED;
    bytes.write(key.slice(0, 36).replaceAll('-', '') + key.slice(37).replaceAll('-', ''), 1, 'hex');
    // Read back as latin1: one flat string of 33 one-byte chars (a concatenation would be a rope).
    return bytes.toString('latin1');
  }
  const first = key.charCodeAt(0);
  return first === PACKED || key.startsWith(ESCAPED) ? ESCAPED + key : key;
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
