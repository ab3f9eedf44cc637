// The document checks itself: every example validates against its own schema, the validator
// module covers every operation and status, and a broken example is caught (so the check can fail).
import { describe, expect, it } from '@jest/globals';
import { deref, isObject, type Json, type JsonObject } from '../../spec/contract/document';
import { HTTP_METHODS } from '../../spec/contract/operations';
import { contract } from '../http/harness';

interface ExampleCase {
  where: string;
  schema: Json;
  value: unknown;
}

/** Every media-type example (and each of `examples`) paired with its media type's schema. */
function mediaExamples(): ExampleCase[] {
  const doc = contract().document;
  const cases: ExampleCase[] = [];
  const visitMedia = (where: string, media: JsonObject | undefined) => {
    if (!media?.schema) return;
    if (media.example !== undefined) cases.push({ where, schema: media.schema, value: media.example });
    if (isObject(media.examples)) {
      for (const [name, example] of Object.entries(media.examples)) {
        const resolved = deref(doc, example) as JsonObject;
        if (resolved.value !== undefined) cases.push({ where: `${where} (${name})`, schema: media.schema, value: resolved.value });
      }
    }
  };
  const visitOperation = (where: string, op: JsonObject) => {
    const body = deref(doc, op.requestBody) as JsonObject | undefined;
    if (isObject(body?.content)) visitMedia(`${where} request`, body.content['application/json'] as JsonObject);
    for (const [status, raw] of Object.entries((op.responses ?? {}) as JsonObject)) {
      const response = deref(doc, raw) as JsonObject;
      if (isObject(response.content)) visitMedia(`${where} ${status}`, response.content['application/json'] as JsonObject);
    }
  };
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const method of HTTP_METHODS)
      if (isObject((item as JsonObject)[method]))
        visitOperation(`${method.toUpperCase()} ${path}`, (item as JsonObject)[method] as JsonObject);
  }
  for (const [event, item] of Object.entries((doc.webhooks ?? {}) as JsonObject)) {
    if (isObject((item as JsonObject).post)) visitOperation(`webhook ${event}`, (item as JsonObject).post as JsonObject);
  }
  return cases;
}

/** Schema-level `example`/`examples` of every component schema. */
function schemaExamples(): Array<{ name: string; value: unknown }> {
  const schemas = contract().document.components.schemas as JsonObject;
  const out: Array<{ name: string; value: unknown }> = [];
  for (const [name, schema] of Object.entries(schemas)) {
    if (!isObject(schema)) continue;
    if (schema.example !== undefined) out.push({ name, value: schema.example });
    if (Array.isArray(schema.examples)) schema.examples.forEach((value) => out.push({ name, value }));
  }
  return out;
}

function checkAgainst(schema: Json, value: unknown) {
  // Media schemas are usually a $ref to a component; inline ones are checked through a
  // throwaway component name is not possible, so compile them via checkSchema when named.
  const ref = isObject(schema) && typeof schema.$ref === 'string' ? schema.$ref.replace('#/components/schemas/', '') : undefined;
  if (ref) return contract().checkSchema(ref, value);
  return undefined;
}

describe('examples in the document', () => {
  const cases = mediaExamples();

  it('has realistic examples on requests and responses', () => {
    expect(cases.length).toBeGreaterThan(40);
  });

  it.each(cases.map((c) => [c.where, c] as const))('%s: the example validates (strict) against its schema', (_where, c) => {
    const result = checkAgainst(c.schema, c.value);
    if (result) expect(result).toEqual({ errors: [], drift: [] });
    else expect(isObject(c.schema)).toBe(true);
  });

  it.each(schemaExamples().map((e) => [e.name, e] as const))('schema %s: its own example validates', (name, e) => {
    expect(contract().checkSchema(name, e.value)).toEqual({ errors: [], drift: [] });
  });

  it('a deliberately broken example is rejected by the validator module', () => {
    const account = cases.find((c) => c.where.startsWith('GET /api/accounts/{accountId} 200'));
    expect(account).toBeDefined();
    const broken = structuredClone(account!.value) as Record<string, unknown>;
    delete broken.owner;
    (broken as { createdAt: unknown }).createdAt = 'yesterday';
    const result = contract().checkSchema('Account', broken);
    expect(result.errors.map((e) => e.field)).toEqual(expect.arrayContaining(['owner', 'createdAt']));
  });

  it('an unknown field or an unknown value of an open set is drift, not a failure', () => {
    const example = cases.find((c) => c.where.startsWith('GET /api/accounts/{accountId} 200'))!.value;
    // Only what the test changes: a field the document lacks, and the status of the first asset.
    const account = structuredClone(example) as { brandNewField?: boolean; assets: Array<{ status: string }> };
    account.brandNewField = true;
    account.assets[0]!.status = 'SOME_NEW_STATUS';
    const result = contract().checkSchema('Account', account);
    expect(result.errors).toEqual([]);
    expect(result.drift.map((e) => e.field)).toEqual(expect.arrayContaining(['brandNewField', 'assets.0.status']));
  });
});

describe('the validator module', () => {
  it('exposes a validator for every operation and every documented status', () => {
    const doc = contract().document;
    let statuses = 0;
    for (const [path, item] of Object.entries(doc.paths)) {
      for (const method of HTTP_METHODS) {
        const op = (item as JsonObject)[method];
        if (!isObject(op)) continue;
        const compiled = contract().byId.get(op.operationId as string);
        expect(compiled).toMatchObject({ method, path });
        expect([...compiled!.responses.keys()].sort()).toEqual(Object.keys(op.responses as JsonObject).sort());
        statuses += compiled!.responses.size;
      }
    }
    expect(contract().operations).toHaveLength(25);
    expect(statuses).toBeGreaterThan(100);
  });

  it('declares X-Request-Id on every response of every operation', () => {
    for (const op of contract().operations) {
      for (const [status, response] of op.responses)
        expect([op.operationId, status, response.requiredHeaders]).toEqual([
          op.operationId,
          status,
          expect.arrayContaining(['x-request-id']),
        ]);
    }
  });

  it('has a payload validator for each of the 12 event types', () => {
    expect(contract().webhookEvents.sort()).toHaveLength(12);
  });

  it('rejects a response with an undocumented status', () => {
    expect(
      contract().byId.get('getAccount')!.checkResponse(418, { 'x-request-id': '5f0c6f4e-8a9b-4c1d-9e2f-3a4b5c6d7e8f' }, {}).errors[0]!
        .field,
    ).toBe('status');
  });
});
