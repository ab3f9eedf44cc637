// Faults scoped to a customer: a fault naming `customerId` acts only on requests carrying that
// customer's token, so tests sharing one mock each fault their own traffic; listed and removed by customer.
import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import { startMock, type Harness } from '../http/harness';
import { control } from '../control/support';
import { newCustomer, quoteFor } from './support';

let h: Harness;
beforeAll(async () => {
  h = await startMock();
});
afterEach(async () => {
  await control(h).delete('/faults').expect(204);
});
afterAll(() => h?.close());

const addFault = async (fault: Record<string, unknown>) => (await control(h).post('/faults', fault).expect(201)).body;

describe('faults scoped to a customer', () => {
  it('a 503 on POST /v1/quotes for one customer leaves another customer’s quotes alone', async () => {
    const alice = await newCustomer(h);
    const bob = await newCustomer(h);
    const fault = await addFault({ method: 'POST', path: '/v1/quotes', customerId: alice.customerId, error: { status: 503 }, times: 1 });
    expect(fault).toMatchObject({ customerId: alice.customerId, remaining: 1 });
    await quoteFor(bob, '10.00').expect(201);
    const hit = await quoteFor(alice, '10.00').expect(503);
    expect(hit.body).toMatchObject({ code: 'INJECTED_FAULT', details: { faultId: fault.id } });
    // Used up by alice's request, not by bob's before it.
    await quoteFor(alice, '10.00').expect(201);
  });

  it('a request without a valid token is no customer’s: the scoped fault passes it to the operation (401)', async () => {
    const alice = await newCustomer(h);
    await addFault({ path: '/v1/quotes', customerId: alice.customerId, error: { status: 500 } });
    await h.http.post('/v1/quotes').set('Authorization', 'Bearer not.a-token.at-all').send({}).expect(401);
  });

  it('faults are listed and removed by customer, the others kept', async () => {
    const alice = await newCustomer(h);
    const bob = await newCustomer(h);
    const mine = await addFault({ path: '/v1/**', customerId: alice.customerId, latencyMs: 1 });
    const theirs = await addFault({ path: '/v1/**', customerId: bob.customerId, latencyMs: 1 });
    const everyone = await addFault({ path: '/nowhere', latencyMs: 1 });
    const list = async (query = '') => (await control(h).get(`/faults${query}`).expect(200)).body.data.map((f: { id: string }) => f.id);
    expect(await list(`?customerId=${alice.customerId}`)).toEqual([mine.id]);
    await control(h).delete(`/faults?customerId=${alice.customerId}`).expect(204);
    expect(await list()).toEqual([theirs.id, everyone.id]);
  });

  it('a fault for a customer no one holds is a 404', async () => {
    const res = await control(h)
      .post('/faults', { path: '/v1/quotes', customerId: '00000000-0000-4000-8000-000000000000', error: { status: 503 } })
      .expect(404);
    expect(res.body).toMatchObject({ code: 'RESOURCE_NOT_FOUND', details: { resource: 'customer' } });
  });
});
