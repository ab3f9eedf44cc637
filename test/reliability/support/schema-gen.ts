// fast-check arbitraries derived from the API document's JSON schemas: "valid-ish" values (the
// schema's types, enums, x-extensible-enum, formats, required fields and oneOf branches, with
// real ids from the running mock where a uuid names an account, quote, beneficiary...) and
// deliberately broken ones (wrong types, missing required fields, 100 KB strings, unicode with
// lone surrogates and RTL marks, depth-1000 nesting, numbers where decimal strings belong,
// negative and over-scale amounts, extra fields, arrays for objects, null anywhere).
import fc from 'fast-check';
import { deref, isObject, type Json, type JsonObject, type OpenApiDocument } from '../../../spec/contract/document';
import type { OperationContract } from '../../../spec/contract';

/** Real ids and values of the running mock, so generated requests reach past "not found". */
export interface Pools {
  accounts: string[];
  quotes: string[];
  operations: string[];
  beneficiaries: string[];
  /** The fuzzing customer's own beneficiaries (withdrawals to them can succeed). */
  ownBeneficiaries: string[];
  instructions: string[];
  subscriptions: string[];
  /** Subscriptions the fuzzed DELETE may remove, so the others stay for the other operations. */
  disposableSubscriptions: string[];
  executionLogs: string[];
  /** Quotes with the account they were made for: bodies that name both get past the account check. */
  quotePairs: Array<{ quoteId: string; accountId: string }>;
  clients: Array<{ clientId: string; clientSecret: string }>;
  urls: string[];
}

/** Bug switches: inputs that trip known mock bugs are left out of the general fuzz unless asked for. */
export interface KnownBugs {
  /** Amounts whose converted value overflows the 20 integer digits of DecimalString (bug: 500 instead of 4xx). */
  overflowingAmounts: boolean;
  /** Malformed percent-escapes in a path segment (bug: 500 instead of 400). */
  malformedPathEscapes: boolean;
  /** A Content-Encoding whose body does not decode (bug: 500 instead of 400). */
  undecodableBodies: boolean;
}

const MAX_DEPTH = 10;
const MAX_STRING = 40;

export class SchemaGen {
  constructor(
    private readonly doc: OpenApiDocument,
    private readonly pools: Pools,
    private readonly bugs: KnownBugs,
  ) {}

  /** The JSON request-body schema of an operation, if it has one. */
  bodySchema(op: OperationContract): Json | undefined {
    const item = deref(this.doc, this.doc.paths[op.path]) as JsonObject;
    const operation = item[op.method] as JsonObject;
    const body = deref(this.doc, operation.requestBody) as JsonObject | undefined;
    const media = isObject(body?.content) ? (body.content['application/json'] as JsonObject | undefined) : undefined;
    return media?.schema;
  }

  /** A value that follows the schema's shape (it may still break a rule the schema cannot say). */
  validish(schemaIn: Json | undefined, name = '', depth = 0): fc.Arbitrary<unknown> {
    const schema = deref(this.doc, schemaIn);
    if (!isObject(schema) || depth > MAX_DEPTH) return fc.constant({});
    if ('const' in schema) return fc.constant(schema.const);
    if (Array.isArray(schema.enum)) return fc.constantFrom(...(schema.enum as unknown[]));
    if (Array.isArray(schema.oneOf) || Array.isArray(schema.anyOf)) return this.branches(schema, name, depth);
    if (Array.isArray(schema.type)) {
      const types = schema.type as string[];
      return fc.oneof(...types.map((type) => this.validish({ ...schema, type }, name, depth)));
    }
    switch (schema.type) {
      case 'string':
        return this.string(schema, name);
      case 'integer':
        return fc.integer({ min: numberOr(schema.minimum, -5), max: numberOr(schema.maximum, 1000) });
      case 'number':
        return fc.double({ min: numberOr(schema.minimum, -5), max: numberOr(schema.maximum, 1000), noNaN: true, noDefaultInfinity: true });
      case 'boolean':
        return fc.boolean();
      case 'null':
        return fc.constant(null);
      case 'array':
        return this.array(schema, name, depth);
      case 'object':
        return this.object(schema, depth);
      default:
        if (isObject(schema.properties)) return this.object(schema, depth);
        return fc.jsonValue({ maxDepth: 2 });
    }
  }

