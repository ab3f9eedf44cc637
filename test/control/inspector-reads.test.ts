// What the inspector reads through the control API: one request whole, a customer's state, the
// deliveries with every attempt, the pending jobs. Each answer is checked against the control
// document by strict mode (a drifting answer is a 500 here).
import { randomUUID } from 'node:crypto';
import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startMock, type Authed, type Harness } from '../http/harness';
import { startReceiver, type Receiver } from '../../mock/receiver/receiver';
import { control, d, deposit, funded, quote } from './support';

let h: Harness;
let api: Authed;
let receiver: Receiver;
let token: string;

beforeAll(async () => {
  h = await startMock({ config: { autoSettleMs: 60_000, retryScheduleMs: [5_000, 30_000] } });
  api = await h.as();
  token = await h.token();
  receiver = await startReceiver();
});
afterAll(async () => {
  await h?.close();
  await receiver?.close();
});

describe('GET /_mock/journal/{requestId}', () => {
  it('a refused quote shows its query, headers and body, and the answer with each failed field', async () => {
    const sent = await api.post('/v1/quotes?trace=1', { accountId: funded.id, sourceAsset: 'BRL' }).expect(400);
    const id = sent.headers['x-request-id'];
    const entry = (await control(h).get(`/journal/${id}`).expect(200)).body;
    expect(entry).toMatchObject({
      requestId: id,
      method: 'POST',
      path: '/v1/quotes',
      status: 400,
      customerId: d.c1.id,
      request: { query: 'trace=1', body: { accountId: funded.id, sourceAsset: 'BRL' } },
      response: { body: { code: 'VALIDATION_ERROR' }, bodyTruncated: false },
    });
    expect(entry.request.headers['x-idempotency-key']).toEqual(expect.any(String));
    expect(entry.response.headers['x-request-id']).toBe(id);
    expect(entry.response.body.details.fields.map((f: { field: string }) => f.field)).toContain('body.targetAsset');
  });

  it('a request body over 16 KiB is not kept, even sent in chunks with no Content-Length', async () => {
    const big = JSON.stringify({ accountId: funded.id, note: 'x'.repeat(20_000) });
    // A raw request in two chunks: no Content-Length is declared (supertest would set one).
    const server = createServer(h.mock.app);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const requestId = await new Promise<string>((resolve, reject) => {
      const req = request(
        `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/quotes`,
        {
          method: 'POST',
          headers: { authorization: `Bearer ${token}`, 'x-idempotency-key': randomUUID(), 'content-type': 'application/json' },
        },
        (res) => {
          res.resume();
          res.on('end', () => resolve(String(res.headers['x-request-id'])));
        },
      );
      req.on('error', reject);
      req.write(big.slice(0, 10_000));
      req.end(big.slice(10_000));
    });
    await new Promise((resolve) => server.close(resolve));
    const sent = { headers: { 'x-request-id': requestId } };
    const entry = (await control(h).get(`/journal/${sent.headers['x-request-id']}`).expect(200)).body;
    expect(entry.request.headers['content-length']).toBeUndefined();
    expect(entry.request).toMatchObject({ bodyTruncated: true });
    expect(entry.request).not.toHaveProperty('body');
  });

  it('reads of the journal, state, deliveries and jobs are not journaled: looking changes nothing', async () => {
    const marker = await api.get('/api/accounts?limit=1').expect(200);
    for (const path of ['/journal?limit=1', '/state', '/deliveries', '/jobs']) await control(h).get(path).expect(200);
    const [latest] = (await control(h).get('/journal?limit=1').expect(200)).body.data;
    expect(latest.requestId).toBe(marker.headers['x-request-id']);
  });

  it('the journal list stays a summary: no headers or bodies', async () => {
    await api.get('/api/accounts?limit=1').expect(200);
    const [latest] = (await control(h).get('/journal?limit=1').expect(200)).body.data;
    expect(latest).toMatchObject({ path: '/api/accounts', customerId: d.c1.id });
    expect(latest).not.toHaveProperty('request');
    expect(latest).not.toHaveProperty('response');
  });

  it('every answered request is kept whole, a success too, whether or not an inspector page is open', async () => {
    const unwatched = await api.get('/api/accounts?limit=1').expect(200);
    const whole = (await control(h).get(`/journal/${unwatched.headers['x-request-id']}`).expect(200)).body;
    expect(whole).toMatchObject({
      path: '/api/accounts',
      status: 200,
      request: { query: 'limit=1' },
      response: { body: { data: [expect.any(Object)] } },
    });
  });

  it('never shows a credential: bearer and access tokens keep only their last four characters, a secret none', async () => {
    const login = await h.http.post('/api/oauth/client/token').send({ clientId: 'demo-client', clientSecret: 'demo-secret' }).expect(200);
    const tokenCall = (await control(h).get(`/journal/${login.headers['x-request-id']}`).expect(200)).body;
    expect(tokenCall.request.body).toEqual({ clientId: 'demo-client', clientSecret: '***' });
    expect(tokenCall.response.body).toMatchObject({ accessToken: `***${(login.body.accessToken as string).slice(-4)}` });
    const refused = await h.http
      .post('/api/oauth/client/token')
      .send({ clientId: 'demo-client', clientSecret: 'wrong-secret' })
      .expect(401);
    const refusal = (await control(h).get(`/journal/${refused.headers['x-request-id']}`).expect(200)).body;
    expect(refusal.request.body.clientSecret).toBe('***');
    const read = await api.get('/api/accounts?limit=1').expect(200);
    const entry = (await control(h).get(`/journal/${read.headers['x-request-id']}`).expect(200)).body;
    expect(entry.request.headers.authorization).toBe(`Bearer ***${token.slice(-4)}`);
    const shown = JSON.stringify([tokenCall, refusal, entry]);
    for (const secret of [login.body.accessToken, 'demo-secret', 'wrong-secret', token]) expect(shown).not.toContain(secret);
  });

  it('an answer over 16,384 characters is kept cut, as text, its client secrets masked', async () => {
    const snapshot = await control(h).get('/snapshot').expect(200);
    const full = JSON.stringify(snapshot.body);
    expect(full.length).toBeGreaterThan(16_384);
    const entry = (await control(h).get(`/journal/${snapshot.headers['x-request-id']}`).expect(200)).body;
    const cut = full.slice(0, 16_384).replace(/"clientSecret":"[^"]*"/g, '"clientSecret":"***"');
    expect(entry.response).toMatchObject({ bodyTruncated: true, body: cut });
    expect(entry.response.body).not.toContain('demo-secret');
  });

  it('an id the journal does not hold is 404 RESOURCE_NOT_FOUND; a malformed one is 400', async () => {
    expect((await control(h).get(`/journal/${randomUUID()}`).expect(404)).body.code).toBe('RESOURCE_NOT_FOUND');
    expect((await control(h).get('/journal/not-a-uuid').expect(400)).body.code).toBe('VALIDATION_ERROR');
  });
});

