// Accounts: list, read, owner replacement until review, tenancy.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startMock, type Harness } from './harness';
import { demo } from './fixture-ids';

let h: Harness;
const d = demo();
beforeAll(async () => {
  h = await startMock();
});
afterAll(() => h?.close());

const companyOwner = {
  type: 'COMPANY',
  legalName: 'Nova Razao Social Ltda',
  identificationDocument: { value: '11222333000181', type: 'CNPJ' },
  industry: 'SOFTWARE_DEVELOPMENT',
  expectedMonthlyVolume: 'FROM_0_TO_50000',
  incorporateDate: '2020-05-01',
  isStartup: true,
  address: {
    addressLine1: 'Av. Paulista, 1000',
    addressLine2: null,
    city: 'Sao Paulo',
    state: 'SP',
    country: 'BR',
    postalCode: '01310-100',
  },
};

describe('listing accounts', () => {
  it('lists only the authenticated customer’s accounts, newest first, with full records', async () => {
    const api = await h.as();
    const res = await api.get('/api/accounts').expect(200);
    const ids = (res.body.data as Array<{ id: string }>).map((a) => a.id);
    expect(ids.sort()).toEqual(
      d
        .accountsOf(d.c1.id)
        .map((a) => a.id)
        .sort(),
    );
    expect(res.body.meta).toEqual({ previousCursor: null, nextCursor: null, total: ids.length });
    const record = res.body.data[0];
    for (const field of [
      'id',
      'customer',
      'owner',
      'assets',
      'requirements',
      'tags',
      'currentState',
      'states',
      'createdAt',
      'updatedAt',
      'sourceAccountId',
    ]) {
      expect(record).toHaveProperty(field);
    }
  });

  it('walks the list one account at a time with cursors, forward and back', async () => {
    const api = await h.as();
    const seen: string[] = [];
    let res = await api.get('/api/accounts?limit=1').expect(200);
    const first = res.body;
    seen.push(first.data[0].id);
    expect(first.meta.previousCursor).toBeNull();
    while (res.body.meta.nextCursor) {
      res = await api.get(`/api/accounts?limit=1&cursor=${encodeURIComponent(res.body.meta.nextCursor)}`).expect(200);
      expect(res.body.meta.total).toBe(1);
      seen.push(res.body.data[0].id);
    }
    expect(seen).toHaveLength(d.accountsOf(d.c1.id).length);
    expect(new Set(seen).size).toBe(seen.length);
    const back = await api.get(`/api/accounts?limit=1&cursor=${encodeURIComponent(res.body.meta.previousCursor)}`).expect(200);
    expect(back.body.data[0].id).toBe(seen[seen.length - 2]);
  });

  it('rejects an edited cursor, and another customer’s cursor, with 400 INVALID_CURSOR', async () => {
    const api = await h.as();
    const other = await h.as('customer2');
    const page = await api.get('/api/accounts?limit=1').expect(200);
    const cursor = page.body.meta.nextCursor as string;
    const edited = cursor.slice(0, -2) + (cursor.endsWith('AA') ? 'BB' : 'AA');
    expect((await api.get(`/api/accounts?cursor=${encodeURIComponent(edited)}`).expect(400)).body.code).toBe('INVALID_CURSOR');
    expect((await other.get(`/api/accounts?cursor=${encodeURIComponent(cursor)}`).expect(400)).body.code).toBe('INVALID_CURSOR');
    expect((await api.get('/api/accounts?cursor=made-up').expect(400)).body.code).toBe('INVALID_CURSOR');
  });

  it('orders ascending on request', async () => {
    const api = await h.as();
    const desc = (await api.get('/api/accounts').expect(200)).body.data.map((a: { id: string }) => a.id);
    const asc = (await api.get('/api/accounts?sortOrder=ASCENDING').expect(200)).body.data.map((a: { id: string }) => a.id);
    expect(asc).toEqual([...desc].reverse());
  });
});

describe('reading an account', () => {
  it('returns the customer’s own account', async () => {
    const api = await h.as();
    const account = d.accountsOf(d.c1.id)[0]!;
    const res = await api.get(`/api/accounts/${account.id}`).expect(200);
    expect(res.body).toEqual(account);
  });

  it('answers another customer’s account exactly as an unknown one: 404 RESOURCE_NOT_FOUND', async () => {
    const api = await h.as();
    const foreign = await api.get(`/api/accounts/${d.accountsOf(d.c2.id)[0]!.id}`).expect(404);
    const unknown = await api.get('/api/accounts/00000000-0000-4000-8000-000000000000').expect(404);
    expect(foreign.body.code).toBe('RESOURCE_NOT_FOUND');
    expect(unknown.body.code).toBe('RESOURCE_NOT_FOUND');
    expect(Object.keys(foreign.body.details)).toEqual(Object.keys(unknown.body.details));
  });
});

describe('replacing the owner (PATCH /v1/accounts/{id})', () => {
  it('replaces the owner: identificationDocument is returned as taxId, UBOs and assets are kept', async () => {
    const api = await h.as();
    const account = d.editable(d.c1.id);
    const res = await api.patch(`/v1/accounts/${account.id}`, { owner: companyOwner }).expect(200);
    expect(res.body.owner).toMatchObject({
      type: 'COMPANY',
      legalName: 'Nova Razao Social Ltda',
      taxId: { value: '11222333000181', type: 'CNPJ' },
    });
    expect(res.body.owner).not.toHaveProperty('identificationDocument');
    expect(res.body.owner.ubos).toEqual((account.owner as { ubos: unknown[] }).ubos);
    expect(res.body.assets).toEqual(account.assets);
    expect((await api.get(`/api/accounts/${account.id}`).expect(200)).body.owner.legalName).toBe('Nova Razao Social Ltda');
  });

  it('refuses once the account was submitted for review: 409 ACCOUNT_NOT_EDITABLE', async () => {
    const api = await h.as();
    const res = await api.patch(`/v1/accounts/${d.locked(d.c1.id).id}`, { owner: companyOwner }).expect(409);
    expect(res.body.code).toBe('ACCOUNT_NOT_EDITABLE');
  });

  it('refuses an update without an idempotency key: 400 IDEMPOTENCY_KEY_REQUIRED', async () => {
    const res = await h.http
      .patch(`/v1/accounts/${d.editable(d.c1.id).id}`)
      .set('Authorization', `Bearer ${await h.token()}`)
      .send({ owner: companyOwner })
      .expect(400);
    expect(res.body.code).toBe('IDEMPOTENCY_KEY_REQUIRED');
  });

  it('cannot touch another customer’s account: 404', async () => {
    const api = await h.as();
    await api.patch(`/v1/accounts/${d.editable(d.c2.id).id}`, { owner: companyOwner }).expect(404);
  });

  it('rejects an owner without its required fields', async () => {
    const api = await h.as();
    const res = await api.patch(`/v1/accounts/${d.editable(d.c1.id).id}`, { owner: { type: 'COMPANY', legalName: 'X' } }).expect(400);
    expect(res.body.code).toBe('VALIDATION_ERROR');
  });
});
