// A UUID named by a string (version 5, RFC 9562 §5.5: SHA-1 of a namespace and the name): the
// same name gives the same id in every process, so a delivery queued again under the same name
// is recognised as the same message.
import { createHash } from 'node:crypto';

/** This mock's namespace for its message ids (a random UUID, fixed once). */
const NAMESPACE = Buffer.from('6f1c2b9e4d3a47c8a1e05b7d9f2c3e41', 'hex');

export function stableUuid(name: string): string {
  const hash = createHash('sha1').update(NAMESPACE).update(name, 'utf8').digest();
  hash[6] = ((hash[6] as number) & 0x0f) | 0x50; // version 5
  hash[8] = ((hash[8] as number) & 0x3f) | 0x80; // RFC variant
  const hex = hash.subarray(0, 16).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}
