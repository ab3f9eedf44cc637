// Subscription rules beyond creation: a list cursor belongs to its list, PATCH's includeAll, the
// execution-log filter and look-up, and the messages of a refused resources list.
import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import { startMock, type Authed, type Harness } from './harness';
import { demo } from './fixture-ids';
import { startReceiver, type Receiver } from '../../mock/receiver/receiver';

const d = demo();
const account = d.funded(d.c1.id);
const operationsOnly = [{ name: 'OPERATION', events: ['OPERATION_REQUESTED'] }];
let h: Harness;
let api: Authed;
let receiver: Receiver;

beforeAll(async () => {
  h = await startMock();
  api = await h.as();
  receiver = await startReceiver();
});
afterEach(() => h.mock.services.webhooks.idle());
afterAll(async () => {
  await h?.close();
  await receiver?.close();
});

async function subscribe(who: Authed = api, url = receiver.url) {
  return (await who.post('/api/subscriptions', { url, resources: operationsOnly }).expect(201)).body;
}

async function deposit() {
  const q = (
    await api.post('/v1/quotes', { accountId: account.id, sourceAsset: 'BRL', targetAsset: 'BRL', sourceAmount: '1.00' }).expect(201)
  ).body;
  await api.post('/v1/operations/deposits', { accountId: account.id, quoteId: q.id, fundingInstruction: { rail: 'PIX' } }).expect(201);
  await h.mock.services.webhooks.idle();
}

describe('list cursors', () => {
  it('refuses a cursor of one customer’s subscription list on another customer’s list', async () => {
    await subscribe();
    await subscribe();
    const first = (await api.get('/v1/subscriptions?limit=1').expect(200)).body;
    expect(first.meta.nextCursor).toEqual(expect.any(String));
    const other = await h.as('customer2');
    await subscribe(other);
    const res = await other.get(`/v1/subscriptions?limit=1&cursor=${encodeURIComponent(first.meta.nextCursor)}`).expect(400);
    expect(res.body.code).toBe('INVALID_CURSOR');
  });
});

describe('execution logs', () => {
  let a: { id: string };
  let b: { id: string };
  beforeAll(async () => {
    a = await subscribe();
    b = await subscribe();
    await deposit();
    await deposit();
  });

  it('lists every log without a filter, and refuses an empty filter as the document does', async () => {
    expect((await api.get(`/v1/subscriptions/${a.id}/executionLogs`).expect(200)).body.data).toHaveLength(2);
    const res = await api.get(`/v1/subscriptions/${a.id}/executionLogs?filters=`).expect(400);
    expect(res.body.details.fields).toEqual([{ field: 'query.filters', message: 'must NOT have fewer than 1 characters' }]);
  });

  it('refuses a cursor of one subscription’s logs on another subscription’s logs', async () => {
    const first = (await api.get(`/v1/subscriptions/${a.id}/executionLogs?limit=1`).expect(200)).body;
    expect(first.meta.nextCursor).toEqual(expect.any(String));
    const res = await api
      .get(`/v1/subscriptions/${b.id}/executionLogs?limit=1&cursor=${encodeURIComponent(first.meta.nextCursor)}`)
      .expect(400);
    expect(res.body.code).toBe('INVALID_CURSOR');
  });

  it('does not find a log under another subscription of the same customer', async () => {
    const [log] = (await api.get(`/v1/subscriptions/${a.id}/executionLogs?limit=1`).expect(200)).body.data;
    const res = await api.post(`/v1/subscriptions/${b.id}/executionLogs/${log.id}/resend`).expect(404);
    expect(res.body).toMatchObject({
      code: 'RESOURCE_NOT_FOUND',
      message: `No execution log with id ${log.id}.`,
      details: { resource: 'executionLog', id: log.id },
    });
  });
});

describe('PATCH and includeAll', () => {
  it('covers every resource and event with includeAll true, and keeps the resources with includeAll false alone', async () => {
    const sub = await subscribe(api, 'https://hooks.example.com/patch');
    const kept = (await api.patch(`/v1/subscriptions/${sub.id}`, { includeAll: false }).expect(200)).body;
    expect(kept.resources).toEqual(operationsOnly);
    const all = (await api.patch(`/v1/subscriptions/${sub.id}`, { includeAll: true }).expect(200)).body;
    expect(all.resources.map((r: { name: string }) => r.name).sort()).toEqual(['ACCOUNT', 'BENEFICIARY', 'OPERATION']);
    expect(all.resources.flatMap((r: { events: string[] }) => r.events)).toHaveLength(12);
  });
});

describe('a refused resources list', () => {
  it('says which name is listed twice and which event does not belong, listing the resource’s events', async () => {
    const res = await api
      .post('/api/subscriptions', {
        url: 'https://hooks.example.com/x',
        resources: [
          { name: 'BENEFICIARY', events: ['BENEFICIARY_INSTRUCTION_CREATED'] },
          { name: 'BENEFICIARY', events: ['OPERATION_FAILED'] },
        ],
      })
      .expect(400);
    expect(res.body.code).toBe('VALIDATION_ERROR');
    expect(res.body.details.fields).toEqual([
      { field: 'body.resources.1.name', message: 'BENEFICIARY is listed twice; resource names must be unique' },
      {
        field: 'body.resources.1.events.0',
        message: expect.stringMatching(/^OPERATION_FAILED is not an event of BENEFICIARY \(BENEFICIARY_\w+(, BENEFICIARY_\w+)+\)$/),
      },
    ]);
  });
});
