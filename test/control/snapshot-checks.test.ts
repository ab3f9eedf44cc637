// A snapshot is JSON a user can edit: the records the service shows (accounts, beneficiaries,
// operations, subscriptions, execution logs) are checked against the service document before the
// import, and its quotes against what the mock writes (mock/control/snapshot-checks.ts). A broken
// one is 400 VALIDATION_ERROR naming each field and changes nothing; before, an account whose
// owner lost its address was restored and its first deposit failed with a 500, as did every read
// of a quote whose amount was edited.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { controlContract } from '../../mock/control/contract';
import { snapshotRecordProblems } from '../../mock/control/snapshot-checks';
import { startReceiver, type Receiver } from '../../mock/receiver/receiver';
import { startMock, type Authed, type Harness } from '../http/harness';
import { beneficiary, control, d, deposit, funded, quote, reason, withdrawal } from './support';

let h: Harness;
let api: Authed;
let receiver: Receiver;
/** A snapshot holding every kind the check reads: a subscription with a delivery logged, operations, accounts, beneficiaries. */
let snapshot: {
  records: Record<string, Array<{ id: string; scope: string; key: number; record: Record<string, unknown> }>>;
  [key: string]: unknown;
};

beforeAll(async () => {
  h = await startMock();
  api = await h.as();
  receiver = await startReceiver();
  await api
    .post('/api/subscriptions', { url: receiver.url, resources: [{ name: 'OPERATION', events: ['OPERATION_REQUESTED'] }] })
    .expect(201);
  await deposit(api, '7.00');
  await h.mock.services.webhooks.idle();
  snapshot = (await control(h).get('/snapshot').expect(200)).body;
});
afterAll(async () => {
  await receiver?.close();
  await h?.close();
});

/** The snapshot with one record of `kind` changed by `edit` (a deep copy: the original stays as taken). */
function withRecord(
  kind: string,
  edit: (record: Record<string, unknown> & { account: { owner: Record<string, unknown> } }) => void,
  at = 0,
) {
  const copy = structuredClone(snapshot);
  edit(copy.records[kind]![at]!.record as Parameters<typeof edit>[0]);
  return copy;
}

/** What the quote check needs of a mock's services. */
const showing = (mock: Harness) => ({
  scales: mock.mock.deps.reference.scales,
  present: (quote: never) => mock.mock.services.quotes.present(quote),
});

const fieldsOf = (res: { body: { details?: { fields?: Array<{ field: string; message: string }> } } }) => res.body.details?.fields ?? [];

