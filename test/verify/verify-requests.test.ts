// POST /_mock/journal/verify: how many requests matched a pattern, which, and when too few did,
// the near misses with every difference, like WireMock's. Each test has a customer of its own,
// as parallel tests sharing one mock would.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startMock, type Harness } from '../http/harness';
import { control } from '../control/support';
import { newCustomer, quoteFor } from './support';
import { BULK_TEST_MS } from '../support/waits';

let h: Harness;
beforeAll(async () => {
  h = await startMock();
});
afterAll(() => h?.close());

const verify = (body: unknown) => control(h).post('/journal/verify', body);

describe('verifying requests', () => {
  it('exactly 2 POST /v1/quotes of 10.00 by one customer holds, and lists both', async () => {
    const alice = await newCustomer(h);
    await quoteFor(alice, '10.00').expect(201);
    await quoteFor(alice, '10.00').expect(201);
    const result = (
      await verify({
        request: { method: 'POST', path: '/v1/quotes', customerId: alice.customerId, body: [{ path: '$.sourceAmount', equals: '10.00' }] },
        count: { exactly: 2 },
      }).expect(200)
    ).body;
    expect(result).toMatchObject({ ok: true, count: 2, expected: { exactly: 2 }, nearMisses: [] });
    expect(result.matches).toHaveLength(2);
    expect(result.matches[0]).toMatchObject({
      method: 'POST',
      path: '/v1/quotes',
      status: 201,
      request: { body: { sourceAmount: '10.00' } },
    });
  });

  it('verify of exactly 2 POST /v1/quotes by one customer fails and lists the near miss with the wrong amount', async () => {
    const bob = await newCustomer(h);
    await quoteFor(bob, '10.00').expect(201);
    await quoteFor(bob, '25.00').expect(201);
    await bob.api.get('/api/accounts').expect(200);
    const result = (
      await verify({
        request: { method: 'POST', path: '/v1/quotes', customerId: bob.customerId, body: [{ path: '$.sourceAmount', equals: '10.00' }] },
        count: { exactly: 2 },
      }).expect(200)
    ).body;
    expect(result.ok).toBe(false);
    expect(result.count).toBe(1);
    expect(result.message).toBe(
      `Expected exactly 2 requests matching POST /v1/quotes of customer ${bob.customerId} with 1 body/header condition, found 1.`,
    );
    // The closest first: the other quote differs in its amount only; the GET in method, path and body.
    expect(result.nearMisses[0].differences).toEqual([{ field: 'body.$.sourceAmount', expected: 'equals "10.00"', actual: '25.00' }]);
    expect(result.nearMisses[1].differences.map((d: { field: string }) => d.field)).toEqual(['method', 'path', 'body.$.sourceAmount']);
  });

  it(
    'another customer’s traffic neither counts nor pushes a customer’s requests out of its journal',
    async () => {
      const carol = await newCustomer(h);
      const noisy = await newCustomer(h);
      await quoteFor(carol, '10.00').expect(201);
      // More than the journal of everyone keeps (1000): carol's request is gone from it, not from hers.
      for (let i = 0; i < 1010; i++) await noisy.api.get('/api/accounts?limit=1').expect(200);
      const mine = (await control(h).get(`/journal?customerId=${carol.customerId}`).expect(200)).body.data;
      expect(mine.map((e: { method: string; path: string }) => `${e.method} ${e.path}`)).toEqual(['POST /v1/quotes']);
      const result = (
        await verify({ request: { method: 'POST', path: '/v1/quotes', customerId: carol.customerId }, count: { exactly: 1 } }).expect(200)
      ).body;
      expect(result.ok).toBe(true);
    },
    BULK_TEST_MS,
  );

  it('a template path, a status class, headers and matches/contains all narrow the count', async () => {
    const dave = await newCustomer(h);
    const q = (await quoteFor(dave, '12.34').expect(201)).body;
    await dave.api.get(`/v1/quotes/${q.id}`).expect(200);
    await dave.api.get('/v1/quotes/00000000-0000-4000-8000-000000000000').expect(404);
    const base = { method: 'GET', path: '/v1/quotes/{quoteId}', customerId: dave.customerId };
    const count = async (request: Record<string, unknown>) =>
      (await verify({ request: { ...base, ...request }, count: { atLeast: 0 } }).expect(200)).body.count;
    expect(await count({})).toBe(2);
    expect(await count({ status: '4xx' })).toBe(1);
    expect(await count({ status: '200' })).toBe(1);
    // Credentials are matched masked, as the journal shows them: the scheme stays.
    expect(await count({ headers: [{ name: 'Authorization', matches: '^Bearer \\*\\*\\*' }] })).toBe(2);
    // …and no pattern can probe the token itself.
    expect(await count({ headers: [{ name: 'authorization', contains: dave.token.slice(0, 20) }] })).toBe(0);
    const posted = (
      await verify({
        request: { path: '/v1/quotes', customerId: dave.customerId, body: [{ path: '$.sourceAmount', matches: '^12\\.' }] },
      }).expect(200)
    ).body;
    expect(posted).toMatchObject({ ok: true, count: 1, expected: { atLeast: 1 } });
  });

  it('too many is a failure too (atMost), without near misses', async () => {
    const erin = await newCustomer(h);
    await erin.api.get('/api/accounts').expect(200);
    await erin.api.get('/api/accounts').expect(200);
    const result = (
      await verify({ request: { method: 'GET', path: '/api/accounts', customerId: erin.customerId }, count: { atMost: 1 } }).expect(200)
    ).body;
    expect(result).toMatchObject({ ok: false, count: 2, nearMisses: [] });
    expect(result.message).toContain('Expected at most 1 request matching GET /api/accounts');
  });
});

describe('what verification refuses', () => {
  it.each([
    [{ request: { body: [{ path: 'amount', equals: 1 }] } }, 'body.request.body.0.path'],
    [{ request: { body: [{ path: '$..amount', equals: 1 }] } }, 'body.request.body[0].path'],
    [{ request: { headers: [{ name: 'x', matches: '(' }] } }, 'body.request.headers[0].matches'],
    [{ request: {}, count: { exactly: 1, atLeast: 1 } }, 'body.count'],
  ])('%j is a 400 naming the field', async (body, field) => {
    const res = await verify(body).expect(400);
    expect(res.body.code).toBe('VALIDATION_ERROR');
    expect(res.body.details.fields.map((f: { field: string }) => f.field)).toContain(field);
  });

  it('an unknown customer is a 404, not an empty verdict', async () => {
    const res = await verify({ request: { customerId: '00000000-0000-4000-8000-000000000000' } }).expect(404);
    expect(res.body).toMatchObject({ code: 'RESOURCE_NOT_FOUND', details: { resource: 'customer' } });
    await control(h).get('/journal?customerId=00000000-0000-4000-8000-000000000000').expect(404);
  });
});
