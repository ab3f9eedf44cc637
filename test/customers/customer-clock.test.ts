// A clock per customer (POST /_mock/customers {clock}), like Stripe's test clocks: the customer's
// quotes, tokens, idempotency keys, auto-settlements and webhook retries run on its own clock,
// which only /_mock/customers/{id}/clock/... moves; the mock's clock never moves it, and moving
// it touches no other customer.
import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { startReceiver, type Receiver } from '../../mock/receiver/receiver';
import { authedWith, CLOCK_START, startMock, type Authed, type Harness } from '../http/harness';
import { control, d, funded } from '../control/support';

const iso = (ms: number) => new Date(ms).toISOString();
const OWN_START = Date.parse('2030-01-01T00:00:00.000Z');

interface NewCustomer {
  customerId: string;
  clientId: string;
  clientSecret: string;
  accounts: string[];
  clock?: { now: string; frozen: boolean };
}

/** The copy of demo-client's funded BRL account in a new customer. */
const fundedCopy = (customer: NewCustomer) => customer.accounts[d.accountsOf(d.c1.id).findIndex((a) => a.id === funded.id)] as string;

async function newCustomer(h: Harness, clock?: { start?: string; frozen?: boolean }): Promise<NewCustomer> {
  return (
    await control(h)
      .post('/customers', clock ? { clock } : {})
      .expect(201)
  ).body as NewCustomer;
}

async function as(h: Harness, customer: NewCustomer): Promise<Authed> {
  const credentials = { clientId: customer.clientId, clientSecret: customer.clientSecret };
  const token = (await h.http.post('/api/oauth/client/token').send(credentials).expect(200)).body.accessToken as string;
  return authedWith(h.http, token);
}

const quoteBody = (accountId: string) => ({ accountId, sourceAsset: 'BRL', targetAsset: 'BRL', sourceAmount: '10.00' });

async function quote(api: Authed, accountId: string) {
  return (await api.post('/v1/quotes', quoteBody(accountId)).expect(201)).body as { id: string; status: string; createdAt: string };
}

async function deposit(api: Authed, accountId: string) {
  const q = await quote(api, accountId);
  const body = { accountId, quoteId: q.id, fundingInstruction: { rail: 'PIX' } };
  return (await api.post('/v1/operations/deposits', body).expect(201)).body as { id: string };
}

const statusOf = async (api: Authed, operationId: string) =>
  ((await api.get(`/v1/operations/${operationId}`).expect(200)).body as { currentState: { status: string } }).currentState.status;

