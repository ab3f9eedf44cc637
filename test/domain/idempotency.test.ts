import { createHash } from 'node:crypto';
import { serviceErrorFrom } from '../support/thrown';
import { describe, expect, it } from '@jest/globals';
import { createClock } from '../../mock/clock';
import { ServiceError } from '../../mock/errors/catalogue';
import { fingerprint, runIdempotent } from '../../mock/http/idempotency';
import type { HandlerResult } from '../../mock/resources/types';
import { MemoryStore } from '../../mock/store';

const DAY = 24 * 60 * 60 * 1000;
const START = Date.parse('2025-03-10T12:00:00.000Z');
const KEY = 'customer-a:0b6f1c3e-6a43-4f0e-9a0c-3b1f6a1c2d3e';
const BODY = { accountId: 'acc-1', quoteId: 'q-1' };
const PRINT = fingerprint('POST', '/v1/operations/swaps', BODY);

function setup() {
  const store = new MemoryStore();
  const clock = createClock({ start: START, frozen: true });
  let calls = 0;
  const run = (print: string, handler: () => Promise<HandlerResult>) => runIdempotent(store, clock, DAY, KEY, print, handler);
  const created = (): Promise<HandlerResult> => {
    calls++;
    return Promise.resolve({ status: 201, body: { id: `op-${calls}` } });
  };
  return { store, clock, run, created, calls: () => calls };
}

const rejection = serviceErrorFrom;

function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

