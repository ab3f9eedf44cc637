// startMock() and its control client, from source (package-tests/ tries the same from the packed
// and installed package): each mock has its own port, state and customer; options are checked
// like `fos-mock serve`'s settings; the control helpers drive the mock as /_mock does.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { ConfigError, ControlError, startMock, type RunningMock } from '../../mock/package';
import { missingRunner, suiteEnvironment } from '../../mock/cli/contract';
import type { components } from '../../spec/generated/api-types';

type Account = components['schemas']['Account'];
type Operation = components['schemas']['Operation'];

async function api(mock: RunningMock) {
  const token = (await (
    await fetch(`${mock.url}/api/oauth/client/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ clientId: mock.clientId, clientSecret: mock.clientSecret }),
    })
  ).json()) as { accessToken: string };
  const headers = { authorization: `Bearer ${token.accessToken}`, 'content-type': 'application/json' };
  return {
    get: async <T>(path: string) => (await (await fetch(`${mock.url}${path}`, { headers })).json()) as T,
    post: async <T>(path: string, body: unknown) =>
      (await (
        await fetch(`${mock.url}${path}`, {
          method: 'POST',
          headers: { ...headers, 'x-idempotency-key': crypto.randomUUID() },
          body: JSON.stringify(body),
        })
      ).json()) as T,
  };
}

let one: RunningMock;
let two: RunningMock;

beforeAll(async () => {
  [one, two] = await Promise.all([
    startMock({ autoSettleMs: null, clockStart: '2026-01-15T09:00:00Z' }),
    startMock({ autoSettleMs: null }),
  ]);
});

afterAll(async () => {
  await Promise.all([one?.close(), two?.close()]);
});

describe('startMock()', () => {
  it('gives each mock its own ephemeral port and a customer of its own', () => {
    expect(one.port).not.toBe(two.port);
    expect(one.url).toBe(`http://127.0.0.1:${one.port}`);
    expect(one.clientId).not.toBe('demo-client');
    expect(one.clientId).not.toBe(two.clientId);
  });

  it('keeps state per mock: a deposit made on one is unknown to the other', async () => {
    const client = await api(one);
    const accounts = await client.get<{ data: Account[] }>('/api/accounts?limit=100');
    const account = accounts.data.find((a) => ['BRL', 'USDT'].every((c) => a.assets.some((asset) => asset.currency === c)))!;
    const quote = await client.post<{ id: string }>('/v1/quotes', {
      accountId: account.id,
      sourceAsset: 'BRL',
      targetAsset: 'USDT',
      sourceAmount: '100.00',
    });
    const deposit = await client.post<Operation>('/v1/operations/deposits', {
      accountId: account.id,
      quoteId: quote.id,
      fundingInstruction: { rail: 'PIX' },
    });
    expect(deposit.currentState.status).toBe('REQUESTED');
    const settled = await one.control.settle(deposit.id);
    expect(settled.currentState.status).toBe('COMPLETED');
    await expect(two.control.settle(deposit.id)).rejects.toMatchObject({ name: 'ControlError', status: 404 });
  });

  it('moves its clock from the given start and injects faults through typed helpers', async () => {
    expect((await one.control.clock()).now).toMatch(/^2026-01-15T09:0/);
    expect((await one.control.advanceClock('1h')).now).toMatch(/^2026-01-15T10:0/);
    const fault = await one.control.injectFault({ path: '/api/accounts', error: { status: 503 }, times: 1 });
    expect(await one.control.faults()).toEqual([expect.objectContaining({ id: fault.id })]);
    const res = await fetch(`${one.url}/api/accounts`);
    expect(res.status).toBe(503);
    expect(await res.json()).toMatchObject({ code: 'INJECTED_FAULT', details: { faultId: fault.id } });
    expect(await one.control.faults()).toEqual([]);
  });

  it('gives a new customer a clock of its own and moves it by customer id, leaving the mock’s clock alone', async () => {
    const customer = await two.control.newCustomer({ name: 'QA own clock', clock: { start: '2030-01-01T00:00:00Z', frozen: true } });
    expect(customer.clock).toEqual({ now: '2030-01-01T00:00:00.000Z', frozen: true });
    const before = await two.control.clock();
    expect(await two.control.advanceCustomerClock(customer.customerId, '90s')).toEqual({
      customerId: customer.customerId,
      own: true,
      now: '2030-01-01T00:01:30.000Z',
      frozen: true,
    });
    expect((await two.control.unfreezeCustomerClock(customer.customerId)).frozen).toBe(false);
    expect((await two.control.freezeCustomerClock(customer.customerId, '2031-01-01T00:00:00Z')).now).toBe('2031-01-01T00:00:00.000Z');
    expect(await two.control.customerClock(customer.customerId)).toMatchObject({ own: true, frozen: true });
    expect(Date.parse((await two.control.clock()).now)).toBeLessThan(Date.parse(before.now) + 60_000);
    expect((await two.control.newCustomer('QA plain')).clock).toBeUndefined();
  });

  it('answers a refused control call with a ControlError carrying the status and Error body', async () => {
    const refusal = await one.control.advanceClock('soon').catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(ControlError);
    expect(refusal).toMatchObject({ operationId: 'advanceClock', status: 400, body: { code: 'VALIDATION_ERROR' } });
  });

  it.each([
    [{ port: 70000 }, 'port must be a whole number from 0 to 65535, got "70000"'],
    [{ clockStart: 'garbage' }, 'clockStart must be an ISO 8601 instant with a zone, such as 2026-01-15T09:00:00Z, got "garbage"'],
    [{ autoSettleMs: -5 }, 'autoSettleMs must be off or a whole number of milliseconds up to 2147483647, got "-5"'],
    [{ retryScheduleMs: [1000, -1] }, 'retryScheduleMs must be a list of whole numbers of milliseconds, got "[1000,-1]"'],
    [{ colour: 'blue' }, /^colour must be one of the options port, host, /],
  ])('refuses %j with a ConfigError naming the option', async (options, message) => {
    const refusal = await startMock(options as never).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(ConfigError);
    expect((refusal as Error).message).toMatch(message);
  });

  it('hands out demo-client with isolatedCustomer: false, and works without the control API then', async () => {
    const demo = await startMock({ isolatedCustomer: false, controlApi: false });
    try {
      expect(demo.clientId).toBe('demo-client');
      expect((await fetch(`${demo.url}/_mock/health`)).status).toBe(404);
    } finally {
      await demo.close();
    }
    await expect(startMock({ controlApi: false })).rejects.toThrow(/an isolated customer needs the control API/);
  });
});

