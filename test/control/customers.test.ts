// POST /_mock/customers: fresh customers with their own credentials and a copy of demo-client's
// fixture data; parallel runs take one each and never see each other's records.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { DomainEvent } from '../../mock/events/event-bus';
import { startMock, type Harness } from '../http/harness';
import { control, d } from './support';

let h: Harness;
beforeAll(async () => {
  h = await startMock();
});
afterAll(() => h?.close());

async function tokenFor(clientId: string, clientSecret: string) {
  const res = await h.http.post('/api/oauth/client/token').send({ clientId, clientSecret }).expect(200);
  const auth = `Bearer ${res.body.accessToken}`;
  return { get: (path: string) => h.http.get(path).set('Authorization', auth) };
}

describe('isolated customers', () => {
  it(
    'a new customer gets credentials that work, ' + 'and copies (new ids, same balances) of demo-client’s accounts and beneficiaries',
    async () => {
      const res = await control(h).post('/customers', { name: 'QA run 1' }).expect(201);
      const customer = res.body;
      expect(customer).toEqual({
        customerId: expect.any(String),
        clientId: expect.stringMatching(/^client-[0-9a-f]{8}$/),
        clientSecret: expect.any(String),
        accounts: expect.any(Array),
        beneficiaries: expect.any(Array),
      });
      const templateAccounts = d.accountsOf(d.c1.id);
      expect(customer.accounts).toHaveLength(templateAccounts.length);
      expect(customer.beneficiaries).toHaveLength(d.f.beneficiaries.filter((b) => b.customerId === d.c1.id).length);

      const api = await tokenFor(customer.clientId, customer.clientSecret);
      const accounts = (await api.get('/api/accounts?limit=100&sortOrder=ASCENDING').expect(200)).body.data;
      expect(accounts.map((a: { id: string }) => a.id)).toEqual(customer.accounts);
      for (const [i, template] of templateAccounts.entries()) {
        const copy = accounts[i];
        expect(copy.customer.id).toBe(customer.customerId);
        expect(copy.owner.legalName ?? copy.owner.firstName).toBe(
          template.owner.type === 'COMPANY' ? template.owner.legalName : template.owner.firstName,
        );
        expect(copy.sourceAccountId === null).toBe(template.sourceAccountId === null);
        if (copy.sourceAccountId) expect(customer.accounts).toContain(copy.sourceAccountId);
        const balances = (await control(h).get(`/accounts/${copy.id}/balances`).expect(200)).body.balances;
        expect(balances).toEqual({ BRL: d.balance(template.id, 'BRL'), USDT: d.balance(template.id, 'USDT') });
      }
      const beneficiaries = (await api.get('/v1/beneficiaries?limit=100').expect(200)).body.data;
      expect(beneficiaries.map((b: { id: string }) => b.id).sort()).toEqual([...customer.beneficiaries].sort());
      expect(beneficiaries.every((b: { customerId: string }) => b.customerId === customer.customerId)).toBe(true);
    },
  );

  it('two new customers never see each other’s data, nor demo-client’s', async () => {
    const one = (await control(h).post('/customers', {}).expect(201)).body;
    const two = (await control(h).post('/customers').expect(201)).body;
    expect(one.customerId).not.toBe(two.customerId);
    expect(one.clientId).not.toBe(two.clientId);
    const apiOne = await tokenFor(one.clientId, one.clientSecret);
    const apiTwo = await tokenFor(two.clientId, two.clientSecret);
    const ids = async (api: typeof apiOne) =>
      (await api.get('/api/accounts?limit=100').expect(200)).body.data.map((a: { id: string }) => a.id);
    const oneIds = await ids(apiOne);
    const twoIds = await ids(apiTwo);
    expect(oneIds.filter((id: string) => twoIds.includes(id))).toEqual([]);
    expect(oneIds.filter((id: string) => d.f.accounts.some((a) => a.id === id))).toEqual([]);
    for (const id of twoIds) expect((await apiOne.get(`/api/accounts/${id}`).expect(404)).body.code).toBe('RESOURCE_NOT_FOUND');
    for (const id of two.beneficiaries) await apiOne.get(`/v1/beneficiaries/${id}`).expect(404);
    // A wrong secret for a new client is refused like any other.
    await h.http.post('/api/oauth/client/token').send({ clientId: one.clientId, clientSecret: two.clientSecret }).expect(401);
  });

  it('each account copy fires ACCOUNT_CREATED for the new customer', async () => {
    const seen: DomainEvent[] = [];
    const stop = h.mock.deps.events.subscribe((event) => {
      seen.push(event);
    });
    try {
      const customer = (await control(h).post('/customers').expect(201)).body;
      expect(seen.map((e) => [e.eventType, e.customerId, e.payload.id])).toEqual(
        customer.accounts.map((id: string) => ['ACCOUNT_CREATED', customer.customerId, id]),
      );
      for (const event of seen) expect(h.mock.contract.checkWebhook(event.eventType, event.payload)).toEqual({ errors: [], drift: [] });
    } finally {
      stop();
    }
  });

  it('a name longer than allowed, or an unknown field, is 400', async () => {
    await control(h).post('/customers', { name: '' }).expect(400);
    await control(h).post('/customers', { nickname: 'x' }).expect(400);
  });
});
