// Deliberately broken values: 100 KB strings, unicode with lone surrogates and RTL marks,
// depth-1000 nesting, numbers where decimal strings belong, negative and over-scale amounts,
// extra fields, arrays for objects, null anywhere; the mutations that put them into a valid-ish
// body; and request bodies that are not JSON at all.
import fc from 'fast-check';

export const HUGE_STRING = 'Ω'.repeat(50 * 1024); // 100 KB of UTF-8
export const UNICODE_SAMPLES = [
  '\uD800', // lone high surrogate
  'abc\uDFFFdef', // lone low surrogate
  '\u202Egnp.exe', // right-to-left override
  '\u200F\u200E\u061C', // RTL / LTR / Arabic letter marks
  'a\u0000b', // NUL
  '\uFEFF', // BOM
  '\u0301\u0301\u0301', // combining marks alone
  '👩🏽‍💻🏳️‍🌈', // ZWJ sequences
  '١٢٣٫٤٥', // Arabic-Indic digits
  '１２３', // full-width digits
  'İıß\u212A', // case-mapping traps
  '\u2028\u2029', // JS line separators
  '<script>alert(1)</script>',
  "' OR 1=1 --",
  '${7*7}{{7*7}}',
  '../../etc/passwd',
];

export function nested(depth: number, kind: 'object' | 'array'): unknown {
  let value: unknown = 0;
  for (let i = 0; i < depth; i++) value = kind === 'object' ? { a: value } : [value];
  return value;
}

const DEEP_OBJECT = nested(1000, 'object');
const DEEP_ARRAY = nested(1000, 'array');

/** Amount-shaped strings that a DecimalString must refuse, and numbers where strings belong. */
export const BAD_AMOUNTS: unknown[] = [
  '-1.00',
  '-0',
  '1.001',
  '0.0000000000000000001',
  '1e5',
  '1E-3',
  ' 1.00',
  '1.00 ',
  '+1',
  '0x10',
  'NaN',
  'Infinity',
  '00.1',
  '1.',
  '.5',
  '1,00',
  '1_000',
  '123456789012345678901.5',
  1.5,
  100,
  0,
  -1,
  1e21,
  2 ** 53 + 1,
  Number.MAX_VALUE,
  Number.MIN_VALUE,
];

/** Anything that does not belong: for replacing a field, an element or the whole body. */
export const nastyValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.constant(null),
  fc.constantFrom(true, false, 0, -1, 3.14, '', 'x', [], {}, [null], { '': null }),
  fc.integer(),
  fc.double(),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.constantFrom(...UNICODE_SAMPLES),
  fc.constantFrom(...BAD_AMOUNTS),
  fc.constant(HUGE_STRING),
  fc.constant(DEEP_OBJECT),
  fc.constant(DEEP_ARRAY),
  fc.array(fc.jsonValue({ maxDepth: 2 }), { maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 6 }), fc.jsonValue({ maxDepth: 1 }), { maxKeys: 3 }),
);

const EXTRA_KEYS = [
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'hasOwnProperty',
  '',
  ' ',
  'id',
  'customerId',
  'status',
  '\uD800',
  '\u202Ekey',
  'a'.repeat(1000),
];

export type Mutation =
  | { kind: 'replace'; at: number; value: unknown }
  | { kind: 'delete'; at: number }
  | { kind: 'extra'; at: number; key: string; value: unknown }
  | { kind: 'root'; value: unknown }
  /** Every value in the body becomes null, the shape kept. */
  | { kind: 'nullify' }
  /** Every amount-like field (sourceAmount, targetAmount, amount) gets a bad amount. */
  | { kind: 'amounts'; value: unknown };

export const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('replace' as const), at: fc.nat(), value: nastyValue }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('delete' as const), at: fc.nat() }) },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('extra' as const),
      at: fc.nat(),
      key: fc.oneof(fc.constantFrom(...EXTRA_KEYS), fc.string({ maxLength: 10 })),
      value: nastyValue,
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('root' as const), value: nastyValue }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'nullify' as const }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('amounts' as const), value: fc.constantFrom(...BAD_AMOUNTS) }) },
);

const AMOUNT_FIELDS = new Set(['sourceAmount', 'targetAmount', 'amount']);

function mapDeep(value: unknown, leaf: (key: string, v: unknown) => unknown, key = ''): unknown {
  if (Array.isArray(value)) return value.map((item) => mapDeep(item, leaf, key));
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, mapDeep(v, leaf, k)]));
  return leaf(key, value);
}

/** Applies one mutation to a deep copy of a (JSON) value. */
export function mutate(value: unknown, m: Mutation): unknown {
  if (m.kind === 'root') return m.value;
  if (m.kind === 'nullify') return mapDeep(value, () => null);
  if (m.kind === 'amounts') return mapDeep(value, (key, v) => (AMOUNT_FIELDS.has(key) ? m.value : v));
  const copy = structuredClone(value);
  const holders: Array<{ parent: Record<string, unknown> | unknown[]; key: string | number }> = [];
  const objects: Array<Record<string, unknown>> = [];
  const walk = (node: unknown) => {
    if (Array.isArray(node)) node.forEach((item, i) => (holders.push({ parent: node, key: i }), walk(item)));
    else if (node && typeof node === 'object') {
      objects.push(node as Record<string, unknown>);
      for (const [key, item] of Object.entries(node)) {
        holders.push({ parent: node as Record<string, unknown>, key });
        walk(item);
      }
    }
  };
  walk(copy);
  if (m.kind === 'extra') {
    const target = objects[m.at % Math.max(objects.length, 1)];
    if (!target) return m.value;
    // defineProperty: `__proto__` becomes an own key, as JSON.parse makes it on the server.
    Object.defineProperty(target, m.key, { value: m.value, enumerable: true, configurable: true, writable: true });
    return copy;
  }
  const holder = holders[m.at % Math.max(holders.length, 1)];
  if (!holder) return m.kind === 'replace' ? m.value : null;
  if (m.kind === 'replace') (holder.parent as Record<string | number, unknown>)[holder.key] = m.value;
  else if (Array.isArray(holder.parent)) holder.parent.splice(holder.key as number, 1);
  else delete holder.parent[holder.key as string];
  return copy;
}

/** Request bodies that are not JSON at all, or not the JSON they claim to be. */
export const RAW_BODIES: Array<string | Buffer> = [
  '{',
  '{"a":}',
  "{'accountId': 1}",
  '\uFEFF{}',
  '{"a":1}{"b":2}',
  'nul',
  '['.repeat(100_000),
  `${'['.repeat(20_000)}${']'.repeat(20_000)}`,
  '{"a":"\\ud800"}',
  '{"a":"\\u0000"}',
  '{"__proto__":{"polluted":true}}',
  '{"constructor":{"prototype":{"polluted":true}}}',
  Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0xc3, 0x28, 0x22, 0x7d]), // invalid UTF-8 inside a string
  Buffer.from([0x00, 0x01, 0x02, 0x03]),
  '1e999999',
  '"just a string"',
  `{"a":${'1'.repeat(100_000)}}`,
];
