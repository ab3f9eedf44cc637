// Snapshot export and import: a restored mock answers exactly as before - lists in the same
// order, cursors still valid, balances, idempotent replays and the clock.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { MemoryStore } from '../../mock/store';
import { startMock, type Authed, type Harness } from '../http/harness';
import { control, d, deposit, funded, withdrawal } from './support';

describe('the store’s state', () => {
  it(
    'exports records with scopes and keys in insertion order, balances and finished keys, ' + 'and imports them into another store',
    async () => {
      const a = new MemoryStore();
      await a.insert('customer', 'all', 'c1', { id: 'c1', name: 'One', clientId: 'x', clientSecret: 'y', deleted: false });
      await a.insert('customer', 'all', 'c2', { id: 'c2', name: 'Two', clientId: 'x2', clientSecret: 'y2', deleted: false });
      await a.remove('customer', 'c1');
      await a.setBalance('acc', 'BRL', '10.50');
      await a.claimIdempotencyKey('done', 'f1', 0, 1000);
      await a.completeIdempotencyKey('done', { status: 201, body: { id: 1 } });
      await a.claimIdempotencyKey('running', 'f2', 0, 1000);
      const state = await a.exportState(0);
      expect(state).toEqual({
        sequence: 2,
        records: { customer: [{ scope: 'all', id: 'c2', key: 2, record: expect.objectContaining({ name: 'Two' }) }] },
        balances: [{ accountId: 'acc', asset: 'BRL', value: '10.5' }],
        idempotency: [{ key: 'done', fingerprint: 'f1', state: 'DONE', expiresAt: 1000, response: { status: 201, body: { id: 1 } } }],
      });
      const b = new MemoryStore();
      await b.insert('customer', 'all', 'old', { id: 'old', name: 'Old', clientId: 'o', clientSecret: 'o', deleted: false });
      await b.importState(JSON.parse(JSON.stringify(state)));
      expect(await b.get('customer', 'old')).toBeUndefined();
      expect(await b.exportState(0)).toEqual(state);
      await b.insert('customer', 'all', 'c3', { id: 'c3', name: 'Three', clientId: 'x3', clientSecret: 'y3', deleted: false });
      expect((await b.page('customer', { scope: 'all', limit: 10, order: 'ASCENDING' })).items.map((i) => i.key)).toEqual([2, 3]);
    },
  );

  it('refuses a state with a repeated id or key and keeps its own', async () => {
    const store = new MemoryStore();
    await store.setBalance('acc', 'BRL', '1');
    const item = { scope: 's', id: 'x', key: 1, record: {} };
    await expect(
      store.importState({ sequence: 1, records: { quote: [item, { ...item, key: 2 }] }, balances: [], idempotency: [] }),
    ).rejects.toThrow(/twice/);
    await expect(
      store.importState({ sequence: 1, records: { quote: [item, { ...item, id: 'y' }] }, balances: [], idempotency: [] }),
    ).rejects.toThrow(/repeated key/);
    expect(await store.getBalance('acc', 'BRL')).toBe('1');
  });
});

