// Webhook deliveries to a real loopback receiver: headers, body, execution logs, failures of
// every kind, retries on the mock clock, resend, and the log filters.
import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import { createHmac } from 'node:crypto';
import { startMock, type Authed, type Harness } from './harness';
import { demo } from './fixture-ids';
import { startReceiver, type Receiver } from '../../mock/receiver/receiver';
import { closedPort } from '../../mock/receiver/closed-port';

const d = demo();
const account = d.funded(d.c1.id);
let h: Harness;
let api: Authed;
let receiver: Receiver;

// The default delivery time-out (10 s): a receiver that answers is never cut short, however busy
// the machine. Only the receiver that never answers gets a mock with a short one (below).
beforeAll(async () => {
  h = await startMock();
  api = await h.as();
});
afterAll(() => h?.close());
afterEach(async () => {
  await h.mock.services.webhooks.idle();
  await receiver?.close();
});

async function subscribe(url: string, extra: Record<string, unknown> = {}, who: Authed = api) {
  return (
    await who.post('/api/subscriptions', { url, resources: [{ name: 'OPERATION', events: ['OPERATION_REQUESTED'] }], ...extra }).expect(201)
  ).body;
}

async function deposit(who: Authed = api, accountId = account.id) {
  const q = (await who.post('/v1/quotes', { accountId, sourceAsset: 'BRL', targetAsset: 'BRL', sourceAmount: '1.00' }).expect(201)).body;
  const op = (await who.post('/v1/operations/deposits', { accountId, quoteId: q.id, fundingInstruction: { rail: 'PIX' } }).expect(201))
    .body;
  await h.mock.services.webhooks.idle();
  return op;
}

async function logs(subscriptionId: string, query = '') {
  return (await api.get(`/v1/subscriptions/${subscriptionId}/executionLogs${query}`).expect(200)).body;
}

describe('a healthy receiver', () => {
  it('gets OPERATION_REQUESTED as a JSON POST with X-Message-Id and X-Event-Type, logged as SUCCESS', async () => {
    receiver = await startReceiver();
    const sub = await subscribe(receiver.url);
    const op = await deposit();
    const [delivery] = await receiver.waitFor(1);
    expect(delivery!.headers['content-type']).toBe('application/json');
    expect(delivery!.headers['x-event-type']).toBe('OPERATION_REQUESTED');
    const body = JSON.parse(delivery!.body);
    expect(body).toMatchObject({ id: op.id, customerId: d.c1.id, eventType: 'OPERATION_REQUESTED', data: { id: op.id } });
    expect(h.mock.contract.checkWebhook('OPERATION_REQUESTED', body)).toEqual({ errors: [], drift: [] });

    const page = await logs(sub.id);
    expect(page.data).toHaveLength(1);
    expect(page.data[0]).toMatchObject({
      companyId: d.c1.id,
      subscriptionId: sub.id,
      messageId: delivery!.headers['x-message-id'],
      eventType: 'OPERATION_REQUESTED',
      url: receiver.url,
      payload: delivery!.body,
      httpStatus: 200,
      error: null,
      status: 'SUCCESS',
      retryAttempts: 0,
    });
  });

  it('receives only the event types it subscribed to, and only its own customer’s', async () => {
    receiver = await startReceiver();
    await subscribe(receiver.url);
    const op = await deposit();
    await h.mock.services.operations.settle(d.c1.id, op.id); // OPERATION_COMPLETED: not subscribed
    await deposit(await h.as('customer2'), d.funded(d.c2.id).id); // another customer's event
    await h.mock.services.webhooks.idle();
    expect(receiver.received.map((r) => r.headers['x-event-type'])).toEqual(['OPERATION_REQUESTED']);
  });

  it('with includeAll receives every event, in the order they happened', async () => {
    receiver = await startReceiver();
    await subscribe(receiver.url, { includeAll: true });
    const op = await deposit();
    await h.mock.services.operations.settle(d.c1.id, op.id);
    await h.mock.services.webhooks.idle();
    expect(receiver.received.map((r) => r.headers['x-event-type'])).toEqual(['OPERATION_REQUESTED', 'OPERATION_COMPLETED']);
  });

  it('a beneficiary instruction event carries the instruction and the transition time', async () => {
    receiver = await startReceiver();
    await subscribe(receiver.url, { resources: [{ name: 'BENEFICIARY', events: ['BENEFICIARY_INSTRUCTION_APPROVED'] }] });
    const beneficiary = (
      await api
        .post('/v1/beneficiaries', {
          entity: {
            type: 'INDIVIDUAL',
            firstName: 'Ana',
            lastName: 'Lima',
            identificationDocument: { type: 'CPF', value: '52998224725', country: 'BR' },
          },
          relationshipType: 'THIRD_PARTY',
          paymentInstructions: [{ asset: 'BRL', address: { rail: 'PIX_KEY', dictKey: 'ana@example.com' } }],
        })
        .expect(201)
    ).body;
    h.mock.deps.clock.advance(60_000);
    await h.mock.services.beneficiaries.moveInstruction(d.c1.id, beneficiary.id, beneficiary.paymentInstructions[0].id, 'APPROVED');
    const [delivery] = await receiver.waitFor(1);
    const body = JSON.parse(delivery!.body);
    expect(body).toMatchObject({
      id: beneficiary.id,
      customerId: d.c1.id,
      instruction: { asset: 'BRL', address: { rail: 'PIX_KEY', key: 'ana@example.com' } },
    });
    expect(body.atTime).not.toBe(beneficiary.createdAt);
    expect(Date.parse(body.atTime) - Date.parse(beneficiary.createdAt)).toBe(60_000);
  });
});

