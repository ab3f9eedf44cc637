// `fixtures pull --mask`: personal data replaced consistently. The same value always masks to the
// same result (an HMAC of it, keyed by --mask-key), so a name, tax id or PIX key that appears in
// two records still matches across them, and a second pull masks alike. Each character keeps its
// class - a digit stays a digit, a letter a letter of the same case - so formats (CPF and CNPJ
// lengths, postal codes, e-mail shape) still pass the document's patterns; UUID keys stay UUIDs.
import { createHmac } from 'node:crypto';

/** Fields holding a person's or company's data; `state` and `country` (codes the document lists) are kept. */
const PERSONAL = new Set([
  'legalName',
  'name',
  'firstName',
  'lastName',
  'counterparty',
  'addressLine1',
  'addressLine2',
  'city',
  'postalCode',
  'phone',
  'email',
  'dictKey',
]);
/** Objects whose `value` is a document number. */
const DOCUMENTS = new Set(['taxId', 'identificationDocument']);
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function masker(key: string): (value: string) => string {
  return (value) => {
    const digest = createHmac('sha256', key).update(value).digest();
    const byte = (i: number) => digest[i % digest.length] as number;
    if (UUID.test(value)) {
      const hex = createHmac('sha256', key).update(`uuid:${value}`).digest('hex');
      return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
    }
    const email = /^([^@]+)@(.+)$/.exec(value);
    if (email) return `${masker(key)(email[1] as string)}@example.com`;
    return [...value]
      .map((c, i) => {
        if (/[0-9]/.test(c)) return String(byte(i) % 10);
        if (/[a-z]/.test(c)) return String.fromCharCode(97 + (byte(i) % 26));
        if (/[A-Z]/.test(c)) return String.fromCharCode(65 + (byte(i) % 26));
        if (/\p{L}/u.test(c)) return String.fromCharCode(97 + (byte(i) % 26));
        return c;
      })
      .join('');
  };
}

/** A copy of a record with its personal fields masked. */
export function maskRecord<T>(record: T, mask: (value: string) => string): T {
  const walk = (value: unknown, parent?: string): unknown => {
    if (Array.isArray(value)) return value.map((item) => walk(item, parent));
    if (value === null || typeof value !== 'object') return value;
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => {
        const personal = PERSONAL.has(key) || (key === 'value' && parent !== undefined && DOCUMENTS.has(parent));
        return [key, personal && typeof item === 'string' ? mask(item) : walk(item, key)];
      }),
    );
  };
  return walk(record) as T;
}
