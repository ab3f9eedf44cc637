// The response encoder's rules beyond "the bytes are JSON.stringify's": a page is written with
// `data` first, an unchanged object is serialised and checked once, and each kind of response
// contract (page, plain body, no body) checks the body it is given.
import { describe, expect, it } from '@jest/globals';
import { ResponseEncoder } from '../../mock/http/response-encoder';
import type { OperationContract, ResponseCheck } from '../../spec/contract';
import type { ResponseContract } from '../../spec/contract/operations';

const PASS: ResponseCheck = { errors: [], drift: [] };

/** An operation whose 200 answer has the given contract, and whose head always passes. */
function operation(response: Partial<ResponseContract>): OperationContract {
  const contract: ResponseContract = { status: '200', hasBody: true, requiredHeaders: [], ...response };
  return {
    checkResponseHead: () => [],
    responseFor: (status: number) => (status === 200 ? contract : undefined),
  } as unknown as OperationContract;
}

/** A check that fails every value with one message, counting its calls. */
function failing(message: string) {
  const calls: unknown[] = [];
  const check = (value: unknown): ResponseCheck => (calls.push(value), { errors: [{ field: 'x', message }], drift: [] });
  return { check, calls };
}

describe('what the encoder writes', () => {
  it('writes a page with data first, then the rest of the envelope', () => {
    const encoder = new ResponseEncoder();
    expect(encoder.serialise({ meta: { total: 1 }, data: [{ id: 'a' }] }).toString()).toBe('{"data":[{"id":"a"}],"meta":{"total":1}}');
  });

  it('writes values that are not objects as JSON.stringify does, and an item that has no JSON as null', () => {
    const encoder = new ResponseEncoder();
    expect(encoder.serialise(null).toString()).toBe('null');
    expect(encoder.serialise(42).toString()).toBe('42');
    expect(encoder.serialise('text').toString()).toBe('"text"');
    expect(encoder.serialise({ data: [undefined, 1] }).toString()).toBe('{"data":[null,1]}');
    expect(encoder.encode(operation({}), 204, {}, undefined, false)).toEqual({ json: undefined, violations: [] });
  });

  it('serialises an unchanged object once, alone or as a page item', () => {
    const encoder = new ResponseEncoder();
    let serialised = 0;
    const record = Object.freeze({ toJSON: () => (serialised++, { id: 'r' }) });
    expect(encoder.serialise(record).toString()).toBe('{"id":"r"}');
    expect(encoder.serialise({ data: [record] }).toString()).toBe('{"data":[{"id":"r"}]}');
    expect(serialised).toBe(1);
  });

  it("serialises an object that is not frozen afresh every time: a handler's answer may have changed since", () => {
    const encoder = new ResponseEncoder();
    const answer: { id: string; status: string } = { id: 'q', status: 'ACTIVE' };
    expect(encoder.serialise(answer).toString()).toBe('{"id":"q","status":"ACTIVE"}');
    answer.status = 'CONSUMED';
    expect(encoder.serialise(answer).toString()).toBe('{"id":"q","status":"CONSUMED"}');
    expect(encoder.serialise({ data: [answer] }).toString()).toBe('{"data":[{"id":"q","status":"CONSUMED"}]}');
  });
});

describe('what the encoder checks in strict mode', () => {
  it('checks a body that is not a page with the plain check, even when the answer may be a page', () => {
    const { check } = failing('plain');
    const page = { envelope: () => PASS, item: () => PASS };
    expect(new ResponseEncoder().encode(operation({ check, page }), 200, {}, { code: 'X' }, true).violations).toEqual([
      { field: 'body.x', message: 'plain' },
    ]);
  });

  it('checks a page body with the plain check when the answer is not a page', () => {
    const { check } = failing('plain');
    expect(new ResponseEncoder().encode(operation({ check }), 200, {}, { data: [1] }, true).violations).toEqual([
      { field: 'body.x', message: 'plain' },
    ]);
  });

  it('says a body must be empty when the answer has none, and accepts no body there', () => {
    const encoder = new ResponseEncoder();
    expect(encoder.encode(operation({ hasBody: false }), 200, {}, { unexpected: true }, true).violations).toEqual([
      { field: 'body', message: 'must be empty' },
    ]);
    expect(encoder.encode(operation({ hasBody: false }), 200, {}, undefined, true).violations).toEqual([]);
  });

  it('checks a body that is not an object every time (only objects are remembered as checked)', () => {
    const calls: unknown[] = [];
    const check = (value: unknown): ResponseCheck => (calls.push(value), PASS);
    const encoder = new ResponseEncoder();
    expect(encoder.encode(operation({ check }), 200, {}, 'text', true)).toEqual({ json: Buffer.from('"text"'), violations: [] });
    expect(encoder.encode(operation({ check }), 200, {}, 'text', true).violations).toEqual([]);
    expect(calls).toEqual(['text', 'text']);
  });

  it('checks an object that is not frozen every time, as it may have changed since it passed', () => {
    const calls: unknown[] = [];
    const check = (value: unknown): ResponseCheck => (calls.push(value), PASS);
    const encoder = new ResponseEncoder();
    const answer = { id: 'q' };
    encoder.encode(operation({ check }), 200, {}, answer, true);
    encoder.encode(operation({ check }), 200, {}, answer, true);
    expect(calls).toEqual([answer, answer]);
  });

  it('reports errors then drift, each under the body (or the item) it was found in', () => {
    const check = (): ResponseCheck => ({
      errors: [{ field: 'amount', message: 'must be string' }],
      drift: [{ field: '', message: 'is not a known value' }],
    });
    expect(new ResponseEncoder().encode(operation({ check }), 200, {}, { amount: 1 }, true).violations).toEqual([
      { field: 'body.amount', message: 'must be string' },
      { field: 'body', message: 'is not a known value' },
    ]);
  });
});
