// Cloud metadata is never a subscription target: under every URL policy a link-local,
// unspecified or metadata address is refused at create and at update (400 VALIDATION_ERROR naming
// body.url), and a host name that resolves to one (an injected fake resolver: no real DNS here) is
// refused there too and not delivered to (logged FAILED, httpStatus 0). Under development,
// loopback and private receivers stay accepted, by address and by name.
import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import type { ExecutionLog } from '../../mock/domain/records';
import type { DeliveryRequest } from '../../mock/webhooks/deliver';
import { startMock, type Authed, type Harness } from './harness';
import { deposit, fakeDns, operationsOnly } from './url-policy-support';

const METADATA_URLS = [
  'http://169.254.169.254/latest/meta-data/',
  'http://2852039166/',
  'http://0xa9fea9fe/',
  'http://0251.0376.0251.0376/',
  'http://169.254.43518/',
  'http://[::ffff:169.254.169.254]/',
  'http://[::ffff:a9fe:a9fe]/',
  'http://[::169.254.169.254]/',
  'http://[64:ff9b::a9fe:a9fe]/',
  'http://169.254.170.2/v2/credentials',
  'http://169.254.1.1/',
  'https://169.254.169.254/latest/meta-data/',
  'http://[fe80::1]/',
  'https://[fe80::a9fe:a9fe]/',
  'http://[fd00:ec2::254]/',
  'http://100.100.100.200/',
  'http://0.0.0.0:9000/hooks',
  'https://[::]/hooks',
];

const NEVER_A_RECEIVER = 'must not reach a link-local, unspecified or cloud metadata address (refused under every URL policy)';
const RESOLVES_TO_NEVER = 'must not reach a link-local, unspecified or cloud metadata address (its host name resolves to one)';
const refusedUrl = (message: string) => ({ field: 'body.url', message });

describe.each(['development', 'production'] as const)('under the %s policy, a metadata address', (urlPolicy) => {
  const dns = fakeDns();
  let h: Harness;
  let api: Authed;
  let subscriptionId: string;
  beforeAll(async () => {
    h = await startMock({ config: { urlPolicy }, lookup: dns.lookup });
    api = await h.as();
    dns.set('hooks.example.com', '93.184.215.14');
    subscriptionId = (await api.post('/api/subscriptions', { url: 'https://hooks.example.com/a', resources: operationsOnly }).expect(201))
      .body.id;
  });
  afterAll(() => h?.close());

  it.each(METADATA_URLS)('is refused at create: %s', async (url) => {
    const res = await api.post('/api/subscriptions', { url, resources: operationsOnly }).expect(400);
    expect(res.body.code).toBe('VALIDATION_ERROR');
    expect(res.body.details.fields).toEqual([refusedUrl(NEVER_A_RECEIVER)]);
  });

  it.each(METADATA_URLS)('is refused at update, and the subscription keeps its URL: %s', async (url) => {
    const res = await api.patch(`/v1/subscriptions/${subscriptionId}`, { url }).expect(400);
    expect(res.body.code).toBe('VALIDATION_ERROR');
    expect(res.body.details.fields).toEqual([refusedUrl(NEVER_A_RECEIVER)]);
    expect((await api.get(`/v1/subscriptions/${subscriptionId}`).expect(200)).body.url).toBe('https://hooks.example.com/a');
  });

  it.each([
    ['metadata.google.internal', '169.254.169.254'],
    ['metadata.google.internal.', '169.254.169.254'],
    ['imds.example.com', 'fd00:ec2::254'],
    ['mixed.example.com', '93.184.215.14', 'fe80::1'],
  ])('by a name (%s resolving to %s) is refused at create and at update', async (name, ...addresses) => {
    dns.set(name, ...addresses);
    // Names resolved at create: every one under production, plain-HTTP ones under development (an
    // HTTPS one there is judged before each delivery, below).
    const url = `${urlPolicy === 'production' ? 'https' : 'http'}://${name}/computeMetadata/v1/`;
    const created = await api.post('/api/subscriptions', { url, resources: operationsOnly }).expect(400);
    expect(created.body.details.fields).toEqual([refusedUrl(RESOLVES_TO_NEVER)]);
    const updated = await api.patch(`/v1/subscriptions/${subscriptionId}`, { url }).expect(400);
    expect(updated.body.details.fields).toEqual([refusedUrl(RESOLVES_TO_NEVER)]);
  });
});