describe('snapshot round trip over HTTP', () => {
  let h: Harness;
  let api: Authed;
  beforeAll(async () => {
    h = await startMock();
    api = await h.as();
  });
  afterAll(() => h?.close());

  const lists = async () => ({
    operations: (await api.get('/v1/operations?limit=100').expect(200)).body,
    accounts: (await api.get('/api/accounts?limit=100').expect(200)).body,
    beneficiaries: (await api.get('/v1/beneficiaries?limit=100').expect(200)).body,
    subscriptions: (await api.get('/v1/subscriptions?limit=100').expect(200)).body,
    balances: (await control(h).get(`/accounts/${funded.id}/balances`).expect(200)).body,
  });

  it('a restored snapshot answers the same lists, cursors and replays as when it was taken', async () => {
    for (let i = 0; i < 3; i++) await deposit(api, `${i + 1}.00`);
    const settled = await withdrawal(api, '2.00');
    await control(h).post(`/operations/${settled.id}/settle`).expect(200);
    const key = randomUUID();
    const quoteBody = { accountId: funded.id, sourceAsset: 'BRL', targetAsset: 'BRL', sourceAmount: '3.00' };
    const quote = (await api.post('/v1/quotes', quoteBody, key).expect(201)).body;
    const firstPage = (await api.get('/v1/operations?limit=2').expect(200)).body;
    const secondPage = (await api.get(`/v1/operations?limit=2&cursor=${encodeURIComponent(firstPage.meta.nextCursor)}`).expect(200)).body;
    const before = await lists();
    const clock = (await control(h).get('/clock').expect(200)).body;

    const snapshot = (await control(h).get('/snapshot').expect(200)).body;
    expect(snapshot).toMatchObject({ version: 1, clock, sequence: expect.any(Number) });

    // Change everything the snapshot holds.
    await deposit(api, '9.00');
    await control(h).put(`/accounts/${funded.id}/balances`, { BRL: '0.01' }).expect(200);
    await control(h)
      .post(`/accounts/${d.editable(d.c1.id).id}/submit-review`)
      .expect(200);
    await api.post('/api/subscriptions', { url: 'https://example.com/hooks', includeAll: true }).expect(201);
    await control(h).post('/clock/advance', { by: '1h' }).expect(200);
    expect(await lists()).not.toEqual(before);

    expect((await control(h).post('/snapshot', snapshot).expect(200)).body).toEqual({ status: 'restored' });

    expect(await lists()).toEqual(before);
    expect((await control(h).get('/clock').expect(200)).body).toEqual(clock);
    expect((await api.get(`/v1/operations?limit=2&cursor=${encodeURIComponent(firstPage.meta.nextCursor)}`).expect(200)).body).toEqual(
      secondPage,
    );
    const replay = await api.post('/v1/quotes', quoteBody, key).expect(201);
    expect(replay.headers['x-idempotent-replayed']).toBe('true');
    expect(replay.body).toEqual(quote);
    // New records continue after the restored ones.
    const next = await deposit(api, '4.00');
    expect((await api.get('/v1/operations?limit=1').expect(200)).body.data[0].id).toBe(next.id);
  });

  it('a snapshot saved with a record per timeline state restores each operation with its whole timeline, and it goes on', async () => {
    const settled = await deposit(api, '5.00');
    await control(h).post(`/operations/${settled.id}/settle`).expect(200);
    const requested = await deposit(api, '6.00');
    const timelineOf = async (id: string) =>
      (await control(h).get(`/state/${d.c1.id}`).expect(200)).body.operations
        .find((o: { operation: { id: string } }) => o.operation.id === id)
        .timeline.map((t: { eventType: string; status: string; at: string }) => `${t.eventType} ${t.status} ${t.at}`);
    const before = await timelineOf(settled.id);
    expect(before).toHaveLength(2);
    const snapshot = (await control(h).get('/snapshot').expect(200)).body;
    // The form fos-mock kept before: one record per state, listed under the operation.
    type Item = { scope: string; id: string; key: number; record: { id: string; entries: object[] } };
    let sequence = snapshot.sequence;
    const legacy = (snapshot.records.timeline as Item[]).flatMap((item) =>
      item.record.entries.map((entry, i) => ({
        scope: item.id,
        id: randomUUID(),
        key: i === 0 ? item.key : ++sequence,
        record: { id: randomUUID(), operationId: item.id, ...entry },
      })),
    );
    expect(legacy.length).toBeGreaterThan(snapshot.records.timeline.length);
    await control(h)
      .post('/snapshot', { ...snapshot, sequence, records: { ...snapshot.records, timeline: legacy } })
      .expect(200);
    expect(await timelineOf(settled.id)).toEqual(before);
    // A state entered after the restore joins the operation's restored timeline.
    await control(h).post(`/operations/${requested.id}/settle`).expect(200);
    expect((await timelineOf(requested.id)).map((t: string) => t.split(' ')[1])).toEqual(['REQUESTED', 'COMPLETED']);
  });

  it('a malformed snapshot is 400 VALIDATION_ERROR and changes nothing', async () => {
    const before = await lists();
    const snapshot = (await control(h).get('/snapshot').expect(200)).body;
    await control(h)
      .post('/snapshot', { ...snapshot, version: 2 })
      .expect(400);
    await control(h)
      .post('/snapshot', { ...snapshot, records: { ...snapshot.records, widgets: [] } })
      .expect(400);
    const accounts = snapshot.records.account;
    const res = await control(h)
      .post('/snapshot', { ...snapshot, records: { ...snapshot.records, account: [...accounts, { ...accounts[0], key: 99_999 }] } })
      .expect(400);
    expect(res.body).toMatchObject({
      code: 'VALIDATION_ERROR',
      details: { fields: [{ field: 'body.records', message: expect.stringMatching(/appears twice/) }] },
    });
    await control(h).post('/snapshot').expect(400);
    expect(await lists()).toEqual(before);
  });

  it('a refused snapshot leaves the pending auto-settlement of the state it did not replace', async () => {
    const auto = await startMock({ config: { autoSettleMs: 5000 } });
    try {
      const autoApi = await auto.as();
      const op = await deposit(autoApi);
      const snapshot = (await control(auto).get('/snapshot').expect(200)).body;
      const accounts = snapshot.records.account;
      await control(auto)
        .post('/snapshot', { ...snapshot, records: { ...snapshot.records, account: [...accounts, { ...accounts[0], key: 99_999 }] } })
        .expect(400);
      await control(auto).post('/clock/advance', { by: '5s' }).expect(200);
      expect((await autoApi.get(`/v1/operations/${op.id}`).expect(200)).body.currentState.status).toBe('COMPLETED');
    } finally {
      await auto.close();
    }
  });

  it('restoring re-arms auto-settlement of REQUESTED operations', async () => {
    const auto = await startMock({ config: { autoSettleMs: 5000 } });
    try {
      const autoApi = await auto.as();
      const op = await deposit(autoApi);
      const snapshot = (await control(auto).get('/snapshot').expect(200)).body;
      await control(auto).post('/reset').expect(200);
      await control(auto).post('/snapshot', snapshot).expect(200);
      await control(auto).post('/clock/advance', { by: '5s' }).expect(200);
      expect((await autoApi.get(`/v1/operations/${op.id}`).expect(200)).body.currentState.status).toBe('COMPLETED');
    } finally {
      await auto.close();
    }
  });
});
