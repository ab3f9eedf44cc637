// POST /_mock/deliveries/verify: how many webhook messages matched (event type, subscription,
// customer, the latest attempt's status, how many attempts, payload fields), and the near misses.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startReceiver, type Receiver } from '../../mock/receiver/receiver';
import { startMock, type Harness } from '../http/harness';
import { control } from '../control/support';
import { depositFor, newCustomer, type TestCustomer } from './support';

let h: Harness;
let receiver: Receiver;
beforeAll(async () => {
  h = await startMock({ config: { retryScheduleMs: [5_000] } });
  receiver = await startReceiver();
});
afterAll(async () => {
  await h?.close();
  await receiver?.close();
});

const verify = (body: unknown) => control(h).post('/deliveries/verify', body);

async function subscribed(customer: TestCustomer, answer: (attempt: number) => number = () => 200) {
  const endpoint = receiver.endpoint({ fallback: (arrival) => answer(arrival.attempt) });
  return (await customer.api.post('/api/subscriptions', { url: endpoint.url, includeAll: true, allowRetry: true }).expect(201)).body as {
    id: string;
  };
}

describe('verifying webhook deliveries', () => {
  it('one OPERATION_COMPLETED for the settled deposit, delivered at the first attempt', async () => {
    const alice = await newCustomer(h);
    await subscribed(alice);
    const op = await depositFor(alice, '10.00');
    await control(h).post(`/operations/${op.id}/settle`).expect(200);
    await control(h).post('/webhooks/idle').expect(200);
    const result = (
      await verify({
        delivery: {
          customerId: alice.customerId,
          eventType: 'OPERATION_COMPLETED',
          status: 'SUCCESS',
          attempts: { exactly: 1 },
          payload: [{ path: '$.data.id', equals: op.id }],
        },
        count: { exactly: 1 },
      }).expect(200)
    ).body;
    expect(result).toMatchObject({ ok: true, count: 1, nearMisses: [] });
    expect(result.matches[0]).toMatchObject({
      customerId: alice.customerId,
      eventType: 'OPERATION_COMPLETED',
      attempts: 1,
      httpStatus: 200,
    });
  });

  it('a message still failing is a near miss naming its status and attempts; after its retry it matches', async () => {
    const bob = await newCustomer(h);
    const sub = await subscribed(bob, (attempt) => (attempt === 0 ? 500 : 200));
    const op = await depositFor(bob, '11.00');
    await control(h).post('/webhooks/idle').expect(200);
    const pattern = {
      subscriptionId: sub.id,
      eventType: 'OPERATION_REQUESTED',
      status: 'SUCCESS',
      payload: [{ path: '$.data.id', equals: op.id }],
    };
    const failing = (await verify({ delivery: pattern, count: { exactly: 1 } }).expect(200)).body;
    expect(failing.ok).toBe(false);
    expect(failing.message).toBe('Expected exactly 1 delivery matching OPERATION_REQUESTED, found 0.');
    expect(failing.nearMisses[0]).toMatchObject({
      delivery: { eventType: 'OPERATION_REQUESTED', status: 'FAILED', attempts: 1, httpStatus: 500 },
      differences: [{ field: 'status', expected: 'SUCCESS', actual: 'FAILED' }],
    });
    await control(h).post('/clock/advance', { by: '5s' }).expect(200);
    const retried = (await verify({ delivery: { ...pattern, attempts: { atLeast: 2 } }, count: { exactly: 1 } }).expect(200)).body;
    expect(retried).toMatchObject({ ok: true, matches: [{ attempts: 2, status: 'SUCCESS' }] });
  });

  it('another customer’s messages do not count', async () => {
    const carol = await newCustomer(h);
    const other = await newCustomer(h);
    await subscribed(other);
    await depositFor(other, '12.00');
    await control(h).post('/webhooks/idle').expect(200);
    const result = (
      await verify({ delivery: { customerId: carol.customerId, eventType: 'OPERATION_REQUESTED' }, count: { exactly: 0 } }).expect(200)
    ).body;
    expect(result).toMatchObject({ ok: true, count: 0, searched: 0 });
  });

  it('an unknown customer or subscription is a 404; a bad payload path a 400 naming it', async () => {
    await verify({ delivery: { customerId: '00000000-0000-4000-8000-000000000000' } }).expect(404);
    await verify({ delivery: { subscriptionId: '00000000-0000-4000-8000-000000000000' } }).expect(404);
    const res = await verify({ delivery: { payload: [{ path: '$.data..id', equals: 1 }] } }).expect(400);
    expect(res.body.details.fields[0].field).toBe('body.delivery.payload[0].path');
  });
});