describe('under the development policy, loopback and private receivers', () => {
  const dns = fakeDns();
  let h: Harness;
  let api: Authed;
  beforeAll(async () => {
    h = await startMock({ lookup: dns.lookup });
    api = await h.as();
    dns.set('receiver', '10.89.0.7');
    dns.set('host.docker.internal', '172.17.0.1', 'fd00::2');
    dns.set('loop.example.com', '127.0.0.1');
  });
  afterAll(() => h?.close());

  it.each([
    'http://127.0.0.1:9000/hooks',
    'http://localhost:9000/hooks',
    'http://[::1]:9000/hooks',
    'http://10.0.0.5/hooks',
    'http://172.17.0.1:9000/hooks',
    'http://192.168.1.20/hooks',
    'http://100.64.0.7/hooks',
    'http://[fd12:3456::1]/hooks',
    'https://10.0.0.5/hooks',
    'http://receiver:9000/hooks',
    'http://host.docker.internal:9000/hooks',
    'https://loop.example.com/hooks',
  ])('are accepted at create and at update: %s', async (url) => {
    const sub = (await api.post('/api/subscriptions', { url, resources: operationsOnly }).expect(201)).body;
    await api.patch(`/v1/subscriptions/${sub.id}`, { url: 'http://127.0.0.1:9/other' }).expect(200);
    await api.patch(`/v1/subscriptions/${sub.id}`, { url }).expect(200);
    await api.delete(`/v1/subscriptions/${sub.id}`).expect(204);
  });
});

// An HTTPS name under development is judged by the delivery's connection instead (test/webhooks/connect-lookup.test.ts).
describe('before each delivery, a name that now resolves to a metadata address is not delivered to', () => {
  const dns = fakeDns();
  const sent: DeliveryRequest[] = [];
  let h: Harness;
  let api: Authed;
  const start = async (urlPolicy: 'development' | 'production') => {
    h = await startMock({
      config: { urlPolicy },
      lookup: dns.lookup,
      deliver: (delivery) => {
        sent.push(delivery);
        return Promise.resolve({ ok: true, httpStatus: 200, error: null });
      },
    });
    api = await h.as();
  };
  afterEach(async () => {
    sent.length = 0;
    await h?.close();
  });

  async function onlyLog(subscriptionId: string): Promise<ExecutionLog> {
    const logs = (await api.get(`/v1/subscriptions/${subscriptionId}/executionLogs`).expect(200)).body.data as ExecutionLog[];
    expect(logs).toHaveLength(1);
    return logs[0] as ExecutionLog;
  }

  const REFUSED = 'refused: the URL resolves to a link-local, unspecified or cloud metadata address';

  it.each([
    ['development', 'a plain-HTTP name of a private receiver', 'http://rebinding.example.com:9000/hooks', '10.89.0.7', 'fe80::1'],
    ['development', 'a plain-HTTP name', 'http://rebinding.example.com:9000/hooks', '10.89.0.7', '100.100.100.200'],
    ['production', 'an HTTPS name', 'https://rebinding.example.com/hooks', '93.184.215.14', '169.254.169.254'],
  ] as Array<['development' | 'production', string, string, string, string]>)(
    'under %s, %s: FAILED, httpStatus 0, nothing sent',
    async (urlPolicy, _kind, url, before, after) => {
      await start(urlPolicy);
      const name = new URL(url).hostname;
      dns.set(name, before);
      const sub = (await api.post('/api/subscriptions', { url, resources: operationsOnly }).expect(201)).body;
      dns.set(name, after);
      await deposit(api, h);
      expect(sent).toEqual([]);
      expect(await onlyLog(sub.id)).toMatchObject({ status: 'FAILED', httpStatus: 0, error: REFUSED, url });
    },
  );

  it.each([
    ['a plain-HTTP name resolving to a private address', 'http://receiver:9000/hooks', '10.89.0.7'],
    ['an HTTPS name resolving to loopback', 'https://loop.example.com/hooks', '127.0.0.1'],
    ['an HTTPS name resolving to a public address', 'https://hooks.example.com/hooks', '93.184.215.14'],
  ])('under development, %s is delivered to', async (_kind, url, address) => {
    await start('development');
    dns.set(new URL(url).hostname, address);
    const sub = (await api.post('/api/subscriptions', { url, resources: operationsOnly }).expect(201)).body;
    await deposit(api, h);
    expect(sent.map((s) => s.url)).toEqual([url]);
    expect(await onlyLog(sub.id)).toMatchObject({ status: 'SUCCESS', httpStatus: 200 });
  });

  it('under development, an HTTPS name that does not resolve now is attempted: the attempt says what happened', async () => {
    await start('development');
    const sub = (await api.post('/api/subscriptions', { url: 'https://not-yet.example.com/hooks', resources: operationsOnly }).expect(201))
      .body;
    await deposit(api, h);
    expect(sent.map((s) => s.url)).toEqual(['https://not-yet.example.com/hooks']);
    expect(await onlyLog(sub.id)).toMatchObject({ status: 'SUCCESS' });
  });
});