describe('a customer with its own clock', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startMock({ config: { autoSettleMs: 5000 } });
  });
  afterAll(() => h?.close());

  it('is created frozen at its start instant, and its records and quotes are stamped by that clock', async () => {
    const customer = await newCustomer(h, { start: iso(OWN_START), frozen: true });
    expect(customer.clock).toEqual({ now: iso(OWN_START), frozen: true });
    expect((await control(h).get(`/customers/${customer.customerId}/clock`).expect(200)).body).toEqual({
      customerId: customer.customerId,
      own: true,
      now: iso(OWN_START),
      frozen: true,
    });
    const api = await as(h, customer);
    const q = await quote(api, fundedCopy(customer));
    expect(q.createdAt).toBe(iso(OWN_START));
    const subscription = { url: 'http://127.0.0.1:9/hook', resources: [{ name: 'OPERATION', events: ['OPERATION_COMPLETED'] }] };
    expect((await api.post('/api/subscriptions', subscription).expect(201)).body.createdAt).toBe(iso(OWN_START));
  });

  it('is listed with its clock in the customers the inspector reads (GET /_mock/state); others without one', async () => {
    const own = await newCustomer(h, { start: iso(OWN_START), frozen: true });
    const plain = await newCustomer(h);
    const customers = (await control(h).get('/state').expect(200)).body.data as Array<{ id: string; clock?: unknown }>;
    expect(customers.find((c) => c.id === own.customerId)?.clock).toEqual({ now: iso(OWN_START), frozen: true });
    expect(customers.find((c) => c.id === plain.customerId)).not.toHaveProperty('clock');
  });

  it('starts at the mock clock’s instant when no start is given', async () => {
    const customer = await newCustomer(h, { frozen: true });
    expect(customer.clock).toEqual({ now: iso(CLOCK_START), frozen: true });
  });

  it('advanced 31 s expires its quote while another customer’s quote stays usable', async () => {
    const own = await newCustomer(h, { frozen: true });
    const other = await newCustomer(h, { frozen: true });
    const [ownApi, otherApi, demoApi] = [await as(h, own), await as(h, other), await h.as()];
    const ownQuote = await quote(ownApi, fundedCopy(own));
    const otherQuote = await quote(otherApi, fundedCopy(other));
    const demoQuote = await quote(demoApi, funded.id);

    const moved = (await control(h).post(`/customers/${own.customerId}/clock/advance`, { by: '31s' }).expect(200)).body;
    expect(moved).toEqual({ customerId: own.customerId, own: true, now: iso(CLOCK_START + 31_000), frozen: true });

    expect((await ownApi.get(`/v1/quotes/${ownQuote.id}`).expect(200)).body.status).toBe('EXPIRED');
    const refused = await ownApi
      .post('/v1/operations/deposits', { accountId: fundedCopy(own), quoteId: ownQuote.id, fundingInstruction: { rail: 'PIX' } })
      .expect(422);
    expect(refused.body.code).toBe('QUOTE_EXPIRED');
    expect((await otherApi.get(`/v1/quotes/${otherQuote.id}`).expect(200)).body.status).toBe('OPEN');
    expect((await demoApi.get(`/v1/quotes/${demoQuote.id}`).expect(200)).body.status).toBe('OPEN');
    expect((await control(h).get('/clock').expect(200)).body).toEqual({ now: iso(CLOCK_START), frozen: true });
  });

  it('advanced past AUTO_SETTLE_MS settles its deposit while another customer’s and demo-client’s stay REQUESTED', async () => {
    const own = await newCustomer(h, { frozen: true });
    const other = await newCustomer(h, { frozen: true });
    const [ownApi, otherApi, demoApi] = [await as(h, own), await as(h, other), await h.as()];
    const ownOp = await deposit(ownApi, fundedCopy(own));
    const otherOp = await deposit(otherApi, fundedCopy(other));
    const demoOp = await deposit(demoApi, funded.id);

    await control(h).post(`/customers/${own.customerId}/clock/advance`, { by: '5s' }).expect(200);
    expect(await statusOf(ownApi, ownOp.id)).toBe('COMPLETED');
    expect(await statusOf(otherApi, otherOp.id)).toBe('REQUESTED');
    expect(await statusOf(demoApi, demoOp.id)).toBe('REQUESTED');
  });

  it('is not moved by the mock’s clock: a global advance settles demo-client’s deposit and leaves the own clock’s alone', async () => {
    const own = await newCustomer(h, { frozen: true });
    const ownApi = await as(h, own);
    const demoApi = await h.as();
    const ownOp = await deposit(ownApi, fundedCopy(own));
    const ownQuote = await quote(ownApi, fundedCopy(own));
    const demoOp = await deposit(demoApi, funded.id);
    const before = (await control(h).get(`/customers/${own.customerId}/clock`).expect(200)).body;

    await control(h).post('/clock/advance', { by: '1h' }).expect(200);
    expect(await statusOf(demoApi, demoOp.id)).toBe('COMPLETED');
    expect(await statusOf(ownApi, ownOp.id)).toBe('REQUESTED');
    expect((await ownApi.get(`/v1/quotes/${ownQuote.id}`).expect(200)).body.status).toBe('OPEN');
    expect((await control(h).get(`/customers/${own.customerId}/clock`).expect(200)).body).toEqual(before);
  });

  it('expires its token by its own clock (exp = issue + 82800 s of that clock), while demo-client’s token still works', async () => {
    const own = await newCustomer(h, { frozen: true });
    const ownApi = await as(h, own);
    const demoApi = await h.as();
    await ownApi.get('/api/accounts').expect(200);
    await control(h).post(`/customers/${own.customerId}/clock/advance`, { by: '23h' }).expect(200);
    const expired = await ownApi.get('/api/accounts').expect(401);
    expect(expired.body.details).toEqual({ reason: 'the token has expired' });
    await demoApi.get('/api/accounts').expect(200);
    // A token issued now lives 23 h of the customer's clock from its new instant.
    await (await as(h, own)).get('/api/accounts').expect(200);
  });

  it('keeps its idempotency keys 24 h of its own clock: replayed before, a new request after', async () => {
    const own = await newCustomer(h, { frozen: true });
    const key = randomUUID();
    const first = await (await as(h, own)).post('/v1/quotes', quoteBody(fundedCopy(own)), key).expect(201);
    const replay = await (await as(h, own)).post('/v1/quotes', quoteBody(fundedCopy(own)), key).expect(201);
    expect(replay.headers['x-idempotent-replayed']).toBe('true');
    expect(replay.body.id).toBe(first.body.id);
    // The mock's clock moving a day expires nothing of the customer's.
    await control(h).post('/clock/advance', { by: '25h' }).expect(200);
    expect((await (await as(h, own)).post('/v1/quotes', quoteBody(fundedCopy(own)), key).expect(201)).body.id).toBe(first.body.id);

    await control(h).post(`/customers/${own.customerId}/clock/advance`, { by: '24h' }).expect(200);
    const other = { ...quoteBody(fundedCopy(own)), sourceAmount: '11.00' };
    const fresh = await (await as(h, own)).post('/v1/quotes', other, key).expect(201);
    expect(fresh.headers['x-idempotent-replayed']).toBeUndefined();
    expect(fresh.body.id).not.toBe(first.body.id);
  });

  it('freezes at an instant and runs again from there', async () => {
    const own = await newCustomer(h, { frozen: false });
    expect(own.clock?.frozen).toBe(false);
    const path = `/customers/${own.customerId}/clock`;
    const at = '2031-05-01T10:00:00.000Z';
    expect((await control(h).post(`${path}/freeze`, { at }).expect(200)).body).toEqual({
      customerId: own.customerId,
      own: true,
      now: at,
      frozen: true,
    });
    const running = (await control(h).post(`${path}/unfreeze`).expect(200)).body;
    expect(running.frozen).toBe(false);
    expect(Date.parse(running.now)).toBeGreaterThanOrEqual(Date.parse(at));
    expect((await control(h).get('/clock').expect(200)).body.frozen).toBe(true);
  });
});

