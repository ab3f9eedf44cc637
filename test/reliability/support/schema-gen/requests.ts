// The rest of a request: path segments that are not ids, query strings with good and bad values
// (filter expressions included), and the choice of headers (authorization, idempotency key,
// version, content type and encoding).
import fc from 'fast-check';
import { UNICODE_SAMPLES } from './broken';
import type { KnownBugs } from './types';

/** Percent-encodes every byte but the unreserved ones (works for lone surrogates too: they become U+FFFD). */
export function pct(text: string): string {
  let out = '';
  for (const byte of Buffer.from(text, 'utf8')) {
    const ch = String.fromCharCode(byte);
    out += /[A-Za-z0-9\-._~]/.test(ch) ? ch : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

/** Path segments that are not ids, already encoded for the request line. */
export function mangledSegment(bugs: KnownBugs): fc.Arbitrary<string> {
  const safe = fc.oneof(
    fc.constantFrom(
      '',
      'abc',
      '..',
      '.',
      '%2e%2e',
      '%2F',
      '%2F..%2F..',
      'null',
      'undefined',
      '0',
      '-1',
      '%00',
      '%20',
      '*',
      '%3Cscript%3E',
      '00000000-0000-0000-0000-000000000000',
      'ffffffff-ffff-ffff-ffff-ffffffffffff',
    ),
    fc.constant('x'.repeat(10_000)),
    fc.uuid().map((id) => `{${id}}`),
    fc.uuid().map((id) => id.toUpperCase()),
    fc.uuid().map((id) => `${id}%00`),
    fc.uuid().map((id) => `${id}/extra`),
    fc.uuid().map((id) => id.replace(/-/g, '')),
    fc.constantFrom(...UNICODE_SAMPLES).map(pct),
    fc.string({ unit: 'binary', maxLength: 20 }).map(pct),
  );
  return bugs.malformedPathEscapes ? fc.oneof(safe, fc.constantFrom('%', '%E0%A4%A', '%zz', '%C3%28', 'a%2')) : safe;
}

const FILTER_TOKENS = [
  'status',
  'eventType',
  'httpStatus',
  'retryAttempts',
  'createdAt',
  'messageId',
  'nope',
  'and(',
  'or(',
  'not(',
  '(',
  ')',
  ',',
  ';',
  '[eq]',
  '[ne]',
  '[gt]',
  '[gte]',
  '[lt]',
  '[lte]',
  '[in]',
  '[like]',
  '[',
  ']',
  '=',
  '"',
  '\\',
  '|',
  'FAILED',
  'SUCCESS',
  '500',
  '-1',
  '1e3',
  '2026-01-01T00:00:00Z',
  'not-a-date',
  'OPERATION_COMPLETED',
  ' ',
  '\uD800',
  '\u202E',
];

export const filterExpression: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    'status[eq]=FAILED',
    'or(httpStatus[gte]=500,httpStatus[eq]=0);createdAt[gte]=2025-03-10T00:00:00Z',
    'and(eventType[in]=OPERATION_COMPLETED|OPERATION_FAILED,retryAttempts[gt]=0)',
    'messageId[eq]="a;b"',
  ),
  fc.array(fc.constantFrom(...FILTER_TOKENS), { maxLength: 30 }).map((tokens) => tokens.join('')),
  // As deep as the 2048-character limit allows.
  fc.constant(`${'or('.repeat(400)}status[eq]=FAILED${')'.repeat(400)}`),
  fc.constant('x'.repeat(3000)),
);

/** Query strings: the list parameters with good and bad values, unknown and repeated keys. */
export function queryString(extraValues: string[]): fc.Arbitrary<string> {
  const value = fc.oneof(
    fc.constantFrom(
      '1',
      '3',
      '100',
      '0',
      '101',
      '-1',
      '1.5',
      '1e2',
      '',
      'abc',
      'NEXT',
      'PREVIOUS',
      'ASCENDING',
      'DESCENDING',
      'next',
      'x'.repeat(600),
    ),
    fc.constantFrom(...extraValues),
    filterExpression,
    fc.string({ unit: 'binary', maxLength: 20 }),
  );
  const key = fc.constantFrom(
    'limit',
    'cursor',
    'direction',
    'sortOrder',
    'filters',
    'limit',
    'cursor',
    '__proto__',
    'constructor',
    'limit[]',
    'limit[a]',
    'x',
    '',
  );
  return fc
    .array(fc.tuple(key, value), { maxLength: 5 })
    .map((pairs) => (pairs.length === 0 ? '' : `?${pairs.map(([k, v]) => `${pct(k)}=${pct(v)}`).join('&')}`));
}

export interface HeaderChoice {
  /** 'valid' (a real token), 'missing', or any other string, sent as the Authorization header. */
  auth: string;
  /** 'fresh' (a new key), 'missing', 'reused' (one key for every request), or any other string, sent as X-Idempotency-Key. */
  key: string;
  version: string | undefined;
  contentType: string;
  contentEncoding: string | undefined;
}

export function headerChoice(bugs: KnownBugs): fc.Arbitrary<HeaderChoice> {
  const encodings: Array<string | undefined> = ['identity', 'compress', 'x-unknown'];
  if (bugs.undecodableBodies) encodings.push('gzip', 'deflate', 'br');
  return fc.record({
    auth: fc.oneof(
      { weight: 12, arbitrary: fc.constant('valid') },
      {
        weight: 1,
        arbitrary: fc.constantFrom(
          'missing',
          'Bearer',
          'Bearer ',
          'Basic ZGVtbzpkZW1v',
          'Bearer a.b.c',
          'Bearer ..',
          'Bearer eyJhbGciOiJub25lIn0.eyJzdWIiOiJ4In0.',
          `Bearer ${'a'.repeat(8000)}.b.c`,
        ),
      },
    ),
    key: fc.oneof(
      { weight: 12, arbitrary: fc.constant('fresh') },
      {
        weight: 1,
        arbitrary: fc.constantFrom('missing', 'reused', '', 'not-a-uuid', 'x'.repeat(5000), '00000000-0000-0000-0000-000000000000'),
      },
    ),
    version: fc.oneof(
      { weight: 12, arbitrary: fc.constant(undefined) },
      { weight: 1, arbitrary: fc.constantFrom('1', '2', '', ' 1 ', '1.0', 'x'.repeat(40)) },
    ),
    contentType: fc.oneof(
      { weight: 12, arbitrary: fc.constant('application/json') },
      {
        weight: 1,
        arbitrary: fc.constantFrom(
          '',
          'text/plain',
          'application/x-www-form-urlencoded',
          'application/json; charset=latin1',
          'application/json; charset=utf-16',
          'application/merge-patch+json',
          'multipart/form-data; boundary=x',
          'APPLICATION/JSON',
          'application/json;;;',
          '*/*',
        ),
      },
    ),
    contentEncoding: fc.oneof({ weight: 20, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: fc.constantFrom(...encodings) }),
  });
}
