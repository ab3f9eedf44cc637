// Tenancy, writing. Customer 1's ids in customer 2's request bodies (quotes, deposits, swaps,
// withdrawals, transfers) are never a success and never show customer 1's data, and customer 1's
// idempotency keys replay nothing of customer 1's for customer 2.
import { describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { createQuote, expectStatus } from './support/api';
import { c1, c2, d, leaks, mine, one, secrets, stats, tenancyFile, two, twoTenants } from './support/tenancy';

tenancyFile('tenancy-writes.test.ts');

describe('tenancy', () => {
  twoTenants();

  it("customer 1's ids in a request body: never a success, never customer 1's data", async () => {
    const funded2 = d.funded(c2).id;
    const funded1 = d.funded(c1).id;
    const foreignQuote = (await createQuote(one, { accountId: funded1, sourceAsset: 'BRL', targetAsset: 'BRL', sourceAmount: '1.00' })).id;
    const ownQuote = (await createQuote(two, { accountId: funded2, sourceAsset: 'BRL', targetAsset: 'BRL', sourceAmount: '1.00' })).id;
    const attempts: Array<[string, string, unknown, number, string]> = [
      [
        'quote on their account',
        '/v1/quotes',
        { accountId: funded1, sourceAsset: 'BRL', targetAsset: 'BRL', sourceAmount: '1.00' },
        404,
        'RESOURCE_NOT_FOUND',
      ],
      [
        'deposit with their quote',
        '/v1/operations/deposits',
        { accountId: funded2, quoteId: foreignQuote, fundingInstruction: { rail: 'PIX' } },
        422,
        'QUOTE_NOT_FOUND',
      ],
      ['swap with their quote', '/v1/operations/swaps', { accountId: funded2, quoteId: foreignQuote }, 422, 'QUOTE_NOT_FOUND'],
      [
        'deposit into their account',
        '/v1/operations/deposits',
        { accountId: funded1, quoteId: foreignQuote, fundingInstruction: { rail: 'PIX' } },
        404,
        'RESOURCE_NOT_FOUND',
      ],
      [
        'withdrawal to their beneficiary',
        '/v1/operations/withdrawals',
        { accountId: funded2, quoteId: ownQuote, beneficiary: { mode: 'REFERENCE', id: mine.beneficiaryId } },
        404,
        'RESOURCE_NOT_FOUND',
      ],
      [
        'transfer into their account',
        '/v1/operations/transfers',
        { accountId: funded2, targetAccountId: funded1, asset: 'BRL', amount: '1.00' },
        404,
        'RESOURCE_NOT_FOUND',
      ],
      [
        'transfer out of their account',
        '/v1/operations/transfers',
        { accountId: funded1, targetAccountId: funded2, asset: 'BRL', amount: '1.00' },
        404,
        'RESOURCE_NOT_FOUND',
      ],
    ];
    for (const [what, path, body, status, code] of attempts) {
      const answer = await two.post(path, body);
      stats.crossTenantRequests++;
      if (answer.status !== status || answer.body.code !== code)
        throw new Error(`${what}: expected ${status} ${code}, got ${answer.status} ${answer.text.slice(0, 300)}`);
      const named = JSON.stringify(body);
      expect(
        leaks(
          answer.text,
          secrets.filter((s) => named.includes(s)),
        ),
      ).toEqual([]);
    }
    // Their quote is still theirs to use.
    expect((await one.get(`/v1/quotes/${foreignQuote}`)).body.status).toBe('OPEN');
  });

  it("an idempotency key is the customer's own: customer 2 reusing customer 1's key gets no replay of customer 1's answer", async () => {
    const [k1, k2] = [randomUUID(), randomUUID()];
    const body1 = { accountId: d.funded(c1).id, sourceAsset: 'BRL', targetAsset: 'BRL', sourceAmount: '4.00' };
    const first = expectStatus(await one.post('/v1/quotes', body1, k1), 201, 'c1 quote');
    expectStatus(await one.post('/v1/quotes', { ...body1, sourceAmount: '5.00' }, k2), 201, 'c1 second quote');
    // Customer 1's key and customer 1's very request: answered for customer 2, not replayed.
    const same = await two.post('/v1/quotes', body1, k1);
    expect(same.status).toBe(404);
    expect(same.headers['x-idempotent-replayed']).toBeUndefined();
    expect(same.text).not.toContain(first.body.id);
    // Customer 1's other key with customer 2's own request: a new quote of customer 2.
    const own = await two.post('/v1/quotes', { ...body1, accountId: d.funded(c2).id }, k2);
    expect(own.status).toBe(201);
    expect(own.headers['x-idempotent-replayed']).toBeUndefined();
    expect(own.body.customer.id).toBe(c2);
    stats.crossTenantRequests += 2;
  });
});
