// The production URL policy with DNS: a subscription host name is resolved (an injected fake
// resolver: no real DNS here) at create and update, and again before every delivery, so a name
// that resolves, or comes to resolve (DNS rebinding), to a loopback, private, link-local or
// unspecified address is refused; a name that does not resolve cannot subscribe. Redirects are
// never followed. The development policy resolves a plain-HTTP URL's name, whose every address
// must then be private (a receiver in another container), at create and before each delivery; an
// HTTPS name is resolved too, for link-local and metadata addresses only (url-policy-metadata.test.ts).
import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import type { DeliveryRequest } from '../../mock/webhooks/deliver';
import type { ExecutionLog } from '../../mock/domain/records';
import { startMock, type Authed, type Harness } from './harness';
import { startReceiver, type Receiver } from '../../mock/receiver/receiver';
import { errorLog } from '../reliability/support/error-log';
import { deposit, fakeDns, operationsOnly } from './url-policy-support';

describe('the production policy at create and update', () => {
  const dns = fakeDns();
  let h: Harness;
  let api: Authed;
  beforeAll(async () => {
    h = await startMock({ config: { urlPolicy: 'production' }, lookup: dns.lookup });
    api = await h.as();
    dns.set('hooks.example.com', '93.184.215.14');
    dns.set('dual.example.com', '93.184.215.14', '2606:2800:21f:cb07:6820:80da:af6b:8b2c');
  });
  afterAll(() => h?.close());

  it('accepts an HTTPS name that resolves only to public addresses, asking the resolver for that name', async () => {
    await api.post('/api/subscriptions', { url: 'https://hooks.example.com/fos', resources: operationsOnly }).expect(201);
    await api.post('/api/subscriptions', { url: 'https://dual.example.com:8443/fos', resources: operationsOnly }).expect(201);
    expect(dns.asked).toEqual(expect.arrayContaining(['hooks.example.com', 'dual.example.com']));
  });

  it.each([
    ['a loopback', '127.0.0.1'],
    ['a loopback (IPv6)', '::1'],
    ['a private 10/8', '10.0.0.5'],
    ['a private 172.16/12', '172.20.1.1'],
    ['a private 192.168/16', '192.168.1.20'],
    ['a shared 100.64/10', '100.64.0.1'],
    ['a unique-local (IPv6)', 'fd00::1'],
    ['an IPv4-mapped loopback', '::ffff:127.0.0.1'],
  ])('refuses a name that resolves to %s address (%s): 400 VALIDATION_ERROR naming body.url', async (_kind, address) => {
    const name = `internal-${address.replace(/[^0-9a-f]/gi, '-')}.example.com`;
    dns.set(name, address);
    const res = await api.post('/api/subscriptions', { url: `https://${name}/hooks`, resources: operationsOnly }).expect(400);
    expect(res.body.code).toBe('VALIDATION_ERROR');
    expect(res.body.details.fields).toEqual([
      { field: 'body.url', message: expect.stringMatching(/resolves to a loopback, private or link-local address/) },
    ]);
  });

  it('refuses a name with one private address among public ones', async () => {
    dns.set('mixed.example.com', '93.184.215.14', '10.1.2.3');
    const res = await api.post('/api/subscriptions', { url: 'https://mixed.example.com/hooks', resources: operationsOnly }).expect(400);
    expect(res.body.details.fields[0].field).toBe('body.url');
  });

  it('refuses a name that does not resolve', async () => {
    const res = await api.post('/api/subscriptions', { url: 'https://nowhere.example.com/hooks', resources: operationsOnly }).expect(400);
    expect(res.body.details.fields).toEqual([{ field: 'body.url', message: expect.stringMatching(/does not resolve/) }]);
  });

  it('refuses a name that resolves to no address at all', async () => {
    dns.set('empty.example.com');
    const res = await api.post('/api/subscriptions', { url: 'https://empty.example.com/hooks', resources: operationsOnly }).expect(400);
    expect(res.body.details.fields[0].message).toMatch(/does not resolve/);
  });

  it('a refused URL does not burn the idempotency key: corrected, the same key creates the subscription', async () => {
    const key = '6f1c2b3a-4d5e-4f60-8a7b-9c0d1e2f3a4b';
    await api.post('/api/subscriptions', { url: 'https://nowhere.example.com/hooks', resources: operationsOnly }, key).expect(400);
    await api.post('/api/subscriptions', { url: 'https://hooks.example.com/fixed', resources: operationsOnly }, key).expect(201);
  });

  it('checks an updated URL the same way, and leaves the subscription as it was when refused', async () => {
    const sub = (await api.post('/api/subscriptions', { url: 'https://hooks.example.com/a', resources: operationsOnly }).expect(201)).body;
    dns.set('rebound.example.com', '192.168.0.10');
    const res = await api.patch(`/v1/subscriptions/${sub.id}`, { url: 'https://rebound.example.com/a' }).expect(400);
    expect(res.body.details.fields[0].field).toBe('body.url');
    await api.patch(`/v1/subscriptions/${sub.id}`, { url: 'https://nowhere.example.com/a' }).expect(400);
    expect((await api.get(`/v1/subscriptions/${sub.id}`).expect(200)).body.url).toBe('https://hooks.example.com/a');
    await api.patch(`/v1/subscriptions/${sub.id}`, { url: 'https://dual.example.com/b' }).expect(200);
  });

  it('does not resolve address literals (judged as they are) nor URLs refused outright', async () => {
    dns.asked.length = 0;
    await api.post('/api/subscriptions', { url: 'https://93.184.215.14/hooks', resources: operationsOnly }).expect(201);
    await api.post('/api/subscriptions', { url: 'https://10.0.0.1/hooks', resources: operationsOnly }).expect(400);
    await api.post('/api/subscriptions', { url: 'http://hooks.example.com/hooks', resources: operationsOnly }).expect(400);
    await api.post('/api/subscriptions', { url: 'https://localhost/hooks', resources: operationsOnly }).expect(400);
    expect(dns.asked).toEqual([]);
  });
});