describe('failed deliveries', () => {
  it.each([
    ['answers 500', { status: 500 } as const, 500, /answered 500/],
    ['answers 302', { status: 302, location: 'http://127.0.0.1:1/' } as const, 302, /redirects are not followed/],
    ['resets the connection', 'reset' as const, 0, /connection reset/],
  ])('a receiver that %s is logged FAILED with its httpStatus, once without allowRetry', async (_name, behaviour, httpStatus, error) => {
    receiver = await startReceiver({ fallback: behaviour });
    const sub = await subscribe(receiver.url);
    await deposit();
    await h.mock.services.webhooks.idle();
    const page = await logs(sub.id);
    expect(page.data).toHaveLength(1);
    expect(page.data[0]).toMatchObject({ status: 'FAILED', httpStatus, retryAttempts: 0 });
    expect(page.data[0].error).toMatch(error);
  });

  it('a receiver that never answers is logged FAILED with httpStatus 0 at the time-out, once without allowRetry', async () => {
    // A mock of its own with a short time-out, whose only delivery goes to the silent receiver:
    // the time-out is what ends that delivery; no answer it could cut short exists there.
    const short = await startMock({ config: { webhookTimeoutMs: 300 } });
    receiver = await startReceiver({ fallback: 'hang' });
    try {
      const me = await short.as();
      const sub = await subscribe(receiver.url, {}, me);
      const q = (
        await me.post('/v1/quotes', { accountId: account.id, sourceAsset: 'BRL', targetAsset: 'BRL', sourceAmount: '1.00' }).expect(201)
      ).body;
      await me.post('/v1/operations/deposits', { accountId: account.id, quoteId: q.id, fundingInstruction: { rail: 'PIX' } }).expect(201);
      await short.mock.services.webhooks.idle();
      const page = (await me.get(`/v1/subscriptions/${sub.id}/executionLogs`).expect(200)).body;
      expect(page.data).toHaveLength(1);
      expect(page.data[0]).toMatchObject({ status: 'FAILED', httpStatus: 0, retryAttempts: 0 });
      expect(page.data[0].error).toMatch(/timed out after 300 ms/);
    } finally {
      await short.close();
    }
  });

  it('a closed port is logged FAILED with httpStatus 0 and "connection refused"', async () => {
    const sub = await subscribe(`http://127.0.0.1:${await closedPort()}/hooks`);
    await deposit();
    const page = await logs(sub.id);
    expect(page.data[0]).toMatchObject({ status: 'FAILED', httpStatus: 0, error: 'connection refused' });
  });
});

