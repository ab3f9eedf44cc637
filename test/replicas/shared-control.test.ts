// What the control API changes through one replica holds on every other, from the very next
// request: the mock clock (and the jobs it makes due, wherever they were scheduled), faults with
// their `times` counted across replicas, the journal of every replica's requests, the rate
// limit's buckets, snapshots and reset.
import { expect, it } from '@jest/globals';
import { describeWithRedis } from '../support/redis-suite';
import { openLiveStream } from '../support/live-stream';
import { twoReplicas } from '../support/replica-pair';

describeWithRedis('two replicas on one Redis: the control API acts on both', (redis) => {
  // Auto-settlement on (5 s of mock time) and a rate limit, so both are shared state to check.
  const [a, b] = twoReplicas(redis, { RATE_LIMIT: '5/1m' });

  it('a clock advanced on one replica is the clock of the other, and runs the jobs the other scheduled', async () => {
    const customer = await a.customer();
    const api = a.as(await a.token(customer.clientId, customer.clientSecret));
    const accountId = customer.accounts[0]!;
    const quote = await api.post('/v1/quotes', { accountId, sourceAsset: 'BRL', targetAsset: 'BRL', sourceAmount: '12.34' });
    expect(quote.status).toBe(201);
    // Created on replica A: A's scheduler holds its auto-settlement.
    const deposit = await api.post('/v1/operations/deposits', { accountId, quoteId: quote.body.id, fundingInstruction: { rail: 'PIX' } });
    expect(deposit.status).toBe(201);

    const advanced = (await b.control('POST', '/clock/advance', { by: '6s' })).body as { now: string };
    expect((await a.control('GET', '/clock')).body.now >= advanced.now).toBe(true);
    const onB = b.as(await b.token(customer.clientId, customer.clientSecret));
    expect((await onB.get(`/v1/operations/${deposit.body.id}`)).body.currentState.status).toBe('COMPLETED');

    const frozen = (await a.control('POST', '/clock/freeze', {})).body as { now: string; frozen: boolean };
    expect((await b.control('GET', '/clock')).body).toEqual(frozen);
    await b.control('POST', '/clock/unfreeze');
    expect((await a.control('GET', '/clock')).body.frozen).toBe(false);
  });

  it('a fault set through one replica acts on both, and its times are counted across them', async () => {
    const fault = (await a.control('POST', '/faults', { path: '/v1/reference/resources', error: { status: 502 }, times: 3 })).body as {
      id: string;
    };
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await (i % 2 === 0 ? b : a).call('GET', '/v1/reference/resources')).status);
    // The reference lists need a token: unfaulted answers are 401; faulted ones 502, three in all.
    expect(statuses.filter((s) => s === 502)).toHaveLength(3);
    expect(statuses.slice(0, 3)).toEqual([502, 502, 502]);
    expect(((await b.control('GET', '/faults')).body.data as Array<{ id: string }>).map((f) => f.id)).not.toContain(fault.id);
  });

  it('the journal holds the requests of both replicas', async () => {
    const first = await a.call('GET', '/no/such/path/on-a');
    const second = await b.call('GET', '/no/such/path/on-b');
    const journal = (await a.control('GET', '/journal?limit=20')).body.data as Array<{ requestId: string; path: string }>;
    const ids = journal.map((entry) => entry.requestId);
    expect(ids).toContain(first.headers['x-request-id']);
    expect(ids).toContain(second.headers['x-request-id']);
  });

  it("a customer's rate-limit bucket is one for the whole service", async () => {
    const customer = await a.customer();
    const onA = a.as(await a.token(customer.clientId, customer.clientSecret));
    const onB = b.as(await b.token(customer.clientId, customer.clientSecret));
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await (i % 2 === 0 ? onA : onB).get('/api/accounts?limit=1')).status);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
  });

  it('a reset through one replica resets the state both serve, and drops the faults set through the other', async () => {
    await a.control('POST', '/faults', { path: '/v1/reference/eventTypes', error: { status: 500 } });
    const customer = await b.customer();
    await b.control('POST', '/reset');
    expect((await a.control('GET', '/faults')).body.data).toEqual([]);
    expect((await a.call('GET', '/v1/reference/eventTypes')).status).toBe(401);
    const token = await a.call('POST', '/api/oauth/client/token', {}, { clientId: customer.clientId, clientSecret: customer.clientSecret });
    expect(token.status).toBe(401);
  });

  it('a snapshot exported through one replica and imported through the other restores what both serve', async () => {
    const customer = await a.customer();
    const snapshot = (await a.control('GET', '/snapshot')).body;
    await a.control('POST', '/reset');
    expect(
      (await b.call('POST', '/api/oauth/client/token', {}, { clientId: customer.clientId, clientSecret: customer.clientSecret })).status,
    ).toBe(401);
    await b.control('POST', '/snapshot', snapshot);
    const token = await a.token(customer.clientId, customer.clientSecret);
    expect((await a.as(token).get('/api/accounts?limit=1')).status).toBe(200);
  });
});

