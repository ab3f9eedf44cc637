// A customer's pending jobs: GET /_mock/jobs lists the jobs of every clock - the mock's
// and each customer's own - each with its customer, and `?customerId=` keeps one customer's; a
// customer's reset drops its pending settlements, deliveries and retries, and no one else's.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startMock, type Harness } from '../http/harness';
import { control, d } from '../control/support';
import { depositFor, newCustomer, type TestCustomer } from '../verify/support';

interface Job {
  id: string;
  kind: string;
  customerId?: string;
  ownClock: boolean;
  subject: { operationId?: string; subscriptionId?: string };
}

let h: Harness;
beforeAll(async () => {
  h = await startMock({ config: { autoSettleMs: 60_000 } });
});
afterAll(() => h?.close());

const jobs = async (query = '') => (await control(h).get(`/jobs${query}`).expect(200)).body as { total: number; data: Job[] };

/** A subscription with retries to a port where nothing listens: its first attempt fails and a retry waits. */
async function failingSubscription(customer: TestCustomer): Promise<string> {
  const body = { url: 'http://127.0.0.1:9/hook', allowRetry: true, resources: [{ name: 'OPERATION', events: ['OPERATION_REQUESTED'] }] };
  return (await customer.api.post('/api/subscriptions', body).expect(201)).body.id as string;
}

describe('pending jobs per customer', () => {
  it('GET /_mock/jobs lists a customer’s own-clock jobs beside the mock clock’s, each with its customer', async () => {
    const own = await newCustomer(h, { clock: { frozen: true } });
    const plain = await newCustomer(h);
    const ownOp = await depositFor(own, '10.00');
    const plainOp = await depositFor(plain, '10.00');

    const all = (await jobs()).data;
    const ownJob = all.find((job) => job.subject.operationId === ownOp.id);
    expect(ownJob).toMatchObject({ kind: 'auto-settle', customerId: own.customerId, ownClock: true });
    expect(ownJob?.id.startsWith(`${own.customerId}:`)).toBe(true);
    expect(all.find((job) => job.subject.operationId === plainOp.id)).toMatchObject({ customerId: plain.customerId, ownClock: false });
    expect(new Set(all.map((job) => job.id)).size).toBe(all.length);
  });

  it('?customerId= keeps that customer’s jobs, on its own clock or on the mock’s; an unknown customer is a 404', async () => {
    const own = await newCustomer(h, { clock: { frozen: true } });
    const plain = await newCustomer(h);
    const ownOp = await depositFor(own, '10.00');
    const plainOp = await depositFor(plain, '10.00');

    const ofOwn = await jobs(`?customerId=${own.customerId}`);
    expect(ofOwn.total).toBe(1);
    expect(ofOwn.data.map((job) => job.subject.operationId)).toEqual([ownOp.id]);
    const ofPlain = await jobs(`?customerId=${plain.customerId}`);
    expect(ofPlain.data.map((job) => [job.subject.operationId, job.customerId])).toEqual([[plainOp.id, plain.customerId]]);
    expect((await jobs(`?customerId=${d.c2.id}`)).data).toEqual([]);
    const unknown = await control(h).get('/jobs?customerId=00000000-0000-4000-8000-000000000000').expect(404);
    expect(unknown.body).toMatchObject({ code: 'RESOURCE_NOT_FOUND', details: { resource: 'customer' } });
  });

  it('a customer’s reset drops its pending settlements and webhook retries, on either clock; others keep theirs', async () => {
    const alice = await newCustomer(h);
    const carol = await newCustomer(h, { clock: { frozen: true } });
    const bob = await newCustomer(h);
    const aliceSub = await failingSubscription(alice);
    const carolSub = await failingSubscription(carol);
    await depositFor(alice, '10.00');
    await depositFor(carol, '10.00');
    const bobOp = await depositFor(bob, '10.00');
    await control(h).post('/webhooks/idle').expect(200);
    // A settlement and a retry (the first attempt failed) wait for each of alice and carol.
    for (const [customer, sub] of [
      [alice, aliceSub],
      [carol, carolSub],
    ] as const) {
      const pending = (await jobs(`?customerId=${customer.customerId}`)).data;
      expect(pending.map((job) => job.kind).sort()).toEqual(['auto-settle', 'deliver']);
      expect(pending.find((job) => job.kind === 'deliver')?.subject.subscriptionId).toBe(sub);
    }

    await control(h).post(`/customers/${alice.customerId}/reset`).expect(200);
    await control(h).post(`/customers/${carol.customerId}/reset`).expect(200);

    expect(await jobs(`?customerId=${alice.customerId}`)).toEqual({ total: 0, data: [] });
    expect(await jobs(`?customerId=${carol.customerId}`)).toEqual({ total: 0, data: [] });
    const all = (await jobs()).data;
    expect(all.filter((job) => job.customerId === alice.customerId || job.customerId === carol.customerId)).toEqual([]);
    expect((await jobs(`?customerId=${bob.customerId}`)).data.map((job) => job.subject.operationId)).toEqual([bobOp.id]);
  });
});