describe('the production policy at delivery (DNS rebinding)', () => {
  const dns = fakeDns();
  const sent: DeliveryRequest[] = [];
  const errors = errorLog();
  let h: Harness;
  let api: Authed;
  beforeAll(async () => {
    h = await startMock({
      config: { urlPolicy: 'production' },
      lookup: dns.lookup,
      logger: errors.logger,
      deliver: (delivery) => {
        sent.push(delivery);
        return Promise.resolve({ ok: true, httpStatus: 200, error: null });
      },
    });
    api = await h.as();
  });
  afterAll(() => h?.close());
  afterEach(() => {
    sent.length = 0;
  });

  async function logsOf(subscriptionId: string) {
    return (await api.get(`/v1/subscriptions/${subscriptionId}/executionLogs`).expect(200)).body.data as ExecutionLog[];
  }

  it('delivers while the name resolves to public addresses', async () => {
    dns.set('steady.example.com', '93.184.215.14');
    const sub = (await api.post('/api/subscriptions', { url: 'https://steady.example.com/hooks', resources: operationsOnly }).expect(201))
      .body;
    await deposit(api, h);
    expect(sent.map((s) => s.url)).toEqual(['https://steady.example.com/hooks']);
    expect((await logsOf(sub.id))[0]).toMatchObject({ status: 'SUCCESS', httpStatus: 200 });
    await api.delete(`/v1/subscriptions/${sub.id}`).expect(204);
  });

  it('refuses to deliver once the name resolves to a non-public address: FAILED, httpStatus 0, nothing sent', async () => {
    dns.set('rebind.example.com', '93.184.215.14');
    const sub = (await api.post('/api/subscriptions', { url: 'https://rebind.example.com/hooks', resources: operationsOnly }).expect(201))
      .body;
    dns.set('rebind.example.com', '127.0.0.1');
    await deposit(api, h);
    expect(sent).toEqual([]);
    const [log] = await logsOf(sub.id);
    expect(log).toMatchObject({
      status: 'FAILED',
      httpStatus: 0,
      error: 'refused: the URL resolves to a non-public address',
      url: 'https://rebind.example.com/hooks',
    });

    // Pointing back at a public address, a resend goes out.
    dns.set('rebind.example.com', '93.184.215.14');
    await api.post(`/v1/subscriptions/${sub.id}/executionLogs/${log!.id}/resend`).expect(202);
    expect(sent.map((s) => s.url)).toEqual(['https://rebind.example.com/hooks']);
    await api.delete(`/v1/subscriptions/${sub.id}`).expect(204);
  });

  it('a refused delivery is retried on the schedule like any failure, and checked again each time', async () => {
    dns.set('flip.example.com', '93.184.215.14');
    const sub = (
      await api
        .post('/api/subscriptions', { url: 'https://flip.example.com/hooks', resources: operationsOnly, allowRetry: true })
        .expect(201)
    ).body;
    dns.set('flip.example.com', '169.254.169.254');
    await deposit(api, h);
    expect(sent).toEqual([]);
    dns.set('flip.example.com', '93.184.215.14');
    await h.http.post('/_mock/clock/advance').send({ by: '5s' }).expect(200);
    await h.mock.services.webhooks.idle();
    expect(sent).toHaveLength(1);
    const logs = await logsOf(sub.id);
    expect(logs.map((l) => [l.status, l.retryAttempts])).toEqual([
      ['SUCCESS', 1],
      ['FAILED', 0],
    ]);
    await api.delete(`/v1/subscriptions/${sub.id}`).expect(204);
  });

  it('a name that no longer resolves is not delivered to: FAILED, host not found', async () => {
    dns.set('gone.example.com', '93.184.215.14');
    const sub = (await api.post('/api/subscriptions', { url: 'https://gone.example.com/hooks', resources: operationsOnly }).expect(201))
      .body;
    dns.forget('gone.example.com');
    await deposit(api, h);
    expect(sent).toEqual([]);
    expect((await logsOf(sub.id))[0]).toMatchObject({ status: 'FAILED', httpStatus: 0, error: 'host not found' });
    await api.delete(`/v1/subscriptions/${sub.id}`).expect(204);
  });

  it('logged no internal error', () => {
    expect(errors.describe()).toEqual([]);
  });
});