describe('GET /_mock/state', () => {
  it('lists every customer with its client id', async () => {
    const data = (await control(h).get('/state').expect(200)).body.data;
    expect(data).toEqual(
      expect.arrayContaining([
        { id: d.c1.id, name: expect.any(String), clientId: 'demo-client', deleted: false },
        { id: d.c2.id, name: expect.any(String), clientId: 'demo-client-2', deleted: false },
      ]),
    );
  });

  it('a customer state shows balances, each quote OPEN, CONSUMED or EXPIRED, and an operation timeline', async () => {
    const open = await quote(api, '1.00');
    const op = await deposit(api, '2.00');
    await control(h).post(`/operations/${op.id}/settle`).expect(200);
    const state = (await control(h).get(`/state/${d.c1.id}`).expect(200)).body;
    expect(state.customer.id).toBe(d.c1.id);
    expect(state.accounts.find((a: { account: { id: string } }) => a.account.id === funded.id)).toMatchObject({
      review: expect.any(String),
      balances: { BRL: expect.any(String) },
    });
    const status = (id: string) => state.quotes.find((q: { quote: { id: string } }) => q.quote.id === id)?.status;
    expect(status(open.id)).toBe('OPEN');
    const consumed = state.quotes.find((q: { operationId: string | null }) => q.operationId === op.id);
    expect(consumed.status).toBe('CONSUMED');
    const timeline = state.operations.find((o: { operation: { id: string } }) => o.operation.id === op.id).timeline;
    expect(timeline.map((t: { status: string }) => t.status)).toEqual(['REQUESTED', 'COMPLETED']);
    expect(timeline.map((t: { eventType: string }) => t.eventType)).toEqual(['OPERATION_REQUESTED', 'OPERATION_COMPLETED']);

    await control(h).post('/clock/advance', { by: '31s' }).expect(200);
    const later = (await control(h).get(`/state/${d.c1.id}`).expect(200)).body;
    expect(later.quotes.find((q: { quote: { id: string } }) => q.quote.id === open.id).status).toBe('EXPIRED');
  });

  it("a customer state shows each balance at its asset's scale, as GET /_mock/accounts/{id}/balances does", async () => {
    const set = (await control(h).put(`/accounts/${funded.id}/balances`, { BRL: '25020.00', USDT: '0.100000' }).expect(200)).body;
    expect(set.balances).toMatchObject({ BRL: '25020.00', USDT: '0.100000' });
    const state = (await control(h).get(`/state/${d.c1.id}`).expect(200)).body;
    const account = state.accounts.find((a: { account: { id: string } }) => a.account.id === funded.id);
    expect(account.balances).toEqual(set.balances);
  });

  it('an unknown customer is 404 RESOURCE_NOT_FOUND', async () => {
    expect((await control(h).get(`/state/${randomUUID()}`).expect(404)).body.code).toBe('RESOURCE_NOT_FOUND');
  });
});