describe('retries', () => {
  it('a receiver that fails twice then recovers gets the same message three times; the third is SUCCESS', async () => {
    receiver = await startReceiver();
    receiver.script({ status: 500 }, 'reset');
    const sub = await subscribe(receiver.url, { allowRetry: true });
    await deposit();
    h.mock.deps.clock.advance(5_000); // first retry
    await h.mock.deps.scheduler.idle();
    await h.mock.services.webhooks.idle();
    h.mock.deps.clock.advance(30_000); // second retry
    await h.mock.deps.scheduler.idle();
    await h.mock.services.webhooks.idle();
    const received = await receiver.waitFor(3);
    expect(new Set(received.map((r) => r.headers['x-message-id'])).size).toBe(1);
    const attempts = (await logs(sub.id, '?sortOrder=ASCENDING')).data;
    expect(
      attempts.map((l: { status: string; retryAttempts: number; httpStatus: number }) => [l.status, l.retryAttempts, l.httpStatus]),
    ).toEqual([
      ['FAILED', 0, 500],
      ['FAILED', 1, 0],
      ['SUCCESS', 2, 200],
    ]);
  });

  it('stops at the end of the schedule and says so in the last log', async () => {
    receiver = await startReceiver({ fallback: { status: 503 } });
    const sub = await subscribe(receiver.url, { allowRetry: true });
    await deposit();
    for (const step of h.mock.deps.config.retryScheduleMs) {
      h.mock.deps.clock.advance(step);
      await h.mock.deps.scheduler.idle();
      await h.mock.services.webhooks.idle();
    }
    h.mock.deps.clock.advance(2 * 3_600_000); // long past the last step: nothing more is sent
    await h.mock.deps.scheduler.idle();
    await h.mock.services.webhooks.idle();
    const all = (await logs(sub.id, '?limit=100')).data;
    expect(all).toHaveLength(h.mock.deps.config.retryScheduleMs.length + 1);
    expect(all[0].error).toMatch(/no retries left after 6 attempts/);
    expect(receiver.received).toHaveLength(all.length);
  });
});

describe('resend', () => {
  it('delivers a logged message again as a new attempt with the same message id', async () => {
    receiver = await startReceiver({ fallback: { status: 500 } });
    const sub = await subscribe(receiver.url);
    await deposit();
    const [failed] = (await logs(sub.id)).data;
    receiver.fallback = { status: 204 };
    const res = await api.post(`/v1/subscriptions/${sub.id}/executionLogs/${failed.id}/resend`).expect(202);
    expect(res.body).toMatchObject({ messageId: failed.messageId, status: 'SUCCESS', httpStatus: 204, retryAttempts: 1 });
    expect(receiver.received.map((r) => r.headers['x-message-id'])).toEqual([failed.messageId, failed.messageId]);
  });

  it('an unknown log, or another customer’s subscription, is 404', async () => {
    const sub = await subscribe('https://hooks.example.com/x');
    await api.post(`/v1/subscriptions/${sub.id}/executionLogs/00000000-0000-4000-8000-000000000000/resend`).expect(404);
    const other = await h.as('customer2');
    await other.post(`/v1/subscriptions/${sub.id}/executionLogs/00000000-0000-4000-8000-000000000000/resend`).expect(404);
  });
});