describe('the development policy', () => {
  const dns = fakeDns();
  let h: Harness;
  let api: Authed;
  let receiver: Receiver | undefined;
  let target: Receiver | undefined;
  beforeAll(async () => {
    h = await startMock({ lookup: dns.lookup });
    api = await h.as();
  });
  afterAll(async () => {
    await receiver?.close();
    await target?.close();
    await h?.close();
  });

  it('resolves no HTTPS name and no address literal at create (HTTPS to any name; plain HTTP to loopback, private)', async () => {
    await api.post('/api/subscriptions', { url: 'https://unknown-name.example.com/hooks', resources: operationsOnly }).expect(201);
    await api.post('/api/subscriptions', { url: 'http://127.0.0.1:9/hooks', resources: operationsOnly }).expect(201);
    await api.post('/api/subscriptions', { url: 'http://10.88.0.9:9000/hooks', resources: operationsOnly }).expect(201);
    await api.post('/api/subscriptions', { url: 'http://93.184.216.34/hooks', resources: operationsOnly }).expect(400);
    expect(dns.asked).toEqual([]);
  });

  it('accepts plain HTTP to a name whose every address is private (a receiver in another container), refuses a public one', async () => {
    dns.set('receiver', '10.89.0.7');
    dns.set('host.docker.internal', '172.17.0.1');
    dns.set('hooks.example.com', '93.184.216.34');
    dns.set('mixed.example.com', '10.0.0.1', '93.184.216.34');
    await api.post('/api/subscriptions', { url: 'http://receiver:9000/hooks', resources: operationsOnly }).expect(201);
    await api.post('/api/subscriptions', { url: 'http://host.docker.internal:9000/hooks', resources: operationsOnly }).expect(201);
    for (const url of ['http://hooks.example.com/hooks', 'http://mixed.example.com/hooks', 'http://nowhere.example.com/hooks']) {
      const res = await api.post('/api/subscriptions', { url, resources: operationsOnly }).expect(400);
      expect(res.body.details.fields).toEqual([
        { field: 'body.url', message: expect.stringMatching(/plain HTTP is accepted only for loopback and private/) },
      ]);
    }
    expect(dns.asked).toEqual(['receiver', 'host.docker.internal', 'hooks.example.com', 'mixed.example.com', 'nowhere.example.com']);
  });

  it('resolves a plain-HTTP name again before each delivery: one that now points at a public address is not delivered to', async () => {
    const subscriptions = (await api.get('/v1/subscriptions?limit=100').expect(200)).body.data as Array<{ id: string }>;
    for (const s of subscriptions) await api.delete(`/v1/subscriptions/${s.id}`).expect(204);
    dns.set('rebinding', '10.89.0.8');
    const sub = (await api.post('/api/subscriptions', { url: 'http://rebinding:9/hooks', resources: operationsOnly }).expect(201)).body;
    dns.set('rebinding', '93.184.216.34');
    await deposit(api, h);
    const logs = (await api.get(`/v1/subscriptions/${sub.id}/executionLogs`).expect(200)).body.data;
    expect(logs[0]).toMatchObject({ status: 'FAILED', httpStatus: 0, error: expect.stringMatching(/resolves to a public address/) });
    expect(dns.asked.filter((name) => name === 'rebinding')).toHaveLength(2);
    await api.delete(`/v1/subscriptions/${sub.id}`).expect(204);
  });

  it('a 302 to a private address is logged FAILED and not followed', async () => {
    const askedBefore = dns.asked.length;
    // The redirect target is a second receiver on loopback, a non-public address: it must never be reached.
    target = await startReceiver();
    receiver = await startReceiver({ fallback: { status: 302, location: target.url.replace('/hooks', '/internal') } });
    const subscriptions = (await api.get('/v1/subscriptions?limit=100').expect(200)).body.data as Array<{ id: string }>;
    for (const s of subscriptions) await api.delete(`/v1/subscriptions/${s.id}`).expect(204);
    const sub = (await api.post('/api/subscriptions', { url: receiver.url, resources: operationsOnly }).expect(201)).body;
    await deposit(api, h);
    await receiver.waitFor(1);
    const logs = (await api.get(`/v1/subscriptions/${sub.id}/executionLogs`).expect(200)).body.data;
    expect(logs).toHaveLength(1);
    expect(logs[0]).toMatchObject({ status: 'FAILED', httpStatus: 302, error: expect.stringMatching(/redirects are not followed/) });
    expect(target.received).toEqual([]);
    expect(dns.asked.slice(askedBefore)).toEqual([]);
  });
});
