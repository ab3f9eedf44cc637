// A customer's own clock on two replicas sharing one Redis: the clock is kept with the customer in
// the shared store, so a move through one replica is the clock of the other from its answer on,
// and the customer's jobs run whichever replica scheduled them, and only that customer's.
import { expect, it } from '@jest/globals';
import { describeWithRedis } from '../support/redis-suite';
import { twoReplicas } from '../support/replica-pair';
import type { ServiceClient } from '../support/replicas';

interface NewCustomer {
  customerId: string;
  clientId: string;
  clientSecret: string;
  accounts: string[];
}

describeWithRedis('a customer’s own clock on two replicas on one Redis', (redis) => {
  // Auto-settlement 5 s after creation, by the customer's clock.
  const [a, b] = twoReplicas(redis, { AUTO_SETTLE_MS: '5000' });

  const newCustomer = async (on: ServiceClient): Promise<NewCustomer> => {
    const answer = await on.call('POST', '/_mock/customers', {}, { clock: { start: '2030-01-01T00:00:00Z', frozen: true } });
    expect(answer.status).toBe(201);
    return answer.body as NewCustomer;
  };
  const depositOn = async (on: ServiceClient, customer: NewCustomer) => {
    const api = on.as(await on.token(customer.clientId, customer.clientSecret));
    const accountId = customer.accounts[0]!;
    const quoteBody = { accountId, sourceAsset: 'BRL', targetAsset: 'BRL', sourceAmount: '12.34' };
    const quote = await api.post('/v1/quotes', quoteBody);
    // A second quote, left unused: OPEN or EXPIRED by the customer's clock.
    const unused = await api.post('/v1/quotes', quoteBody);
    expect([quote.status, unused.status]).toEqual([201, 201]);
    const deposit = await api.post('/v1/operations/deposits', { accountId, quoteId: quote.body.id, fundingInstruction: { rail: 'PIX' } });
    expect(deposit.status).toBe(201);
    return { api, quoteId: unused.body.id as string, operationId: deposit.body.id as string };
  };

  it('advanced through one replica, the clock is the other’s too, and runs the deposit the other scheduled, no one else’s', async () => {
    const own = await newCustomer(a);
    const other = await newCustomer(b);
    // Made on replica A: A's queue for this clock holds the auto-settlement.
    const ownWork = await depositOn(a, own);
    const otherWork = await depositOn(b, other);

    const advanced = await b.call('POST', `/_mock/customers/${own.customerId}/clock/advance`, {}, { by: '31s' });
    expect(advanced.status).toBe(200);
    expect(advanced.body).toEqual({ customerId: own.customerId, own: true, now: '2030-01-01T00:00:31.000Z', frozen: true });
    expect((await a.call('GET', `/_mock/customers/${own.customerId}/clock`)).body).toEqual(advanced.body);

    const onB = b.as(await b.token(own.clientId, own.clientSecret));
    expect((await onB.get(`/v1/operations/${ownWork.operationId}`)).body.currentState.status).toBe('COMPLETED');
    // Read through the replica that did not move it: expired by the customer's clock there too.
    expect((await ownWork.api.get(`/v1/quotes/${ownWork.quoteId}`)).body.status).toBe('EXPIRED');
    expect((await otherWork.api.get(`/v1/operations/${otherWork.operationId}`)).body.currentState.status).toBe('REQUESTED');
    expect((await otherWork.api.get(`/v1/quotes/${otherWork.quoteId}`)).body.status).toBe('OPEN');
  });

  it('the mock’s clock advanced through either replica leaves an own clock where it stands', async () => {
    const own = await newCustomer(a);
    const before = (await b.call('GET', `/_mock/customers/${own.customerId}/clock`)).body;
    expect((await a.call('POST', '/_mock/clock/advance', {}, { by: '2h' })).status).toBe(200);
    expect((await b.call('GET', `/_mock/customers/${own.customerId}/clock`)).body).toEqual(before);
    expect((await a.call('GET', `/_mock/customers/${own.customerId}/clock`)).body).toEqual(before);
  });
});