describe('GET /_mock/deliveries and POST .../resend', () => {
  it('a failed attempt shows with its retry due time; the retry and a resend follow under one message id', async () => {
    const endpoint = receiver.endpoint({ fallback: (arrival) => (arrival.attempt === 0 ? 500 : 200) });
    const sub = (await api.post('/api/subscriptions', { url: endpoint.url, includeAll: true, allowRetry: true }).expect(201)).body;
    const op = await deposit(api, '3.00');
    await control(h).post('/webhooks/idle').expect(200);

    const read = async () => (await control(h).get(`/deliveries?subscriptionId=${sub.id}`).expect(200)).body.data[0];
    let mine = await read();
    expect(mine.subscription.id).toBe(sub.id);
    expect(mine.customerId).toBe(d.c1.id);
    const [message] = mine.messages;
    expect(message).toMatchObject({ eventType: 'OPERATION_REQUESTED', nextAttemptAt: expect.any(String) });
    expect(JSON.parse(message.payload).data.id).toBe(op.id);
    expect(message.attempts.map((a: { status: string; httpStatus: number }) => [a.status, a.httpStatus])).toEqual([['FAILED', 500]]);
    // The real time the attempt took, whatever the (frozen) mock clock says.
    expect(message.durationsMs[message.attempts[0].id]).toBeGreaterThanOrEqual(0);

    await control(h).post('/clock/advance', { by: '5s' }).expect(200);
    mine = await read();
    expect(mine.messages[0].attempts.map((a: { status: string }) => a.status)).toEqual(['FAILED', 'SUCCESS']);
    expect(mine.messages[0].nextAttemptAt).toBeNull();

    const last = mine.messages[0].attempts[1];
    const resent = (await control(h).post(`/subscriptions/${sub.id}/execution-logs/${last.id}/resend`).expect(202)).body;
    expect(resent).toMatchObject({ messageId: message.messageId, status: 'SUCCESS', retryAttempts: 2 });
    mine = await read();
    expect(mine.messages[0].attempts).toHaveLength(3);
    await api.delete(`/v1/subscriptions/${sub.id}`).expect(204);
  });

  it('an unknown subscription, or a log of another subscription, is 404', async () => {
    expect((await control(h).get(`/deliveries?subscriptionId=${randomUUID()}`).expect(404)).body.code).toBe('RESOURCE_NOT_FOUND');
    const res = await control(h).post(`/subscriptions/${randomUUID()}/execution-logs/${randomUUID()}/resend`).expect(404);
    expect(res.body.code).toBe('RESOURCE_NOT_FOUND');
  });
});

describe('GET /_mock/jobs', () => {
  it('an operation waiting for auto-settlement is a pending job due at its settlement time', async () => {
    const op = await deposit(api, '4.00');
    const jobs = (await control(h).get('/jobs').expect(200)).body;
    const job = jobs.data.find((j: { subject: { operationId?: string } }) => j.subject.operationId === op.id);
    expect(job).toMatchObject({ kind: 'auto-settle', running: false, dueAt: new Date(Date.parse(op.createdAt) + 60_000).toISOString() });
    expect(jobs.total).toBeGreaterThanOrEqual(1);
    await control(h).post('/clock/advance', { by: '61s' }).expect(200);
    const after = (await control(h).get('/jobs').expect(200)).body.data;
    expect(after.find((j: { subject: { operationId?: string } }) => j.subject.operationId === op.id)).toBeUndefined();
  });
});
