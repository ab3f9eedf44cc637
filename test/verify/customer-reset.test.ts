// POST /_mock/customers/{id}/reset: one customer back to the data it was created with (records
// under the same ids, balances, idempotency keys, its faults and journal), no one else touched.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startMock, type Harness } from '../http/harness';
import { control, d, funded } from '../control/support';
import { depositFor, fundedOf, newCustomer, quoteFor } from './support';

let h: Harness;
beforeAll(async () => {
  h = await startMock();
});
afterAll(() => h?.close());

const ids = (list: Array<{ id: string }>) => list.map((item) => item.id);

describe('resetting one customer', () => {
  it('a customer made by the control API gets its accounts, balances and beneficiaries back, same ids; its operations go', async () => {
    const alice = await newCustomer(h);
    const bob = await newCustomer(h);
    const accountId = fundedOf(alice);
    const before = (await control(h).get(`/accounts/${accountId}/balances`).expect(200)).body;
    const op = await depositFor(alice, '50.00');
    await control(h).post(`/operations/${op.id}/settle`).expect(200);
    await control(h).put(`/accounts/${accountId}/balances`, { USDT: '1.000000' }).expect(200);
    const bobs = await depositFor(bob, '5.00');

    const res = (await control(h).post(`/customers/${alice.customerId}/reset`).expect(200)).body;
    expect(res).toEqual({
      status: 'reset',
      customerId: alice.customerId,
      accounts: alice.accounts.length,
      beneficiaries: alice.beneficiaries.length,
    });

    expect(ids((await alice.api.get('/api/accounts?limit=100&sortOrder=ASCENDING').expect(200)).body.data)).toEqual(alice.accounts);
    expect((await control(h).get(`/accounts/${accountId}/balances`).expect(200)).body).toEqual(before);
    expect(ids((await alice.api.get('/v1/beneficiaries?limit=100').expect(200)).body.data).sort()).toEqual([...alice.beneficiaries].sort());
    expect((await alice.api.get('/v1/operations').expect(200)).body.data).toEqual([]);
    await alice.api.get(`/v1/operations/${op.id}`).expect(404);
    // Bob is untouched, and alice's credentials still work.
    await bob.api.get(`/v1/operations/${bobs.id}`).expect(200);
  });

  it('its idempotency keys, faults and journal go; another customer’s stay', async () => {
    const alice = await newCustomer(h);
    const bob = await newCustomer(h);
    const key = randomUUID();
    const body = { accountId: fundedOf(alice), sourceAsset: 'BRL', targetAsset: 'BRL', sourceAmount: '10.00' };
    await alice.api.post('/v1/quotes', body, key).expect(201);
    await control(h).post('/faults', { path: '/v1/**', customerId: alice.customerId, latencyMs: 1 }).expect(201);
    const bobsFault = (await control(h).post('/faults', { path: '/v1/**', customerId: bob.customerId, latencyMs: 1 }).expect(201)).body;
    await quoteFor(bob, '10.00').expect(201);

    await control(h).post(`/customers/${alice.customerId}/reset`).expect(200);

    // The key is free again: the same key with another body is a new request, not a 422.
    await alice.api.post('/v1/quotes', { ...body, sourceAmount: '11.00' }, key).expect(201);
    const faults = (await control(h).get('/faults').expect(200)).body.data;
    expect(ids(faults)).toEqual([bobsFault.id]);
    const journal = (await control(h).get(`/journal?customerId=${alice.customerId}`).expect(200)).body.data;
    expect(journal).toHaveLength(1);
    expect((await control(h).get(`/journal?customerId=${bob.customerId}`).expect(200)).body.data).toHaveLength(1);
    await control(h).delete('/faults').expect(204);
  });

  it('a fixture customer goes back to its fixture records', async () => {
    const api = await h.as('customer2');
    const c2account = d.accountsOf(d.c2.id)[0]!;
    await control(h).put(`/accounts/${c2account.id}/balances`, { BRL: '1.00' }).expect(200);
    await control(h).post(`/customers/${d.c2.id}/reset`).expect(200);
    expect((await control(h).get(`/accounts/${c2account.id}/balances`).expect(200)).body.balances.BRL).toBe(d.balance(c2account.id, 'BRL'));
    expect(ids((await api.get('/api/accounts?limit=100&sortOrder=ASCENDING').expect(200)).body.data)).toEqual(ids(d.accountsOf(d.c2.id)));
    // demo-client (customer 1) is not touched.
    expect((await control(h).get(`/accounts/${funded.id}/balances`).expect(200)).body.balances.BRL).toBeDefined();
  });

  it('what a customer was created with travels in a snapshot: reset after a restore gives its records back', async () => {
    const frank = await newCustomer(h);
    const snapshot = (await control(h).get('/snapshot').expect(200)).body;
    await control(h).post('/snapshot', snapshot).expect(200);
    await depositFor(frank, '7.00');
    await control(h).post(`/customers/${frank.customerId}/reset`).expect(200);
    expect(ids((await frank.api.get('/api/accounts?limit=100&sortOrder=ASCENDING').expect(200)).body.data)).toEqual(frank.accounts);
    expect((await frank.api.get('/v1/operations').expect(200)).body.data).toEqual([]);
  });

  it('an unknown customer is a 404', async () => {
    const res = await control(h).post('/customers/00000000-0000-4000-8000-000000000000/reset').expect(404);
    expect(res.body).toMatchObject({ code: 'RESOURCE_NOT_FOUND', details: { resource: 'customer' } });
  });
});