  private branches(schema: JsonObject, name: string, depth: number): fc.Arbitrary<unknown> {
    const list = (schema.oneOf ?? schema.anyOf) as Json[];
    const { oneOf: _o, anyOf: _a, discriminator: _d, ...base } = schema;
    // `required`-only fragments (QuoteCreate: exactly one of sourceAmount / targetAmount) narrow the base schema.
    const fragments = list.every((b) => isObject(b) && b.$ref === undefined && b.type === undefined);
    if (fragments && (base.properties !== undefined || base.type !== undefined)) {
      return fc.oneof(
        ...list.map((fragment) => {
          const f = fragment as JsonObject;
          const required = [...((base.required as string[]) ?? []), ...((f.required as string[]) ?? [])];
          // The other branches' fields are left out, so exactly one branch holds.
          const others = list.flatMap((b) => (b === fragment ? [] : (((b as JsonObject).required as string[]) ?? [])));
          const properties = Object.fromEntries(
            Object.entries((base.properties as JsonObject) ?? {}).filter(([key]) => !others.includes(key)),
          );
          return this.validish({ ...base, properties, required }, name, depth);
        }),
      );
    }
    return fc.oneof(...list.map((branch) => this.validish(branch, name, depth + 1)));
  }

  private string(schema: JsonObject, name: string): fc.Arbitrary<string> {
    const known = schema['x-extensible-enum'];
    if (Array.isArray(known))
      return fc.oneof(
        { weight: 9, arbitrary: fc.constantFrom(...(known as string[])) },
        { weight: 1, arbitrary: fc.string({ maxLength: 12 }) },
      );
    const pooled = this.pooledString(name);
    if (pooled) return pooled;
    switch (schema.format) {
      case 'uuid':
        return this.uuid(name);
      case 'date':
        return isoDate.map((d) => d.slice(0, 10));
      case 'date-time':
        return isoDate;
      case 'uri':
        return fc.constantFrom(...this.pools.urls);
      case 'email':
        return fc.stringMatching(/^[a-z]{1,12}\.[a-z]{1,8}@[a-z]{2,10}\.com\.br$/);
    }
    if (typeof schema.pattern === 'string') {
      if (schema.pattern.includes('[0-9]{0,19}')) return this.decimal();
      const max = Math.min(numberOr(schema.maxLength, MAX_STRING), MAX_STRING);
      return fc.stringMatching(new RegExp(schema.pattern)).filter((s) => s.length >= numberOr(schema.minLength, 0) && s.length <= max);
    }
    const minLength = numberOr(schema.minLength, 0);
    const maxLength = Math.max(minLength, Math.min(numberOr(schema.maxLength, MAX_STRING), MAX_STRING));
    return fc.string({ minLength, maxLength, unit: 'grapheme' });
  }

  /** Strings that name something the mock knows: credentials, PIX keys, beneficiary references. */
  private pooledString(name: string): fc.Arbitrary<string> | undefined {
    switch (name) {
      case 'clientId':
        return fc.oneof(fc.constantFrom(...this.pools.clients.map((c) => c.clientId)), fc.string({ minLength: 1, maxLength: 20 }));
      case 'clientSecret':
        return fc.oneof(fc.constantFrom(...this.pools.clients.map((c) => c.clientSecret)), fc.string({ minLength: 1, maxLength: 20 }));
      case 'dictKey':
        return fc.oneof(
          fc.constantFrom('ana@example.com.br', '+5521987654321', '52998224725', '123e4567-e89b-42d3-a456-426614174000'),
          fc.string({ minLength: 1, maxLength: 77 }),
        );
      case 'beneficiary.id':
        return fc.oneof(
          { weight: 4, arbitrary: fc.constantFrom(...this.pools.ownBeneficiaries) },
          { weight: 1, arbitrary: fc.constantFrom(...this.pools.beneficiaries) },
          { weight: 1, arbitrary: fc.uuid() },
        );
      default:
        return undefined;
    }
  }

