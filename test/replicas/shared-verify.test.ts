// Per-customer journals and verification on two replicas sharing one Redis: a customer's journal
// and verification gather the requests both replicas answered; a fault scoped to a customer acts on both and on no one else;
// a customer's reset, asked of one replica, clears its journal on both and drops its pending jobs
// from the shared queue; either replica lists every customer's jobs, own clocks included.
import { expect, it } from '@jest/globals';
import { describeWithRedis } from '../support/redis-suite';
import { twoReplicas } from '../support/replica-pair';

describeWithRedis('two replicas on one Redis: verification and customer scopes span both', (redis) => {
  const [a, b] = twoReplicas(redis);

  it('verify counts a customer’s quotes made through either replica, bodies included; its reset clears both journals', async () => {
    const customer = await a.customer();
    const quote = (sourceAmount: string) => ({ accountId: customer.accounts[0], sourceAsset: 'BRL', targetAsset: 'BRL', sourceAmount });
    const onA = a.as(await a.token(customer.clientId, customer.clientSecret));
    const onB = b.as(await b.token(customer.clientId, customer.clientSecret));
    expect((await onA.post('/v1/quotes', quote('10.00'))).status).toBe(201);
    expect((await onB.post('/v1/quotes', quote('10.00'))).status).toBe(201);
    expect((await onB.post('/v1/quotes', quote('25.00'))).status).toBe(201);
    const request = {
      method: 'POST',
      path: '/v1/quotes',
      customerId: customer.customerId,
      body: [{ path: '$.sourceAmount', equals: '10.00' }],
    };
    const verdict = (await b.control('POST', '/journal/verify', { request, count: { exactly: 2 } })).body;
    expect(verdict).toMatchObject({ ok: true, count: 2 });

    await a.control('POST', `/customers/${customer.customerId}/reset`);
    expect((await b.control('GET', `/journal?customerId=${customer.customerId}`)).body.data).toEqual([]);
  });

  it('a fault scoped to a customer acts on its requests through either replica, and not on another customer’s', async () => {
    const target = await a.customer();
    const other = await a.customer();
    await a.control('POST', '/faults', { path: '/api/accounts', customerId: target.customerId, error: { status: 502 } });
    const targetOnB = b.as(await b.token(target.clientId, target.clientSecret));
    const otherOnB = b.as(await b.token(other.clientId, other.clientSecret));
    expect((await targetOnB.get('/api/accounts')).status).toBe(502);
    expect((await otherOnB.get('/api/accounts')).status).toBe(200);
    await b.control('DELETE', `/faults?customerId=${target.customerId}`);
    expect((await targetOnB.get('/api/accounts')).status).toBe(200);
  });

  it('either replica lists a customer’s own-clock jobs; its reset, asked of the other, drops them from the shared queue', async () => {
    const own = (await a.control('POST', '/customers', { clock: { frozen: true } })).body as {
      customerId: string;
      clientId: string;
      clientSecret: string;
      accounts: string[];
    };
    const api = a.as(await a.token(own.clientId, own.clientSecret));
    const accountId = own.accounts[0];
    const quote = await api.post('/v1/quotes', { accountId, sourceAsset: 'BRL', targetAsset: 'BRL', sourceAmount: '10.00' });
    const deposit = await api.post('/v1/operations/deposits', { accountId, quoteId: quote.body.id, fundingInstruction: { rail: 'PIX' } });
    expect(deposit.status).toBe(201);
    const listed = (await b.control('GET', '/jobs')).body.data as Array<{
      customerId?: string;
      ownClock: boolean;
      subject: { operationId?: string };
    }>;
    expect(listed.find((job) => job.subject.operationId === deposit.body.id)).toMatchObject({ customerId: own.customerId, ownClock: true });

    await b.control('POST', `/customers/${own.customerId}/reset`);
    expect((await a.control('GET', `/jobs?customerId=${own.customerId}`)).body).toEqual({ total: 0, data: [] });
  });
});