describeWithRedis('two replicas on one Redis: control calls at the same moment', (redis) => {
  const [a, b] = twoReplicas(redis, { AUTO_SETTLE_MS: 'off' });

  it('three rounds of two advances of 1 h at once, one through each replica, move the shared clock 6 h', async () => {
    const frozen = (await a.control('POST', '/clock/freeze', {})).body as { now: string };
    for (let round = 0; round < 3; round++)
      await Promise.all([a.control('POST', '/clock/advance', { by: '1h' }), b.control('POST', '/clock/advance', { by: '1h' })]);
    const now = (await b.control('GET', '/clock')).body as { now: string };
    expect(Date.parse(now.now) - Date.parse(frozen.now)).toBe(6 * 3_600_000);
    await a.control('POST', '/clock/unfreeze');
  });

  it('resets through one replica while the other takes writes leave the demo data whole every time', async () => {
    // demo-client survives every reset (same id, same credentials), so its writes go on throughout.
    const api = b.as(await b.token('demo-client', 'demo-secret'));
    const accountId = ((await api.get('/api/accounts?limit=1')).body.data as Array<{ id: string }>)[0]!.id;
    let writing = true;
    const writes = (async () => {
      while (writing) await api.post('/v1/quotes', { accountId, sourceAsset: 'BRL', targetAsset: 'BRL', sourceAmount: '1.00' });
    })();
    try {
      for (let i = 0; i < 5; i++) await a.control('POST', '/reset');
    } finally {
      writing = false;
      await writes;
    }
    for (const client of [a, b]) {
      const demo = client.as(await client.token('demo-client', 'demo-secret'));
      expect((await demo.get('/api/accounts?limit=100')).body.data).toHaveLength(3);
    }
  });

  it('the inspector on one replica sees what the other did: a live notice, the state, the journal entry whole', async () => {
    const stream = await openLiveStream(b.baseUrl);
    const customer = await a.customer();
    const api = a.as(await a.token(customer.clientId, customer.clientSecret));
    const accountId = customer.accounts[0]!;
    const quote = await api.post('/v1/quotes', { accountId, sourceAsset: 'BRL', targetAsset: 'BRL', sourceAmount: '3.21' });
    expect(quote.status).toBe(201);
    // Made through A, a notice on B's stream (relayed over Redis).
    await stream.until('requests');
    await stream.close();
    const entry = (await b.control('GET', `/journal/${String(quote.headers['x-request-id'])}`)).body;
    expect(entry).toMatchObject({ path: '/v1/quotes', status: 201, request: { body: { sourceAmount: '3.21' } } });
    const state = (await b.control('GET', `/state/${customer.customerId}`)).body as {
      quotes: Array<{ quote: { id: string }; status: string }>;
    };
    expect(state.quotes.find((q) => q.quote.id === quote.body.id)?.status).toBe('OPEN');
  });
});
