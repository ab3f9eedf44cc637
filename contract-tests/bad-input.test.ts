// Bad input on every operation that takes it: malformed JSON, a body over the size limit, a
// body that is not JSON, fields of the wrong type, unknown fields, a missing body, and path ids
// that are not uuids. Each is refused with its documented status and the Error body; none is
// a 5xx (the client would fail the call: 500 is documented nowhere).
import { describe, expect, it } from '@jest/globals';
import { describeWhen, itEachWhen, itWhen } from './support/capabilities';
import { samples, wrongTypes } from './support/samples';
import { useSession } from './support/session';
import { contract } from './support/target';

const session = useSession();
const withBody = samples(contract(), (op) => op.hasBody);
const withPathIds = samples(contract(), (op) => op.pathParams.length > 0);
const table = <T extends { operationId: string }>(list: T[]) => list.map((s) => [s.operationId, s] as const);
const client = (s: { op: { security: boolean } }) => (s.op.security ? session().api : session().anonymous);

/** One MiB (the documented default limit) and a little more. */
const OVERSIZED = JSON.stringify({ pad: 'x'.repeat(1024 * 1024 + 1024) });

describe('request bodies', () => {
  it('covers every operation of the document that takes a body', () => {
    expect(withBody.map((s) => s.operationId).sort()).toEqual(
      contract()
        .operations.filter((op) => op.hasBody)
        .map((op) => op.operationId)
        .sort(),
    );
  });

  itEachWhen(['stateful', 'rawBodies'], table(withBody))(
    'When %s gets malformed JSON, then it answers 400 VALIDATION_ERROR naming the body [VALIDATION-400]',
    async (_id, s) => {
      const res = await client(s).call(s.method, s.path, { raw: { body: '{"accountId": ', contentType: 'application/json' } });
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('VALIDATION_ERROR');
      expect(res.body.details.fields.map((f: { field: string }) => f.field)).toContain('body');
      expect(res.text).not.toMatch(/at .*\.(js|ts):\d+/);
    },
  );

  itEachWhen(['stateful'], table(withBody))(
    'When %s gets a body over the size limit, then it answers 413 PAYLOAD_TOO_LARGE [BODY-LIMITS]',
    async (_id, s) => {
      const res = await client(s).call(s.method, s.path, { raw: { body: OVERSIZED, contentType: 'application/json' } });
      expect(res.status).toBe(413);
      expect(res.body.code).toBe('PAYLOAD_TOO_LARGE');
    },
  );

  itEachWhen(['stateful'], table(withBody))(
    'When %s gets a body that is not JSON, then it answers 415 UNSUPPORTED_MEDIA_TYPE [BODY-LIMITS]',
    async (_id, s) => {
      const res = await client(s).call(s.method, s.path, { raw: { body: 'accountId=1&amount=2', contentType: 'text/plain' } });
      expect(res.status).toBe(415);
      expect(res.body.code).toBe('UNSUPPORTED_MEDIA_TYPE');
    },
  );

  itEachWhen(['stateful'], table(withBody))(
    'When %s gets fields of the wrong type, then it answers 400 naming each field [VALIDATION-400]',
    async (_id, s) => {
      const res = await client(s).call(s.method, s.path, { body: wrongTypes(s.body!) });
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('VALIDATION_ERROR');
      const fields: string[] = res.body.details.fields.map((f: { field: string }) => f.field);
      for (const key of Object.keys(s.body!)) expect(fields.some((f) => f === `body.${key}` || f.startsWith(`body.${key}.`))).toBe(true);
    },
  );

  itEachWhen(['stateful'], table(withBody))('When %s gets an unknown field, then it answers 400 naming it', async (_id, s) => {
    const res = await client(s).call(s.method, s.path, { body: { ...s.body, surpriseField: true } });
    expect(res.status).toBe(400);
    expect(res.body.details.fields).toEqual(expect.arrayContaining([expect.objectContaining({ field: 'body.surpriseField' })]));
  });

  itEachWhen(['stateful'], table(withBody.filter((s) => s.op.bodyRequired)))(
    'When %s gets no body, then it answers 400 VALIDATION_ERROR [VALIDATION-400]',
    async (_id, s) => {
      const res = await client(s).call(s.method, s.path, {});
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('VALIDATION_ERROR');
    },
  );

  itEachWhen(['stateful'], table(withBody))('When %s gets a JSON array, then it answers 400 VALIDATION_ERROR', async (_id, s) => {
    const res = await client(s).call(s.method, s.path, { body: [s.body] });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('VALIDATION_ERROR');
  });
});

describe('bodies where the document takes none', () => {
  // A client may send a body to an operation that takes none (a proxy adds one, a library
  // always sends JSON). The answer must still be one the operation documents. Prism's proxy
  // refuses a GET with a body itself (it never reaches the target).
  const bodiless = samples(contract(), (op) => !op.hasBody);
  for (const s of bodiless) {
    const needs = s.method === 'GET' ? (['rawBodies'] as const) : [];
    itWhen(needs, `When ${s.operationId} gets a text body, then it ignores it and answers a status it documents`, async () => {
      const res = await client(s).call(s.method, s.path, { raw: { body: 'hello', contentType: 'text/plain' } });
      expect(res.status).toBeLessThan(500);
    });
    itWhen(needs, `When ${s.operationId} gets an oversized body, then it ignores it and answers a status it documents`, async () => {
      const res = await client(s).call(s.method, s.path, { raw: { body: OVERSIZED, contentType: 'application/json' } });
      expect(res.status).toBeLessThan(500);
    });
  }
});

describeWhen(['stateful'], 'path ids', () => {
  it.each(table(withPathIds))(
    'When %s names an id that is not a uuid, then it answers 400 VALIDATION_ERROR naming the path [VALIDATION-400]',
    async (_id, s) => {
      const path = s.op.path.replace(/\{[^}]+\}/g, 'not-a-uuid');
      const res = await session().api.call(s.method, path, { body: s.body });
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('VALIDATION_ERROR');
      expect(res.body.details.fields.some((f: { field: string }) => f.field.startsWith('path.'))).toBe(true);
    },
  );
});
