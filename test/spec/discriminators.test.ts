// A oneOf with a discriminator is checked against the variant its tag names (ajv's discriminator,
// spec/contract/ajv-instance.ts). Ajv refuses the document's `mapping`, so the form it compiles
// drops it (spec/contract/schema-transform.ts): these tests hold every mapping of both documents to
// its variants' tags, so dropping it loses nothing, and show what a client is told of a bad variant.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { CONTROL_DOCUMENT_PATH } from '../../mock/control/contract';
import { loadContract } from '../../spec/contract';
import { DEFAULT_DOCUMENT_PATH, deref, isObject, loadDocument, type JsonObject, type OpenApiDocument } from '../../spec/contract/document';
import { createCompiler, toFieldErrors } from '../../spec/contract/validators';
import { startMock, type Authed, type Harness } from '../http/harness';
import { person } from '../support/people';

/** Every schema of a document that holds a discriminator, by where it is. */
function discriminated(doc: OpenApiDocument): Array<{ at: string; schema: JsonObject }> {
  const found: Array<{ at: string; schema: JsonObject }> = [];
  const walk = (node: unknown, at: string) => {
    if (Array.isArray(node)) return node.forEach((item, i) => walk(item, `${at}/${i}`));
    if (!isObject(node)) return;
    if (isObject(node.discriminator)) found.push({ at, schema: node });
    for (const [key, value] of Object.entries(node)) if (key !== 'example' && key !== 'examples') walk(value, `${at}/${key}`);
  };
  walk(doc, '#');
  return found;
}

describe('the documents’ discriminators', () => {
  for (const path of [DEFAULT_DOCUMENT_PATH, CONTROL_DOCUMENT_PATH]) {
    it(`in ${path.split('/').pop()}, each mapping names its oneOf's variants, each by the const its variant requires`, () => {
      const doc = loadDocument(path);
      for (const { at, schema } of discriminated(doc)) {
        const { propertyName: tag, mapping } = schema.discriminator as { propertyName: string; mapping: Record<string, string> };
        const variants = (schema.oneOf as Array<{ $ref: string }>).map((variant) => variant.$ref);
        expect([at, Object.values(mapping).sort()]).toEqual([at, [...variants].sort()]);
        for (const [value, ref] of Object.entries(mapping)) {
          const variant = deref(doc, { $ref: ref }) as JsonObject;
          expect([
            ref,
            (variant.properties as Record<string, JsonObject>)[tag]?.const,
            (variant.required as string[]).includes(tag),
          ]).toEqual([ref, value, true]);
        }
      }
    });
  }

  it('the service document has discriminators to hold (the test above would pass on none)', () => {
    expect(discriminated(loadDocument(DEFAULT_DOCUMENT_PATH)).length).toBeGreaterThanOrEqual(6);
  });

  it('a value is checked against the variant its tag names, and a tag outside the mapping is named with its values', () => {
    const contract = loadContract();
    expect(contract.checkSchema('BeneficiaryEntity', { type: 'COMPANY', legalName: 'Acme' }).errors).toEqual([
      { field: 'identificationDocument', message: "must have required property 'identificationDocument'" },
    ]);
    expect(contract.checkSchema('Owner', { type: 'ROBOT' }).errors).toEqual([
      { field: 'type', message: 'must be one of COMPANY, INDIVIDUAL' },
    ]);
    // Ajv's discriminator looks at objects only: anything else is refused as no variant is (an object).
    for (const value of ['COMPANY', 5, null, []])
      expect([value, contract.checkSchema('Owner', value).errors]).toEqual([value, [{ field: '', message: 'must be object' }]]);
    // Against the document as written (lenient), an unknown field of the named variant stays drift; an unknown tag is an error.
    expect(contract.checkSchema('BeneficiaryEntity', { ...person, nickname: 'Mari' })).toEqual({
      errors: [],
      drift: [{ field: 'nickname', message: 'is not a known field' }],
    });
    expect(contract.checkSchema('BeneficiaryEntity', { ...person, type: 'TRUST' })).toEqual({
      errors: [{ field: 'type', message: 'must be one of INDIVIDUAL, COMPANY' }],
      drift: [],
    });
    expect(contract.checkSchema('OperationIntent', { beneficiaryId: 'b' }).errors).toEqual([
      { field: 'type', message: "must have required property 'type'" },
    ]);
  });
});

describe('a union with fields of its own', () => {
  // None of the document's unions has any today. Strict mode closes such a union over its branches,
  // which needs the fields its branch evaluated, and ajv's discriminator does not pass them on: it
  // stays a plain oneOf (schema-transform.ts), and a valid value of a branch passes.
  const doc = {
    openapi: '3.1.0',
    info: { title: 't', version: '1' },
    paths: {},
    components: {
      schemas: {
        U: {
          type: 'object',
          properties: { kind: { type: 'string' } },
          oneOf: [{ $ref: '#/components/schemas/A' }, { $ref: '#/components/schemas/B' }],
          discriminator: { propertyName: 'kind', mapping: { A: '#/components/schemas/A', B: '#/components/schemas/B' } },
        },
        A: { type: 'object', required: ['kind'], properties: { kind: { const: 'A' }, a: { type: 'string' } } },
        B: { type: 'object', required: ['kind'], properties: { kind: { const: 'B' }, b: { type: 'string' } } },
      },
    },
  };

  it("accepts a branch's value and refuses an unknown tag, in both modes", () => {
    const compiler = createCompiler(doc);
    for (const mode of ['strict', 'lenient'] as const) {
      const validate = compiler.compile({ $ref: '#/components/schemas/U' }, mode);
      expect([mode, validate({ kind: 'A', a: 'x' })]).toEqual([mode, true]);
      expect([mode, validate({ kind: 'C' })]).toEqual([mode, false]);
      expect(toFieldErrors('body', validate.errors).map((e) => e.field)).toContain('body.kind');
    }
  });
});

describe('what a client is told of a bad variant', () => {
  let h: Harness;
  let api: Authed;
  beforeAll(async () => {
    h = await startMock();
    api = await h.as();
  });
  afterAll(async () => h?.close());

  const fields = async (entity: unknown) =>
    (await api.post('/v1/beneficiaries', { entity, relationshipType: 'THIRD_PARTY' }).expect(400)).body.details.fields;

  it("a COMPANY beneficiary without its document is told of the company's document alone", async () => {
    // Before: also the individual's firstName and lastName, and "legalName is not a known field".
    expect(await fields({ type: 'COMPANY', legalName: 'Acme' })).toEqual([
      { field: 'body.entity.identificationDocument', message: "must have required property 'identificationDocument'" },
    ]);
  });

  it('an entity of an unknown type is told the types there are; one without a type, that it needs one', async () => {
    expect(await fields({ type: 'ROBOT', legalName: 'Acme' })).toEqual([
      { field: 'body.entity.type', message: 'must be one of INDIVIDUAL, COMPANY' },
    ]);
    expect(await fields({ legalName: 'Acme' })).toEqual([{ field: 'body.entity.type', message: "must have required property 'type'" }]);
  });

  it("another variant's field is unknown to the variant the tag names", async () => {
    expect(await fields({ type: 'INDIVIDUAL', firstName: 'Ana', lastName: 'Lima', legalName: 'Acme' })).toContainEqual({
      field: 'body.entity.legalName',
      message: 'is not a known field',
    });
  });
});