describe('fos-mock contract flags', () => {
  it('become the suite’s settings', () => {
    expect(suiteEnvironment({ clientId: 'c', clientSecret: 's', allowWrites: true, webhookPort: '9000' }, 'http://x', '/r')).toEqual({
      CONTRACT_BASE_URL: 'http://x',
      CONTRACT_REPORT_DIR: '/r',
      CONTRACT_CLIENT_ID: 'c',
      CONTRACT_CLIENT_SECRET: 's',
      CONTRACT_ALLOW_WRITES: '1',
      CONTRACT_WEBHOOK_PORT: '9000',
    });
  });

  it.each([
    [{ clientId: 'c' }, 'give both --client-id and --client-secret, or neither'],
    [{ clientSecret2: 's' }, 'give both --client-id-2 and --client-secret-2, or neither'],
    [{ webhookPort: 'eighty' }, '--webhook-port must be a port number, got "eighty"'],
  ])('refuse %j clearly', (flags, message) => {
    expect(() => suiteEnvironment(flags, 'http://x', '/r')).toThrow(message);
  });

  it('need jest installed, and jest-junit only for --junit', () => {
    const onlyJest = (name: string) => {
      if (name !== 'jest') throw new Error(`Cannot find module '${name}'`);
    };
    const nothing = (name: string) => {
      throw new Error(`Cannot find module '${name}'`);
    };
    expect(missingRunner({}, onlyJest)).toEqual([]);
    expect(missingRunner({ junit: 'out/junit.xml' }, onlyJest)).toEqual(['jest-junit']);
    expect(missingRunner({ junit: 'out/junit.xml' }, nothing)).toEqual(['jest', 'jest-junit']);
    expect(missingRunner({ junit: 'out/junit.xml' })).toEqual([]); // this clone has both, as dev dependencies
  });
});