  /** A uuid: usually a real id of the kind the field names, sometimes one nobody has. */
  uuid(name: string): fc.Arbitrary<string> {
    const pool = this.poolFor(name);
    return pool.length > 0 ? fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...pool) }, { weight: 1, arbitrary: fc.uuid() }) : fc.uuid();
  }

  poolFor(name: string): string[] {
    const p = this.pools;
    switch (name) {
      case 'accountId':
      case 'targetAccountId':
        return p.accounts;
      case 'quoteId':
        return p.quotes;
      case 'operationId':
        return p.operations;
      case 'beneficiaryId':
        return p.beneficiaries;
      case 'subscriptionId':
        return p.subscriptions;
      case 'disposableSubscriptionId':
        return p.disposableSubscriptions;
      case 'executionLogId':
        return p.executionLogs;
      default:
        return [...p.accounts, ...p.quotes, ...p.beneficiaries];
    }
  }

  /** Decimal strings as DecimalString allows them: zero, over-scale, and large (bounded unless the overflow bug is asked for). */
  decimal(): fc.Arbitrary<string> {
    const intDigits = this.bugs.overflowingAmounts ? 19 : 17;
    const int = fc.oneof(
      fc.constantFrom('0', '1', '10', '100', '2500', '25000'),
      fc.stringMatching(new RegExp(`^[1-9][0-9]{0,${intDigits}}$`)),
    );
    const frac = fc.option(fc.stringMatching(/^[0-9]{1,8}$/), { nil: undefined });
    return fc.oneof(
      { weight: 2, arbitrary: fc.constantFrom('1.00', '0.01', '10.50', '100.00', '2500.00', '0.000001', '1.5', '0.00') },
      { weight: 3, arbitrary: fc.tuple(int, frac).map(([i, f]) => (f === undefined ? i : `${i}.${f}`)) },
    );
  }

  private array(schema: JsonObject, name: string, depth: number): fc.Arbitrary<unknown[]> {
    const items = this.validish(schema.items, name, depth + 1);
    const minLength = numberOr(schema.minItems, 0);
    const maxLength = Math.max(minLength, Math.min(numberOr(schema.maxItems, 3), 3));
    return schema.uniqueItems === true
      ? fc.uniqueArray(items, { minLength, maxLength, selector: (v) => JSON.stringify(v) })
      : fc.array(items, { minLength, maxLength });
  }

  private object(schema: JsonObject, depth: number): fc.Arbitrary<Record<string, unknown>> {
    const properties = isObject(schema.properties) ? schema.properties : {};
    // `if / else: required` (SubscriptionCreate: resources unless includeAll) counts as required.
    const elseRequired = isObject(schema.else) && Array.isArray(schema.else.required) ? (schema.else.required as string[]) : [];
    const required = new Set([...((schema.required as string[]) ?? []), ...elseRequired]);
    const model: Record<string, fc.Arbitrary<unknown>> = {};
    for (const [key, sub] of Object.entries(properties)) {
      // BeneficiaryReference.id is a plain string that names a beneficiary.
      const name = key === 'id' && properties.mode !== undefined ? 'beneficiary.id' : key;
      model[key] = this.validish(sub, name, depth + 1);
    }
    if (Object.keys(model).length === 0) {
      return schema.additionalProperties === true
        ? fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 1 }), { maxKeys: 3 })
        : fc.constant({});
    }
    let arb = fc.record(model, { requiredKeys: Object.keys(model).filter((key) => required.has(key)) });
    if (model.accountId && model.quoteId && this.pools.quotePairs.length > 0) {
      const pair = fc.option(fc.constantFrom(...this.pools.quotePairs), { freq: 3, nil: undefined });
      arb = fc.tuple(arb, pair).map(([value, p]) => (p ? { ...value, accountId: p.accountId, quoteId: p.quoteId } : value));
    }
    const minProperties = numberOr(schema.minProperties, 0);
    return minProperties > 0 ? arb.filter((value) => Object.keys(value).length >= minProperties) : arb;
  }
}

function numberOr(value: Json | undefined, fallback: number): number {
  return typeof value === 'number' ? value : fallback;
}

const isoDate = fc
  .date({ min: new Date('1950-01-01T00:00:00Z'), max: new Date('2035-12-31T00:00:00Z'), noInvalidDate: true })
  .map((d) => d.toISOString());

// ---------------------------------------------------------------- broken values

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

// ---------------------------------------------------------------- paths, queries, headers

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