describe('the records of a snapshot the service shows', () => {
  it('a snapshot as taken has every kind the check reads, and no problem', () => {
    for (const kind of ['account', 'beneficiary', 'operation', 'quote', 'subscription', 'executionLog', 'timeline'])
      expect(snapshot.records[kind]?.length).toBeGreaterThan(0);
    expect(snapshotRecordProblems(snapshot.records as never, h.mock.contract, showing(h), controlContract())).toEqual([]);
  });

  it('an account whose owner has no address is refused naming the field, and its deposits go on as before', async () => {
    const at = snapshot.records.account!.findIndex((item) => item.id === funded.id);
    const broken = withRecord('account', (record) => delete record.account.owner.address, at);
    const res = await control(h).post('/snapshot', broken).expect(400);
    expect(res.body.code).toBe('VALIDATION_ERROR');
    // The owner is one of two forms (a oneOf with a discriminator): only the form its type names is checked.
    expect(fieldsOf(res)).toEqual([
      { field: `body.records.account.${at}.record.account.owner.address`, message: "must have required property 'address'" },
    ]);
    await deposit(api, '1.00');
  });

  it('each kind is checked against its schema, drift included, and each problem is named', async () => {
    const broken = structuredClone(snapshot);
    broken.records.operation![0]!.record.amount = { value: 'lots', currency: 'BRL' };
    broken.records.beneficiary![0]!.record.nickname = 'not in the document';
    delete (broken.records.subscription![0]!.record.subscription as Record<string, unknown>).url;
    broken.records.executionLog![0]!.record.status = 'MAYBE';
    const fields = fieldsOf(await control(h).post('/snapshot', broken).expect(400)).map((f) => f.field);
    for (const prefix of [
      'body.records.operation.0.record',
      'body.records.beneficiary.0.record',
      'body.records.subscription.0.record.subscription',
      'body.records.executionLog.0.record',
    ])
      expect(fields.some((field) => field.startsWith(prefix))).toBe(true);
  });

  it("a record whose id is not the id it is kept under, or an account's review that is not one, is refused", async () => {
    const otherId = withRecord('beneficiary', (record) => (record.id = '00000000-0000-4000-8000-000000000000'));
    expect(fieldsOf(await control(h).post('/snapshot', otherId).expect(400))).toEqual([
      { field: 'body.records.beneficiary.0.record.id', message: `must be the record's id ${snapshot.records.beneficiary![0]!.id}` },
    ]);
    const review = withRecord('account', (record) => (record.review = 'MAYBE'));
    expect(fieldsOf(await control(h).post('/snapshot', review).expect(400))).toEqual([
      { field: 'body.records.account.0.record.review', message: 'must be NOT_SUBMITTED or SUBMITTED' },
    ]);
  });

  it('a quote whose amount, asset, dates or customer are not what the mock writes is refused naming its field', async () => {
    const q = await quote(api, '12.00');
    const taken = (await control(h).get('/snapshot').expect(200)).body as typeof snapshot;
    const at = taken.records.quote!.findIndex((item) => item.id === q.id);
    const edited = (edit: (record: Record<string, unknown>) => void) => {
      const copy = structuredClone(taken);
      edit(copy.records.quote![at]!.record);
      return copy;
    };
    const where = `body.records.quote.${at}.record`;
    for (const [edit, field] of [
      [(r: Record<string, unknown>) => (r.sourceAmount = 'lots'), 'sourceAmount'],
      // At the asset's scale, as the mock writes it (BRL: 2 places).
      [(r: Record<string, unknown>) => (r.targetAmount = '12.5'), 'targetAmount'],
      [(r: Record<string, unknown>) => (r.sourceAmount = '-12.00'), 'sourceAmount'],
      [(r: Record<string, unknown>) => delete r.rate, 'rate'],
      [(r: Record<string, unknown>) => (r.sourceAsset = 'DOGE'), 'sourceAsset'],
      [(r: Record<string, unknown>) => (r.rate = 'one'), 'rate'],
      [(r: Record<string, unknown>) => (r.expiresAt = 'tomorrow'), 'expiresAt'],
      // An object Date.parse cannot turn into text (it threw: a 500).
      [(r: Record<string, unknown>) => (r.expiresAt = { toString: 1 }), 'expiresAt'],
      [(r: Record<string, unknown>) => (r.customerId = 'me'), 'customerId'],
      // Another customer's id: the quote would be theirs to read and consume.
      [(r: Record<string, unknown>) => (r.customerId = d.c2.id), 'customerId'],
      [(r: Record<string, unknown>) => (r.operationId = 7), 'operationId'],
      [(r: Record<string, unknown>) => (r.internal = 'no'), 'internal'],
      [(r: Record<string, unknown>) => (r.id = '00000000-0000-4000-8000-000000000000'), 'id'],
    ] as const) {
      const fields = fieldsOf(await control(h).post('/snapshot', edited(edit)).expect(400)).map((f) => f.field);
      expect([field, fields.length > 0 && fields.every((f) => f === `${where}.${field}`)]).toEqual([field, true]);
    }
    // Every problem at once: a bad amount, asset or expiry does not hide a bad rate or creation date.
    const everything = edited((r) => {
      r.sourceAmount = 'lots';
      r.targetAsset = 'DOGE';
      r.expiresAt = 5;
      r.internal = 'no';
      r.rate = 'one';
      r.createdAt = 'yesterday';
    });
    // Each once: a shown field fed by a refused one (the target amount, by its asset) is not named again.
    expect(
      fieldsOf(await control(h).post('/snapshot', everything).expect(400))
        .map((f) => f.field)
        .sort(),
    ).toEqual(['createdAt', 'expiresAt', 'internal', 'rate', 'sourceAmount', 'targetAsset'].map((field) => `${where}.${field}`));
    // Nothing changed: the quote is still there, and a deposit consumes it.
    expect((await api.get(`/v1/quotes/${q.id}`).expect(200)).body.status).toBe('OPEN');
    await api.post('/v1/operations/deposits', { accountId: funded.id, quoteId: q.id, fundingInstruction: { rail: 'PIX' } }).expect(201);
  });

  it("an operation's timeline whose entries the control API could not show is refused naming the field", async () => {
    const at = snapshot.records.timeline!.length - 1;
    const operationId = snapshot.records.timeline![at]!.id;
    const where = `body.records.timeline.${at}.record`;
    type Timeline = { id: unknown; entries: unknown };
    const entry = (record: Timeline) => (record.entries as Array<Record<string, unknown>>)[0]!;
    for (const [edit, field] of [
      // Each of these was restored, and the customer's state view answered 500 from then on.
      [(r: Timeline) => (entry(r).at = 'yesterday'), 'entries.0.at'],
      [(r: Timeline) => delete entry(r).eventType, 'entries.0.eventType'],
      [(r: Timeline) => (entry(r).reason = { code: 5 }), 'entries.0.reason'],
      // The control document takes any code; the operation's reason is one the service document knows.
      [(r: Timeline) => (entry(r).reason = { code: 'NOT_A_CODE', message: 'Why not.' }), 'entries.0.reason'],
      [(r: Timeline) => (entry(r).mood = 'calm'), 'entries.0.mood'],
      [(r: Timeline) => ((r.entries as unknown[])[0] = 5), 'entries.0'],
      // Without its list, the next state the operation entered failed to be added.
      [(r: Timeline) => (r.entries = 'x'), 'entries'],
      [(r: Timeline) => delete r.entries, 'entries'],
      [(r: Timeline) => (r.id = '00000000-0000-4000-8000-000000000000'), 'id'],
    ] as const) {
      const broken = withRecord('timeline', (record) => edit(record as unknown as Timeline), at);
      const fields = fieldsOf(await control(h).post('/snapshot', broken).expect(400)).map((f) => f.field);
      expect([field, fields.length > 0 && fields.every((f) => f.startsWith(`${where}.${field}`))]).toEqual([field, true]);
    }
    // An entry's problems together: a bad instant does not hide a reason the service document does not know.
    const both = withRecord(
      'timeline',
      (record) => Object.assign(entry(record as unknown as Timeline), { at: 'yesterday', reason: { code: 'NOT_A_CODE', message: 'm' } }),
      at,
    );
    expect(
      fieldsOf(await control(h).post('/snapshot', both).expect(400))
        .map((f) => f.field)
        .sort(),
    ).toEqual([`${where}.entries.0.at`, `${where}.entries.0.reason.code`]);
    // Nothing changed: the state view shows the operation with its timeline.
    const state = (await control(h).get(`/state/${d.c1.id}`).expect(200)).body as {
      operations: Array<{ operation: { id: string }; timeline: unknown[] }>;
    };
    expect(state.operations.find((view) => view.operation.id === operationId)?.timeline.length).toBeGreaterThan(0);
  });

  it('a snapshot of the earlier form, a timeline record per state, passes the check and restores with its timelines', async () => {
    const legacy = structuredClone(snapshot);
    let key = Math.max(...Object.values(legacy.records).flatMap((list) => list.map((item) => item.key)));
    legacy.records.timeline = legacy.records.timeline!.flatMap((item) =>
      (item.record.entries as Array<Record<string, unknown>>).map((entry, i) => ({
        id: `${item.id}-${i}`,
        scope: item.id,
        key: ++key,
        record: { id: `${item.id}-${i}`, operationId: item.id, ...entry },
      })),
    );
    legacy.sequence = key;
    await control(h).post('/snapshot', legacy).expect(200);
    const state = (await control(h).get(`/state/${d.c1.id}`).expect(200)).body as { operations: Array<{ timeline: unknown[] }> };
    expect(state.operations.length).toBeGreaterThan(0);
    for (const view of state.operations) expect(view.timeline.length).toBeGreaterThan(0);
  });

  it('the snapshot as taken is restored', async () => {
    await control(h).post('/snapshot', snapshot).expect(200);
  });
});

