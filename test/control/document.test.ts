// The control document checks itself: every example validates (strictly) against its schema,
// examples of service resources validate against the service document, and every operation
// says it is ours (x-assumption) and declares X-Request-Id on each response.
import { describe, expect, it } from '@jest/globals';
import { controlContract, publicSchemaOf } from '../../mock/control/contract';
import { deref, isObject, type JsonObject } from '../../spec/contract/document';
import { HTTP_METHODS } from '../../spec/contract/operations';
import { contract as publicContract } from '../http/harness';

const doc = controlContract().document;
const schemas = doc.components.schemas as JsonObject;

interface Case {
  where: string;
  schema: string;
  value: unknown;
}

function mediaCases(): Case[] {
  const cases: Case[] = [];
  const visit = (where: string, media: unknown) => {
    if (!isObject(media) || !isObject(media.schema) || typeof media.schema.$ref !== 'string') return;
    const schema = media.schema.$ref.replace('#/components/schemas/', '');
    if (media.example !== undefined) cases.push({ where, schema, value: media.example });
    if (isObject(media.examples)) {
      for (const [name, example] of Object.entries(media.examples))
        cases.push({ where: `${where} (${name})`, schema, value: (deref(doc, example) as JsonObject).value });
    }
  };
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const method of HTTP_METHODS) {
      const op = (item as JsonObject)[method];
      if (!isObject(op)) continue;
      const where = `${method.toUpperCase()} ${path}`;
      const body = deref(doc, op.requestBody) as JsonObject | undefined;
      if (isObject(body?.content)) visit(`${where} request`, body.content['application/json']);
      for (const [status, raw] of Object.entries(op.responses as JsonObject)) {
        const response = deref(doc, raw) as JsonObject;
        if (isObject(response.content)) visit(`${where} ${status}`, response.content['application/json']);
      }
    }
  }
  return cases;
}

describe('the control document', () => {
  const cases = mediaCases();

  it('has examples for requests and responses', () => {
    expect(cases.length).toBeGreaterThan(50);
  });

  it.each(cases.map((c) => [c.where, c] as const))('%s: the example validates strictly', (_where, c) => {
    expect(controlContract().checkSchema(c.schema, c.value)).toEqual({ errors: [], drift: [] });
    const publicName = (schemas[c.schema] as JsonObject)['x-public-schema'];
    if (typeof publicName === 'string') expect(publicContract().checkSchema(publicName, c.value)).toEqual({ errors: [], drift: [] });
  });

  it('marks every operation x-assumption and declares X-Request-Id on every response', () => {
    for (const op of controlContract().operations) {
      const raw = (doc.paths[op.path] as JsonObject)[op.method] as JsonObject;
      expect([op.operationId, typeof raw['x-assumption']]).toEqual([op.operationId, 'string']);
      for (const [status, contract] of op.responses)
        expect([op.operationId, status, contract.requiredHeaders]).toEqual([op.operationId, status, ['x-request-id']]);
    }
  });

  it('answers with service resources only through x-public-schema, naming schemas the service document has', () => {
    const named = controlContract()
      .operations.map((op) => publicSchemaOf(controlContract(), op.path, op.method))
      .filter(Boolean);
    expect(new Set(named)).toEqual(new Set(['Operation', 'Account', 'Beneficiary', 'ExecutionLog']));
    for (const name of named) expect(Object.keys(publicContract().document.components.schemas as JsonObject)).toContain(name);
  });

  it('keeps every path under /_mock, with no bearer token or idempotency key', () => {
    for (const op of controlContract().operations) {
      expect(op.path.startsWith('/_mock/')).toBe(true);
      expect([op.operationId, op.security, op.idempotent]).toEqual([op.operationId, false, false]);
    }
  });

  it('names the magic values in its description', () => {
    const description = (doc.info as JsonObject).description as string;
    for (const value of ['666.66', '777.77', 'reject@fos-mock.test']) expect(description).toContain(value);
  });
});