describe('listing execution logs', () => {
  it('lists most recent first and filters with the bracket grammar', async () => {
    receiver = await startReceiver();
    receiver.script({ status: 500 });
    const sub = await subscribe(receiver.url);
    await deposit();
    await deposit();
    const all = (await logs(sub.id)).data;
    expect(all).toHaveLength(2);
    expect(Date.parse(all[0].createdAt)).toBeGreaterThanOrEqual(Date.parse(all[1].createdAt));
    const failed = (await logs(sub.id, `?filters=${encodeURIComponent('status[eq]=FAILED')}`)).data;
    expect(failed.map((l: { httpStatus: number }) => l.httpStatus)).toEqual([500]);
    const either = (
      await logs(
        sub.id,
        `?filters=${encodeURIComponent('or(httpStatus[gte]=500,status[eq]=SUCCESS);eventType[in]=OPERATION_REQUESTED|OPERATION_FAILED')}`,
      )
    ).data;
    expect(either).toHaveLength(2);
  });

  it('a malformed filter is 400 INVALID_FILTER with the position of the problem', async () => {
    const sub = await subscribe('https://hooks.example.com/x');
    const res = await api.get(`/v1/subscriptions/${sub.id}/executionLogs?filters=${encodeURIComponent('status[like]=FAILED')}`).expect(400);
    expect(res.body).toMatchObject({ code: 'INVALID_FILTER', details: { position: 7 } });
    const unknown = await api.get(`/v1/subscriptions/${sub.id}/executionLogs?filters=${encodeURIComponent('colour[eq]=red')}`).expect(400);
    expect(unknown.body.details.position).toBe(0);
  });

  it('an unknown subscription is 404 RESOURCE_NOT_FOUND (seed)', async () => {
    const res = await api.get('/v1/subscriptions/00000000-0000-4000-8000-000000000000/executionLogs').expect(404);
    expect(res.body.code).toBe('RESOURCE_NOT_FOUND');
  });
});

describe('optional Standard Webhooks signing', () => {
  it('is off by default: no secret shown, no signature headers sent', async () => {
    receiver = await startReceiver();
    const sub = await subscribe(receiver.url);
    expect(sub).not.toHaveProperty('signingSecret');
    await deposit();
    const [delivery] = await receiver.waitFor(1);
    expect(delivery!.headers['webhook-signature']).toBeUndefined();
  });

  it('when on, shows a whsec_ secret and signs id.timestamp.body with HMAC-SHA256', async () => {
    const signed = await startMock({ config: { webhookSigning: true } });
    receiver = await startReceiver();
    try {
      const me = await signed.as();
      const sub = (
        await me
          .post('/api/subscriptions', { url: receiver.url, resources: [{ name: 'OPERATION', events: ['OPERATION_REQUESTED'] }] })
          .expect(201)
      ).body;
      expect(sub.signingSecret).toMatch(/^whsec_[A-Za-z0-9+/=]+$/);
      expect((await me.get(`/v1/subscriptions/${sub.id}`).expect(200)).body.signingSecret).toBe(sub.signingSecret);
      const q = (
        await me.post('/v1/quotes', { accountId: account.id, sourceAsset: 'BRL', targetAsset: 'BRL', sourceAmount: '1.00' }).expect(201)
      ).body;
      await me.post('/v1/operations/deposits', { accountId: account.id, quoteId: q.id, fundingInstruction: { rail: 'PIX' } }).expect(201);
      const [delivery] = await receiver.waitFor(1);
      const {
        'webhook-id': id,
        'webhook-timestamp': timestamp,
        'webhook-signature': signature,
      } = delivery!.headers as Record<string, string>;
      expect(id).toBe(delivery!.headers['x-message-id']);
      expect(Number(timestamp)).toBe(Math.floor(signed.mock.deps.clock.now() / 1000));
      // Recomputed here by hand, independently of the library the mock signs with.
      const key = Buffer.from((sub.signingSecret as string).slice('whsec_'.length), 'base64');
      const expected = createHmac('sha256', key).update(`${id}.${timestamp}.${delivery!.body}`).digest('base64');
      expect(signature).toBe(`v1,${expected}`);
      await signed.mock.services.webhooks.idle();
    } finally {
      await signed.close();
    }
  });
});
