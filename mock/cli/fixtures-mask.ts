// `fixtures pull --mask`: personal data replaced consistently. The same value always masks to the
// same result (an HMAC of it, keyed by --mask-key), so a name, tax id or PIX key that appears in
// two records still matches across them, and a second pull masks alike. Each character keeps its
// class - a digit stays a digit, a letter a letter of the same case - so formats (CPF and CNPJ
// lengths, postal codes, e-mail shape) still pass the document's patterns; UUID keys stay UUIDs.
// A CPF or CNPJ is then given the check digits of its new number, so a client that validates them
// (as Brazilian integrations do) accepts the masked fixtures.
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
    const document = parent !== undefined && DOCUMENTS.has(parent);
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => {
        if (typeof item === 'string' && key === 'value' && document)
          return [key, withCheckDigits(mask(item), (value as { type?: unknown }).type)];
        return [key, PERSONAL.has(key) && typeof item === 'string' ? mask(item) : walk(item, key)];
      }),
    );
  };
  return walk(record) as T;
}

/**
 * Receita Federal's rules: a CPF is 9 digits and 2 check digits; a CNPJ 12 characters (digits, or
 * capital letters in the alphanumeric CNPJ issued from July 2026) and 2 check digits. Each check
 * digit is modulo 11 of the characters before it, weighted from the right 2, 3, 4, … (a CNPJ's
 * weights run 2 to 9 and start again).
 */
const TAX_DOCUMENTS = new Map<unknown, { base: number; cycle: number; counted: RegExp }>([
  ['CPF', { base: 9, cycle: 10, counted: /[0-9]/ }],
  ['CNPJ', { base: 12, cycle: 8, counted: /[0-9A-Z]/ }],
]);

/** A check digit: a character counts its code less 48 (a digit its value, `A` 17). */
function checkDigit(chars: string, cycle: number): string {
  let sum = 0;
  for (let i = 0; i < chars.length; i++) sum += (chars.charCodeAt(i) - 48) * (2 + ((chars.length - 1 - i) % cycle));
  const rest = sum % 11;
  return String(rest < 2 ? 0 : 11 - rest);
}

/**
 * A CPF's or CNPJ's number with the check digits its other characters call for, punctuation
 * (`123.456.789-09`, `12.345.678/0001-95`) where it was; any other document, or a value not of
 * its type's shape, as it is.
 */
export function withCheckDigits(value: string, type: unknown): string {
  const rule = TAX_DOCUMENTS.get(type);
  if (!rule) return value;
  const chars = [...value];
  const at = chars.flatMap((c, i) => (rule.counted.test(c) ? [i] : []));
  const [first, second] = at.slice(rule.base);
  if (at.length !== rule.base + 2 || !/[0-9]/.test(chars[first!]!) || !/[0-9]/.test(chars[second!]!)) return value;
  const base = at
    .slice(0, rule.base)
    .map((i) => chars[i])
    .join('');
  chars[first!] = checkDigit(base, rule.cycle);
  chars[second!] = checkDigit(base + chars[first!], rule.cycle);
  return chars.join('');
}