describe('webhook retries on a customer’s own clock', () => {
  let h: Harness;
  let receiver: Receiver;
  beforeAll(async () => {
    h = await startMock();
  });
  afterEach(() => receiver?.close());
  afterAll(() => h?.close());

  it('a failed delivery is retried when the customer’s clock reaches the retry, not when the mock’s does', async () => {
    receiver = await startReceiver();
    receiver.script({ status: 500 });
    const own = await newCustomer(h, { frozen: true });
    const api = await as(h, own);
    const subscription = { url: receiver.url, allowRetry: true, resources: [{ name: 'OPERATION', events: ['OPERATION_REQUESTED'] }] };
    const sub = (await api.post('/api/subscriptions', subscription).expect(201)).body as { id: string };
    await deposit(api, fundedCopy(own));
    await control(h).post('/webhooks/idle').expect(200, { status: 'idle' });
    expect(receiver.received).toHaveLength(1);
    // The deliveries view shows the retry waiting on the customer's clock: 5 s after its instant.
    const deliveries = (await control(h).get(`/deliveries?subscriptionId=${sub.id}`).expect(200)).body;
    expect(deliveries.data[0].messages[0].nextAttemptAt).toBe(iso(CLOCK_START + 5_000));

    await control(h).post('/clock/advance', { by: '1h' }).expect(200);
    expect(receiver.received).toHaveLength(1);

    await control(h).post(`/customers/${own.customerId}/clock/advance`, { by: '5s' }).expect(200);
    expect(receiver.received).toHaveLength(2);
    expect(receiver.received[1]!.headers['x-message-id']).toBe(receiver.received[0]!.headers['x-message-id']);
  });
});

describe('the rate limit on a customer’s own clock', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startMock({ config: { rateLimit: { requests: 2, perMs: 60_000 } } });
  });
  afterAll(() => h?.close());

  it('an emptied bucket refills as the customer’s clock moves, not as the mock’s does', async () => {
    const own = await newCustomer(h, { frozen: true });
    const api = await as(h, own);
    await api.get('/api/accounts').expect(200);
    await api.get('/api/accounts').expect(200);
    expect((await api.get('/api/accounts').expect(429)).body.code).toBe('RATE_LIMITED');

    await control(h).post('/clock/advance', { by: '1m' }).expect(200);
    await api.get('/api/accounts').expect(429);

    await control(h).post(`/customers/${own.customerId}/clock/advance`, { by: '30s' }).expect(200);
    await api.get('/api/accounts').expect(200);
    await api.get('/api/accounts').expect(429);
  });

  it('the token call’s bucket (its client id’s) refills as the customer’s clock moves, not as the mock’s does', async () => {
    const own = await newCustomer(h, { frozen: true });
    const token = () => h.http.post('/api/oauth/client/token').send({ clientId: own.clientId, clientSecret: own.clientSecret });
    await token().expect(200);
    await token().expect(200);
    expect((await token().expect(429)).body.code).toBe('RATE_LIMITED');

    await control(h).post('/clock/advance', { by: '1m' }).expect(200);
    await token().expect(429);

    await control(h).post(`/customers/${own.customerId}/clock/advance`, { by: '30s' }).expect(200);
    await token().expect(200);
    await token().expect(429);
  });
});

