// "Valid-ish" values from the API document's JSON schemas: the schema's types, enums,
// x-extensible-enum, formats, required fields and oneOf branches, with real ids from the running
// mock where a uuid names an account, quote, beneficiary...
import fc from 'fast-check';
import { deref, isObject, type Json, type JsonObject, type OpenApiDocument } from '../../../../spec/contract/document';
import type { OperationContract } from '../../../../spec/contract';
import type { KnownBugs, Pools } from './types';

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
