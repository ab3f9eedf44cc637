// POST /_mock/reset: the fixtures again, no faults, an empty journal, no idempotency keys, no
// pending jobs; the clock stays where it is.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { CLOCK_START, startMock, type Authed, type Harness } from '../http/harness';
import { control, d, deposit, funded } from './support';

let h: Harness;
let api: Authed;

beforeAll(async () => {
  h = await startMock({ config: { autoSettleMs: 5000 } });
  api = await h.as();
});
afterAll(() => h?.close());

describe('reset', () => {
  it('puts the fixtures back and clears faults, journal, idempotency keys and pending jobs, leaving the clock alone', async () => {
    const accountsBefore = (await api.get('/api/accounts?limit=100').expect(200)).body;
    const key = randomUUID();
    const body = { accountId: funded.id, sourceAsset: 'BRL', targetAsset: 'BRL', sourceAmount: '1.00' };
    const firstQuote = (await api.post('/v1/quotes', body, key).expect(201)).body;
    await deposit(api);
    await control(h).put(`/accounts/${funded.id}/balances`, { BRL: '1.00' }).expect(200);
    await api.post('/v1/beneficiaries', { entity: d.beneficiaryOf(d.c1.id).entity, relationshipType: 'THIRD_PARTY' }).expect(201);
    await control(h).post('/faults', { path: '/v1/reference/resources', latencyMs: 1 }).expect(201);
    await control(h).post('/clock/advance', { by: '1s' }).expect(200);
    expect((await h.mock.deps.scheduler.counts()).waiting).toBeGreaterThan(0);

    expect((await control(h).post('/reset').expect(200)).body).toEqual({ status: 'reset' });

    expect((await api.get('/v1/operations').expect(200)).body.data).toEqual([]);
    expect((await api.get('/v1/beneficiaries?limit=100').expect(200)).body.data).toHaveLength(
      d.f.beneficiaries.filter((b) => b.customerId === d.c1.id).length,
    );
    expect((await api.get('/api/accounts?limit=100').expect(200)).body).toEqual(accountsBefore);
    expect((await control(h).get(`/accounts/${funded.id}/balances`).expect(200)).body.balances.BRL).toBe(d.balance(funded.id, 'BRL'));
    expect((await control(h).get('/faults').expect(200)).body.data).toEqual([]);
    expect(await h.mock.deps.scheduler.counts()).toEqual({ waiting: 0, running: 0 });
    // The journal holds the reset call and what came after it only.
    const journal = (await control(h).get('/journal').expect(200)).body.data as Array<{ path: string }>;
    expect(journal[journal.length - 1]!.path).toBe('/_mock/reset');
    // The key is free again: the same request makes a new quote instead of replaying the old one.
    const again = await api.post('/v1/quotes', body, key).expect(201);
    expect(again.headers['x-idempotent-replayed']).toBeUndefined();
    expect(again.body.id).not.toBe(firstQuote.id);
    expect((await control(h).get('/clock').expect(200)).body.now).toBe(new Date(CLOCK_START + 1000).toISOString());
  });

  it('a cursor of the demo data issued before a reset is still valid after it (same insertion keys)', async () => {
    const page = (await api.get('/api/accounts?limit=1').expect(200)).body;
    await control(h).post('/reset').expect(200);
    const next = (await api.get(`/api/accounts?limit=1&cursor=${encodeURIComponent(page.meta.nextCursor)}`).expect(200)).body;
    expect(next.data[0].id).not.toBe(page.data[0].id);
  });
});
