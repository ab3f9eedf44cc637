// Strict mode closes object schemas with `unevaluatedProperties: false` (spec/contract/schema-transform.ts):
// an unknown field is reported wherever it hides, inside composed schemas too, while conditions and
// branches keep their meaning, so the document can write them plainly.
import Ajv2020 from 'ajv/dist/2020';
import { describe, expect, it } from '@jest/globals';
import type { Json, JsonObject } from '../../spec/contract/document';
import { closeObjects } from '../../spec/contract/schema-transform';
import { contract } from '../http/harness';

function strict(schema: JsonObject): (value: unknown) => boolean {
  const validate = new Ajv2020({ strict: false, allErrors: true }).compile(closeObjects(schema) as object);
  return (value) => validate(value);
}

const fields = (result: { errors: Array<{ field: string }>; drift: Array<{ field: string }> }) => ({
  errors: result.errors.map((e) => e.field),
  drift: result.drift.map((e) => e.field),
});

describe('closing object schemas', () => {
  it('closes an object schema with unevaluatedProperties, and leaves open ones and maps alone', () => {
    const closed = closeObjects({
      type: 'object',
      properties: { a: { type: 'object', properties: { b: { type: 'string' } } }, open: { type: 'object', additionalProperties: true } },
    }) as JsonObject;
    expect(closed.unevaluatedProperties).toBe(false);
    expect(closed.additionalProperties).toBeUndefined();
    const properties = closed.properties as Record<string, JsonObject>;
    expect(properties.a!.unevaluatedProperties).toBe(false);
    expect(properties.open!.unevaluatedProperties).toBeUndefined();
  });

  it('an if/then/else schema accepts the fields its branches declare and refuses others', () => {
    const check = strict({
      type: 'object',
      required: ['url'],
      properties: { url: { type: 'string' }, kind: { type: 'string' } },
      if: { type: 'object', required: ['kind'], properties: { kind: { const: 'A' } } },
      then: { type: 'object', properties: { a: { type: 'integer' } } },
      else: { type: 'object', required: ['b'], properties: { b: { type: 'integer' } } },
    });
    expect(check({ url: 'x', kind: 'A', a: 1 })).toBe(true);
    expect(check({ url: 'x', kind: 'B', b: 1 })).toBe(true);
    // The `if` is not closed: other fields do not turn the condition false.
    expect(check({ url: 'x', kind: 'A' })).toBe(true);
    expect(check({ url: 'x', kind: 'A', b: 1 })).toBe(false);
    expect(check({ url: 'x', kind: 'B', b: 1, a: 1 })).toBe(false);
    expect(check({ url: 'x', kind: 'A', a: 1, unknown: true })).toBe(false);
  });

  it('allOf and oneOf branches are closed by the schema that holds them', () => {
    const check = strict({
      type: 'object',
      properties: { id: { type: 'string' } },
      allOf: [{ type: 'object', properties: { x: { type: 'integer' } } }],
      oneOf: [
        { type: 'object', required: ['p'], properties: { p: { type: 'integer' } } },
        { type: 'object', required: ['q'], properties: { q: { type: 'integer' } } },
      ],
    });
    expect(check({ id: 'i', x: 1, p: 1 })).toBe(true);
    expect(check({ id: 'i', x: 1, q: 1 })).toBe(true);
    // q is declared only by the branch that did not match: unevaluated, so refused.
    expect(check({ id: 'i', p: 1, q: 'not an integer' })).toBe(false);
    expect(check({ id: 'i', p: 1, unknown: true })).toBe(false);
  });

  it('the variants of an open oneOf are closed on their own, a `not` is left as written', () => {
    const variants = strict({
      oneOf: [
        { type: 'object', required: ['p'], properties: { p: { type: 'integer' } } },
        { type: 'object', required: ['q'], properties: { q: { type: 'integer' } } },
      ],
    });
    expect(variants({ p: 1 })).toBe(true);
    expect(variants({ p: 1, unknown: true })).toBe(false);
    // A closed `not` would accept more: {a, b, c} must stay refused.
    const notBoth = strict({
      type: 'object',
      properties: { a: {}, b: {}, c: {} },
      not: { type: 'object', required: ['a', 'b'], properties: { a: {}, b: {} } },
    });
    expect(notBoth({ a: 1, c: 1 })).toBe(true);
    expect(notBoth({ a: 1, b: 1, c: 1 })).toBe(false);
  });

  it('does not read a property named like a keyword as one', () => {
    const closed = closeObjects({
      type: 'object',
      properties: { not: { type: 'object', properties: { x: { type: 'string' } } } },
    }) as JsonObject;
    expect(((closed.properties as JsonObject).not as JsonObject).unevaluatedProperties).toBe(false);
  });
});

describe('strict mode on the document', () => {
  it('SubscriptionCreate: resources unless includeAll is true, and no unknown field', () => {
    const check = (value: Json) => fields(contract().checkSchema('SubscriptionCreate', value));
    const url = 'https://hooks.example.com/x';
    expect(check({ url, includeAll: true })).toEqual({ errors: [], drift: [] });
    expect(check({ url, includeAll: true, allowRetry: true })).toEqual({ errors: [], drift: [] });
    expect(check({ url, resources: [{ name: 'OPERATION', events: ['OPERATION_FAILED'] }] })).toEqual({ errors: [], drift: [] });
    expect(check({ url }).errors).toContain('resources');
    expect(check({ url, includeAll: false }).errors).toContain('resources');
    expect(check({ url, includeAll: true, colour: 'blue' })).toEqual({ errors: [], drift: ['colour'] });
    expect(check({ url, resources: [{ name: 'OPERATION', events: ['OPERATION_FAILED'], extra: 1 }] })).toEqual({
      errors: [],
      drift: ['resources.0.extra'],
    });
  });

  it('QuoteCreate (a request, held to strict only): exactly one amount, and a misspelt field is an unknown field', () => {
    const base = { accountId: '5f0c6f4e-8a9b-4c1d-9e2f-3a4b5c6d7e8f', sourceAsset: 'BRL', targetAsset: 'USDT' };
    const quote = contract().byId.get('createQuote')!;
    const check = (body: Json) =>
      quote.checkRequest({ params: {}, query: {}, headers: { 'x-idempotency-key': '2c9a7f4e-1b3d-4e5f-8a6b-7c8d9e0f1a2b' }, body }).errors;
    expect(check({ ...base, sourceAmount: '10.00' })).toEqual([]);
    expect(check({ ...base, sourceAmount: '10.00', targetAmount: '2.00' })).not.toEqual([]);
    expect(check({ ...base, sourceAmmount: '10.00' })).toEqual(
      expect.arrayContaining([{ field: 'body.sourceAmmount', message: 'is not a known field' }]),
    );
  });

  it('the variants of a discriminated union stay closed', () => {
    const check = (value: Json) => fields(contract().checkSchema('BeneficiaryEntity', value));
    const individual = {
      type: 'INDIVIDUAL',
      firstName: 'Ana',
      lastName: 'Silva',
      identificationDocument: { type: 'CPF', value: '12345678901' },
    };
    expect(check(individual)).toEqual({ errors: [], drift: [] });
    expect(check({ ...individual, legalName: 'Acme' }).drift).toContain('legalName');
  });
});