describe('running a request under an idempotency key', () => {
  it('when a key is used for the first time, then the handler runs and its result is not a replay', async () => {
    const { run, created, calls } = setup();
    expect(await run(PRINT, created)).toEqual({ result: { status: 201, body: { id: 'op-1' } }, replayed: false });
    expect(calls()).toBe(1);
  });

  it('when the same request is sent again, then the first result comes back marked replayed and the handler does not run', async () => {
    const { run, created, calls } = setup();
    await run(PRINT, created);
    expect(await run(PRINT, created)).toEqual({ result: { status: 201, body: { id: 'op-1' } }, replayed: true });
    expect(calls()).toBe(1);
  });

  it('when the same key comes with another body, then IDEMPOTENCY_KEY_REUSED (422) is raised and nothing runs', async () => {
    const { run, created, calls } = setup();
    await run(PRINT, created);
    const error = await rejection(run(fingerprint('POST', '/v1/operations/swaps', { ...BODY, quoteId: 'q-2' }), created));
    expect(error.code).toBe('IDEMPOTENCY_KEY_REUSED');
    expect(error.status).toBe(422);
    expect(calls()).toBe(1);
  });

  it('when the same key comes with another path, then IDEMPOTENCY_KEY_REUSED is raised', async () => {
    const { run, created } = setup();
    await run(PRINT, created);
    expect((await rejection(run(fingerprint('POST', '/v1/operations/withdrawals', BODY), created))).code).toBe('IDEMPOTENCY_KEY_REUSED');
  });

  it('when a duplicate arrives while the first is still running, then IDEMPOTENCY_REQUEST_IN_PROGRESS (409) is raised', async () => {
    const { run } = setup();
    const gate = deferred<HandlerResult>();
    let runs = 0;
    const slow = () => {
      runs++;
      return gate.promise;
    };
    const first = run(PRINT, slow);
    const error = await rejection(run(PRINT, slow));
    expect(error.code).toBe('IDEMPOTENCY_REQUEST_IN_PROGRESS');
    expect(error.status).toBe(409);
    gate.resolve({ status: 201, body: { id: 'op-slow' } });
    expect(await first).toEqual({ result: { status: 201, body: { id: 'op-slow' } }, replayed: false });
    expect(await run(PRINT, slow)).toEqual({ result: { status: 201, body: { id: 'op-slow' } }, replayed: true });
    expect(runs).toBe(1);
  });

  it('when a different request reuses the key while the first is running, then it is IDEMPOTENCY_KEY_REUSED, not in progress', async () => {
    const { run } = setup();
    const gate = deferred<HandlerResult>();
    const first = run(PRINT, () => gate.promise);
    const error = await rejection(run(fingerprint('PATCH', '/v1/accounts/acc-1', BODY), () => gate.promise));
    expect(error.code).toBe('IDEMPOTENCY_KEY_REUSED');
    gate.resolve({ status: 201, body: {} });
    await first;
  });

  it('when the handler rejects the request as invalid (400), then the key is released and a retry runs again', async () => {
    const { run, created, calls } = setup();
    const invalid = new ServiceError('VALIDATION_ERROR', { fields: [{ field: 'body.quoteId', message: 'required' }] });
    await expect(run(PRINT, () => Promise.reject(invalid))).rejects.toBe(invalid);
    expect(await run(PRINT, created)).toEqual({ result: { status: 201, body: { id: 'op-1' } }, replayed: false });
    expect(calls()).toBe(1);
  });

  it('when the handler fails with a plain Error, then the key is released and a retry runs again', async () => {
    const { run, created } = setup();
    const crash = new Error('boom');
    await expect(run(PRINT, () => Promise.reject(crash))).rejects.toBe(crash);
    expect((await run(PRINT, created)).replayed).toBe(false);
  });

  it('when the handler fails with a 500 ServiceError, then the key is released', async () => {
    const { run, created } = setup();
    await expect(run(PRINT, () => Promise.reject(new ServiceError('INTERNAL_ERROR')))).rejects.toBeInstanceOf(ServiceError);
    expect((await run(PRINT, created)).replayed).toBe(false);
  });

  it('when the handler released the key after a 400, then the corrected request may use it', async () => {
    const { run, created } = setup();
    await expect(run(PRINT, () => Promise.reject(new ServiceError('VALIDATION_ERROR')))).rejects.toBeInstanceOf(ServiceError);
    const corrected = fingerprint('POST', '/v1/operations/swaps', { ...BODY, quoteId: 'q-fixed' });
    expect((await run(corrected, created)).replayed).toBe(false);
  });

  it.each<['RESOURCE_NOT_FOUND' | 'QUOTE_ALREADY_CONSUMED' | 'QUOTE_EXPIRED', number]>([
    ['RESOURCE_NOT_FOUND', 404],
    ['QUOTE_ALREADY_CONSUMED', 409],
    ['QUOTE_EXPIRED', 422],
  ])('when the handler decides %s (%i), then that error is stored and replayed as its error body', async (code, status) => {
    const { run, created, calls } = setup();
    const decided = new ServiceError(code, { quoteId: 'q-1' });
    await expect(run(PRINT, () => Promise.reject(decided))).rejects.toBe(decided);
    const replay = await run(PRINT, created);
    expect(replay).toEqual({ result: { status, body: { code, message: decided.message, details: { quoteId: 'q-1' } } }, replayed: true });
    expect(calls()).toBe(0);
  });

  it('a stored error still refuses the same key with another request', async () => {
    const { run, created } = setup();
    await expect(run(PRINT, () => Promise.reject(new ServiceError('QUOTE_EXPIRED')))).rejects.toBeInstanceOf(ServiceError);
    expect((await rejection(run(fingerprint('POST', '/v1/operations/swaps', { other: true }), created))).code).toBe(
      'IDEMPOTENCY_KEY_REUSED',
    );
  });

  it('just before 24 hours of mock time the request is still replayed', async () => {
    const { run, created, clock } = setup();
    await run(PRINT, created);
    clock.advance(DAY - 1);
    expect((await run(PRINT, created)).replayed).toBe(true);
  });

  it('after 24 hours of mock time the key is free again and the request runs anew', async () => {
    const { run, created, clock, calls } = setup();
    await run(PRINT, created);
    clock.advance(DAY);
    expect(await run(PRINT, created)).toEqual({ result: { status: 201, body: { id: 'op-2' } }, replayed: false });
    expect(calls()).toBe(2);
  });

  it('after 24 hours the key may even carry a different request', async () => {
    const { run, created, clock } = setup();
    await run(PRINT, created);
    clock.advance(DAY);
    expect((await run(fingerprint('POST', '/v1/operations/deposits', BODY), created)).replayed).toBe(false);
  });

  it('a key is scoped: the same key string of another customer is a separate key', async () => {
    const { store, clock, created } = setup();
    await runIdempotent(store, clock, DAY, 'customer-a:k', PRINT, created);
    expect((await runIdempotent(store, clock, DAY, 'customer-b:k', PRINT, created)).replayed).toBe(false);
  });
});

