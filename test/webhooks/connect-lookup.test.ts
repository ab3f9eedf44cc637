// A delivery's connection resolves its host name with the app's resolver and refuses an address
// the URL policy refuses, so a name that answers one address to the policy's check and another
// to the connection (DNS rebinding with a short time to live) never reaches a metadata address.
// The resolver is a fake answering each name a list of answers in turn; the receiver is real.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { ResolvedAddress } from '../../mock/domain/url-policy';
import type { ExecutionLog } from '../../mock/domain/records';
import { connectLookup } from '../../mock/webhooks/connect-lookup';
import { startReceiver, type Receiver } from '../../mock/receiver/receiver';
import { startMock, type Authed, type Harness } from '../http/harness';
import { deposit, operationsOnly } from '../http/url-policy-support';

/** Answers each name its answers in turn, the last one again once they run out; records the names asked. */
function answersInTurn() {
  const answers = new Map<string, string[][]>();
  const asked: string[] = [];
  const lookup = (hostname: string): Promise<ResolvedAddress[]> => {
    asked.push(hostname);
    const queue = answers.get(hostname) ?? [];
    const next = queue.length > 1 ? queue.shift() : queue[0];
    if (next === undefined) return Promise.reject(Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' }));
    return Promise.resolve(next.map((address) => ({ address, family: address.includes(':') ? 6 : 4 })));
  };
  return { lookup, asked, answer: (name: string, ...turns: string[][]) => answers.set(name, turns) };
}

async function onlyLog(api: Authed, subscriptionId: string): Promise<ExecutionLog> {
  const logs = (await api.get(`/v1/subscriptions/${subscriptionId}/executionLogs`).expect(200)).body.data as ExecutionLog[];
  expect(logs).toHaveLength(1);
  return logs[0] as ExecutionLog;
}

describe('the connection of a delivery, under the development policy', () => {
  const dns = answersInTurn();
  let h: Harness;
  let api: Authed;
  let receiver: Receiver;
  let port: string;
  beforeAll(async () => {
    receiver = await startReceiver();
    port = new URL(receiver.url).port;
    h = await startMock({ lookup: dns.lookup });
    api = await h.as();
  });
  afterAll(async () => {
    await h?.close();
    await receiver?.close();
  });

  it('is made to the address the app resolver gives a name: the receiver gets the event', async () => {
    dns.answer('receiver.test', ['127.0.0.1']);
    const url = `http://receiver.test:${port}/hooks`;
    const sub = (await api.post('/api/subscriptions', { url, resources: operationsOnly }).expect(201)).body;
    await deposit(api, h);
    expect(await onlyLog(api, sub.id)).toMatchObject({ status: 'SUCCESS', url });
    expect(receiver.received).toHaveLength(1);
    await api.delete(`/v1/subscriptions/${sub.id}`).expect(204);
  });

  it('is not made when the name answers a metadata address by then: FAILED, httpStatus 0, nothing received', async () => {
    receiver.received.length = 0;
    // At create, at the check before the attempt, then at the connection.
    dns.answer('rebinding.test', ['127.0.0.1'], ['127.0.0.1'], ['169.254.169.254']);
    const url = `http://rebinding.test:${port}/hooks`;
    const sub = (await api.post('/api/subscriptions', { url, resources: operationsOnly }).expect(201)).body;
    await deposit(api, h);
    expect(await onlyLog(api, sub.id)).toMatchObject({
      status: 'FAILED',
      httpStatus: 0,
      error: 'refused: rebinding.test resolves to 169.254.169.254, which the URL policy refuses',
    });
    expect(receiver.received).toEqual([]);
    expect(dns.asked.filter((name) => name === 'rebinding.test')).toHaveLength(3);
    await api.delete(`/v1/subscriptions/${sub.id}`).expect(204);
  });

  it.each([
    ['169.254.169.254', 'metadata-v4.test'],
    ['::ffff:169.254.169.254', 'metadata-mapped.test.'],
    ['fd00:ec2::254', 'metadata-v6.test'],
  ])('an HTTPS name is looked up once, by the connection, and not connected to when it answers %s', async (address, name) => {
    receiver.received.length = 0;
    dns.answer(name, [address]);
    const url = `https://${name}:${port}/hooks`;
    const sub = (await api.post('/api/subscriptions', { url, resources: operationsOnly }).expect(201)).body;
    await deposit(api, h);
    expect(await onlyLog(api, sub.id)).toMatchObject({
      status: 'FAILED',
      httpStatus: 0,
      error: `refused: ${name} resolves to ${address}, which the URL policy refuses`,
    });
    expect(receiver.received).toEqual([]);
    expect(dns.asked.filter((asked) => asked === name)).toHaveLength(1);
    await api.delete(`/v1/subscriptions/${sub.id}`).expect(204);
  });
});

describe('the connection of a delivery, under the production policy', () => {
  const dns = answersInTurn();
  let h: Harness;
  let api: Authed;
  beforeAll(async () => {
    h = await startMock({ config: { urlPolicy: 'production' }, lookup: dns.lookup });
    api = await h.as();
  });
  afterAll(() => h?.close());

  it.each([
    ['a private', '10.0.0.7'],
    ['a metadata', 'fd00:ec2::254'],
  ])('is not made when the name answers %s address by then (%s)', async (_kind, address) => {
    const name = `rebinding-${address.replace(/[^0-9a-f]/gi, '-')}.example.com`;
    dns.answer(name, ['93.184.215.14'], ['93.184.215.14'], [address]);
    const sub = (await api.post('/api/subscriptions', { url: `https://${name}/hooks`, resources: operationsOnly }).expect(201)).body;
    await deposit(api, h);
    expect(await onlyLog(api, sub.id)).toMatchObject({
      status: 'FAILED',
      httpStatus: 0,
      error: `refused: ${name} resolves to ${address}, which the URL policy refuses`,
    });
    await api.delete(`/v1/subscriptions/${sub.id}`).expect(204);
  });
});

describe('connectLookup, as net.connect calls it', () => {
  const resolve = (hostname: string): Promise<ResolvedAddress[]> =>
    hostname === 'dual.test'
      ? Promise.resolve([
          { address: '10.0.0.1', family: 4 },
          { address: 'fd00::1', family: 6 },
        ])
      : Promise.reject(Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' }));
  const lookup = connectLookup(resolve, (address) => address === 'fd00::1');
  const call = (hostname: string, options: Parameters<typeof lookup>[1]) =>
    new Promise<{ error: NodeJS.ErrnoException | null; address: unknown; family?: number }>((done) =>
      lookup(hostname, options, (error, address, family) => done({ error, address, family })),
    );

  it('refuses a name when any of its addresses is refused, whichever family is asked', async () => {
    for (const options of [{}, { all: true }, { family: 4 }]) {
      expect((await call('dual.test', options)).error?.code).toBe('ERR_FOS_MOCK_REFUSED_ADDRESS');
    }
  });

  it('answers the family asked, one address or all, and passes a failure to resolve on', async () => {
    const only4 = connectLookup(resolve, () => false);
    const one = (options: Parameters<typeof lookup>[1]) =>
      new Promise<unknown[]>((done) => only4('dual.test', options, (error, address, family) => done([error, address, family])));
    expect(await one({ family: 4 })).toEqual([null, '10.0.0.1', 4]);
    expect(await one({ family: 'IPv6' })).toEqual([null, 'fd00::1', 6]);
    expect(await one({ all: true })).toEqual([
      null,
      [
        { address: '10.0.0.1', family: 4 },
        { address: 'fd00::1', family: 6 },
      ],
      undefined,
    ]);
    expect((await call('nowhere.test', {})).error?.code).toBe('ENOTFOUND');
  });
});