describe('a snapshot the mock took is never refused by the check', () => {
  it('operations of every kind and state, quotes of every status, a signed subscription and failed logs restore as taken', async () => {
    const signed = await startMock({ config: { webhookSigning: true } });
    // Every delivery answered 500 and not retried: a failed execution log per event.
    const failing = await startReceiver({ fallback: 500 });
    try {
      const me = await signed.as();
      const ops = control(signed);
      const subscribed = await me.post('/api/subscriptions', { url: failing.url, includeAll: true, allowRetry: false }).expect(201);
      expect(subscribed.body.signingSecret).toMatch(/^whsec_/);
      const other = d.accountsOf(d.c1.id).find((a) => a.id !== funded.id)!;
      const swapQuote = (
        await me.post('/v1/quotes', { accountId: funded.id, sourceAsset: 'BRL', targetAsset: 'USDT', sourceAmount: '50.00' }).expect(201)
      ).body;
      const made = [
        await deposit(me, '3.00'),
        await withdrawal(me, '2.00', funded.id, beneficiary.id),
        // 666.66: this withdrawal fails at settlement with INSUFFICIENT_BALANCE (magic value).
        await withdrawal(me, '666.66', funded.id, beneficiary.id),
        (await me.post('/v1/operations/swaps', { accountId: funded.id, quoteId: swapQuote.id }).expect(201)).body,
        (
          await me
            .post('/v1/operations/transfers', { accountId: funded.id, targetAccountId: other.id, asset: 'BRL', amount: '1.00' })
            .expect(201)
        ).body,
      ] as Array<{ id: string; quote: { id: string } }>;
      for (const op of made) await ops.post(`/operations/${op.id}/settle`).expect(200);
      const failed = await deposit(me, '4.00');
      await ops.post(`/operations/${failed.id}/fail`, { reason: { code: 'PAYMENT_NOT_RECEIVED', message: 'Not paid.' } }).expect(200);
      const held = await deposit(me, '5.00');
      await ops.post(`/operations/${held.id}/action-required`, { reason }).expect(200);
      const requested = await deposit(me, '6.00');
      // Quotes: one expired, one open, one of another customer, besides those consumed.
      const expired = await quote(me, '8.00');
      await ops.post('/clock/advance', { by: '31s' }).expect(200);
      const open = await quote(me, '9.00');
      const them = await signed.as('customer2');
      const theirs = await quote(them, '10.00', d.funded(d.c2.id).id);
      await signed.mock.services.webhooks.idle();
      // The transfer's quote is the internal one it made for itself.
      const mine = [expired.id, open.id, swapQuote.id, made[4]!.quote.id];
      const quoteReads = () =>
        Promise.all([...mine.map((id) => me.get(`/v1/quotes/${id}`).expect(200)), them.get(`/v1/quotes/${theirs.id}`).expect(200)]);
      const quotesBefore = (await quoteReads()).map((res) => res.body as { status: string });
      expect(quotesBefore.map((q) => q.status)).toEqual(['EXPIRED', 'OPEN', 'CONSUMED', 'CONSUMED', 'OPEN']);

      const states = (await me.get('/v1/operations?limit=50').expect(200)).body.data.map(
        (op: { currentState: { status: string } }) => op.currentState.status,
      );
      for (const state of ['COMPLETED', 'FAILED', 'ACTION_REQUIRED', 'REQUESTED']) expect(states).toContain(state);
      const taken = (await ops.get('/snapshot').expect(200)).body;
      const logs = taken.records.executionLog as Array<{ record: { status: string } }>;
      expect(logs.length).toBeGreaterThan(0);
      expect(logs.every((log) => log.record.status !== 'SUCCESS')).toBe(true);
      expect(snapshotRecordProblems(taken.records, signed.mock.contract, showing(signed), controlContract())).toEqual([]);

      const before = await Promise.all([
        me.get('/v1/operations?limit=50').expect(200),
        me.get(`/v1/subscriptions/${subscribed.body.id}`).expect(200),
        me.get(`/v1/subscriptions/${subscribed.body.id}/executionLogs?limit=50`).expect(200),
        me.get(`/v1/operations/${requested.id}`).expect(200),
      ]);
      await ops.post('/reset').expect(200);
      expect((await me.get('/v1/operations?limit=50').expect(200)).body.data).toEqual([]);
      await ops.post('/snapshot', taken).expect(200);
      const after = await Promise.all([
        me.get('/v1/operations?limit=50').expect(200),
        me.get(`/v1/subscriptions/${subscribed.body.id}`).expect(200),
        me.get(`/v1/subscriptions/${subscribed.body.id}/executionLogs?limit=50`).expect(200),
        me.get(`/v1/operations/${requested.id}`).expect(200),
      ]);
      expect(after.map((res) => res.body)).toEqual(before.map((res) => res.body));
      expect((await quoteReads()).map((res) => res.body)).toEqual(quotesBefore);
    } finally {
      await failing.close();
      await signed.close();
    }
  });
});