describe('refusals, customers on the mock’s clock, and snapshots', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startMock();
  });
  afterAll(() => h?.close());

  it('an unknown customer is 404 RESOURCE_NOT_FOUND; an id that is not a uuid is 400', async () => {
    const unknown = randomUUID();
    for (const call of [
      control(h).get(`/customers/${unknown}/clock`),
      control(h).post(`/customers/${unknown}/clock/advance`, { by: '1s' }),
      control(h).post(`/customers/${unknown}/clock/freeze`, {}),
      control(h).post(`/customers/${unknown}/clock/unfreeze`),
    ]) {
      const res = await call.expect(404);
      expect(res.body).toMatchObject({ code: 'RESOURCE_NOT_FOUND', details: { resource: 'customer', id: unknown } });
    }
    expect((await control(h).get('/customers/not-a-uuid/clock').expect(400)).body.code).toBe('VALIDATION_ERROR');
  });

  it('a bad duration, a bad instant or an unknown clock field is 400 VALIDATION_ERROR naming the field', async () => {
    const own = await newCustomer(h, { frozen: true });
    for (const by of ['soon', '1.5h', -5]) {
      const res = await control(h).post(`/customers/${own.customerId}/clock/advance`, { by }).expect(400);
      expect(res.body).toMatchObject({ code: 'VALIDATION_ERROR', details: { fields: [expect.objectContaining({ field: 'body.by' })] } });
    }
    const badAt = await control(h).post(`/customers/${own.customerId}/clock/freeze`, { at: 'tomorrow' }).expect(400);
    expect(badAt.body.details.fields[0].field).toBe('body.at');
    const badStart = await control(h)
      .post('/customers', { clock: { start: 'tomorrow' } })
      .expect(400);
    expect(badStart.body.details.fields[0].field).toBe('body.clock.start');
    expect(
      (
        await control(h)
          .post('/customers', { clock: { speed: 2 } })
          .expect(400)
      ).body.code,
    ).toBe('VALIDATION_ERROR');
  });

  it('a customer without its own clock reads the mock’s and cannot move it: 409 INVALID_STATE_TRANSITION', async () => {
    const plain = await newCustomer(h);
    expect(plain.clock).toBeUndefined();
    expect((await control(h).get(`/customers/${plain.customerId}/clock`).expect(200)).body).toEqual({
      customerId: plain.customerId,
      own: false,
      now: iso(CLOCK_START),
      frozen: true,
    });
    const refused = await control(h).post(`/customers/${plain.customerId}/clock/advance`, { by: '1s' }).expect(409);
    expect(refused.body).toMatchObject({
      code: 'INVALID_STATE_TRANSITION',
      details: { customerId: plain.customerId, reason: 'no own clock' },
    });
  });

  it('a snapshot carries each own clock: restored, the customer’s clock shows the instant it was saved at', async () => {
    const own = await newCustomer(h, { frozen: true });
    const path = `/customers/${own.customerId}/clock`;
    await control(h).post(`${path}/advance`, { by: '1h' }).expect(200);
    const snapshot = (await control(h).get('/snapshot').expect(200)).body;
    expect(snapshot.customerClocks).toContainEqual({ customerId: own.customerId, now: iso(CLOCK_START + 3_600_000), frozen: true });

    await control(h).post(`${path}/advance`, { by: '5h' }).expect(200);
    await control(h).post('/snapshot', snapshot).expect(200);
    expect((await control(h).get(path).expect(200)).body).toEqual({
      customerId: own.customerId,
      own: true,
      now: iso(CLOCK_START + 3_600_000),
      frozen: true,
    });
  });

  it('a reset of one customer puts its own clock back to its start, and leaves another’s where it stands', async () => {
    const own = await newCustomer(h, { start: iso(OWN_START), frozen: true });
    const other = await newCustomer(h, { start: iso(OWN_START), frozen: true });
    await control(h).post(`/customers/${own.customerId}/clock/advance`, { by: '2h' }).expect(200);
    await control(h).post(`/customers/${other.customerId}/clock/advance`, { by: '1h' }).expect(200);
    await control(h).post(`/customers/${own.customerId}/reset`).expect(200);
    expect((await control(h).get(`/customers/${own.customerId}/clock`).expect(200)).body).toMatchObject({
      now: iso(OWN_START),
      frozen: true,
    });
    expect((await control(h).get(`/customers/${other.customerId}/clock`).expect(200)).body.now).toBe(iso(OWN_START + 3_600_000));
  });

  it('a reset forgets the customers made since, with their clocks', async () => {
    const own = await newCustomer(h, { frozen: true });
    await control(h).post('/reset').expect(200);
    await control(h).get(`/customers/${own.customerId}/clock`).expect(404);
  });
});