describe('request fingerprints', () => {
  it('a body with the same members in another order has the same fingerprint', () => {
    expect(fingerprint('POST', '/v1/quotes', { a: 1, b: 2 })).toBe(fingerprint('POST', '/v1/quotes', { b: 2, a: 1 }));
  });

  it('nested objects are compared regardless of member order too', () => {
    expect(fingerprint('POST', '/v1/beneficiaries', { entity: { firstName: 'Ana', lastName: 'Costa' }, x: [1, { p: 1, q: 2 }] })).toBe(
      fingerprint('POST', '/v1/beneficiaries', { x: [1, { q: 2, p: 1 }], entity: { lastName: 'Costa', firstName: 'Ana' } }),
    );
  });

  it('a fingerprint is SHA-256 of method, path and UTF-8 canonical body joined by NUL: keys an older mock kept still match', () => {
    const body = { name: 'Conceição', amount: '10.00' };
    const joined = 'POST\u0000/v1/beneficiaries?x=1\u0000{"amount":"10.00","name":"Conceição"}';
    expect(fingerprint('POST', '/v1/beneficiaries?x=1', body)).toBe(createHash('sha256').update(joined, 'utf8').digest('base64url'));
    // The digest the mock computed before this function was a single call (1ba8198), pinned.
    expect(fingerprint('POST', '/v1/beneficiaries?x=1', body)).toBe('D1BwOYK-Kj10cXRnOHYtwdcgWdhRD-pD9XpbaT1PlOo');
  });

  it('array order matters', () => {
    expect(fingerprint('POST', '/v1/subscriptions', { resources: ['A', 'B'] })).not.toBe(
      fingerprint('POST', '/v1/subscriptions', { resources: ['B', 'A'] }),
    );
  });

  it('a different value gives a different fingerprint', () => {
    expect(fingerprint('POST', '/v1/quotes', { sourceAmount: '100.00' })).not.toBe(
      fingerprint('POST', '/v1/quotes', { sourceAmount: '100.01' }),
    );
  });

  it('a string value and a number value of the same digits are different requests', () => {
    expect(fingerprint('POST', '/v1/quotes', { sourceAmount: '100' })).not.toBe(fingerprint('POST', '/v1/quotes', { sourceAmount: 100 }));
  });

  it('a different path gives a different fingerprint', () => {
    expect(fingerprint('POST', '/v1/operations/swaps', BODY)).not.toBe(fingerprint('POST', '/v1/operations/withdrawals', BODY));
  });

  it('a different method gives a different fingerprint', () => {
    expect(fingerprint('POST', '/v1/accounts/acc-1', BODY)).not.toBe(fingerprint('PATCH', '/v1/accounts/acc-1', BODY));
  });

  it('moving text between method and path does not collide', () => {
    expect(fingerprint('POST', '/v1/x', {})).not.toBe(fingerprint('POST/', 'v1/x', {}));
  });

  it('a member name holding JSON punctuation does not collide with a nested object', () => {
    expect(fingerprint('POST', '/p', { 'a":{"b': 1 })).not.toBe(fingerprint('POST', '/p', { a: { b: 1 } }));
  });
});
