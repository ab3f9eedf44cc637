// connectMock(url) and customer(): a client for a mock started elsewhere, shared by
// tests that each take a customer of their own, fault their own traffic, verify their own requests
// and deliveries, and reset; a failed verification's message lists the near misses.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import {
  assertVerified,
  connectMock,
  startMock,
  verificationMatchers,
  VerificationError,
  type ControlClient,
  type CustomerHandle,
  type RunningMock,
} from '../../mock/package';

let mock: RunningMock;
let control: ControlClient;

beforeAll(async () => {
  mock = await startMock({ autoSettleMs: null });
  control = await connectMock(mock.url);
});
afterAll(async () => {
  await control?.close();
  await mock?.close();
});

/** The service API as the customer's own client calls it. */
async function clientOf(customer: CustomerHandle) {
  const answer = await fetch(`${mock.url}/api/oauth/client/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ clientId: customer.clientId, clientSecret: customer.clientSecret }),
  });
  const { accessToken } = (await answer.json()) as { accessToken: string };
  return (sourceAmount: string) =>
    fetch(`${mock.url}/v1/quotes`, {
      method: 'POST',
      headers: { authorization: `Bearer ${accessToken}`, 'content-type': 'application/json', 'x-idempotency-key': crypto.randomUUID() },
      body: JSON.stringify({ accountId: customer.accounts[0], sourceAsset: 'BRL', targetAsset: 'BRL', sourceAmount }),
    });
}

describe('pending jobs through the client', () => {
  it("a deposit's settlement waits on its customer's frozen clock: listed by that customer's handle, not by another's", async () => {
    const settling = await startMock({ autoSettleMs: 5_000 });
    const client = await connectMock(settling.url);
    try {
      const erin = await client.customer({ name: 'erin', clock: { frozen: true } });
      const frank = await client.customer('frank');
      const call = async (path: string, body: object, token: string) =>
        fetch(`${settling.url}${path}`, {
          method: 'POST',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'x-idempotency-key': crypto.randomUUID() },
          body: JSON.stringify(body),
        }).then(async (answer) => ({ status: answer.status, body: (await answer.json()) as { id: string; accessToken: string } }));
      const login = await call('/api/oauth/client/token', { clientId: erin.clientId, clientSecret: erin.clientSecret }, '');
      const accountId = erin.accounts[0];
      const quote = await call(
        '/v1/quotes',
        { accountId, sourceAsset: 'BRL', targetAsset: 'BRL', sourceAmount: '10.00' },
        login.body.accessToken,
      );
      const deposit = await call(
        '/v1/operations/deposits',
        { accountId, quoteId: quote.body.id, fundingInstruction: { rail: 'PIX' } },
        login.body.accessToken,
      );
      expect(deposit.status).toBe(201);

      const erinJobs = await erin.jobs();
      expect(erinJobs.data).toEqual([
        expect.objectContaining({
          kind: 'auto-settle',
          customerId: erin.customerId,
          ownClock: true,
          subject: { operationId: deposit.body.id },
        }),
      ]);
      expect(erinJobs.total).toBe(1);
      expect((await frank.jobs()).data).toEqual([]);
      expect((await client.jobs()).data.map((job) => job.customerId)).toContain(erin.customerId);
    } finally {
      await client.close();
      await settling.close();
    }
  });
});

describe('a customer handle on a mock started elsewhere', () => {
  it('faults, verifies and resets its own customer only', async () => {
    const alice = await control.customer('alice');
    const bob = await control.customer('bob');
    const aliceQuotes = await clientOf(alice);
    const bobQuotes = await clientOf(bob);
    await alice.faults.add({ method: 'POST', path: '/v1/quotes', error: { status: 503 }, times: 1 });
    expect(await alice.faults.list()).toHaveLength(1);
    expect((await bobQuotes('10.00')).status).toBe(201);
    expect((await aliceQuotes('10.00')).status).toBe(503);
    expect((await aliceQuotes('10.00')).status).toBe(201);

    const verdict = await assertVerified(alice.verify({ method: 'POST', path: '/v1/quotes', status: '2xx' }, { exactly: 1 }));
    expect(verdict.count).toBe(1);
    expect((await bob.verify({ method: 'POST', path: '/v1/quotes' }, { exactly: 1 })).ok).toBe(true);
    expect(await alice.journal({ status: '5xx' })).toHaveLength(1);

    await alice.reset();
    expect(await alice.journal()).toEqual([]);
    expect((await bob.verify({ path: '/v1/quotes' }, { exactly: 1 })).ok).toBe(true);
  });

  it("moves its own clock alone: its quote expires while another customer's, made at the same time, stays open", async () => {
    const carol = await control.customer({ name: 'carol', clock: { frozen: true } });
    const dave = await control.customer({ name: 'dave', clock: { frozen: true } });
    const carolQuote = (await (await clientOf(carol))('10.00').then((r) => r.json())) as { id: string; expiresAt: string };
    const daveQuote = (await (await clientOf(dave))('10.00').then((r) => r.json())) as { id: string; expiresAt: string };
    const before = await carol.clock.read();
    const daveBefore = await dave.clock.read();
    expect(before).toMatchObject({ own: true, frozen: true });
    const after = await carol.clock.advance('31s');
    expect(Date.parse(after.now) - Date.parse(before.now)).toBe(31_000);
    expect((await dave.clock.read()).now).toBe(daveBefore.now);
    const read = async (customer: CustomerHandle, id: string) => {
      const token = await fetch(`${mock.url}/api/oauth/client/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ clientId: customer.clientId, clientSecret: customer.clientSecret }),
      }).then(async (r) => ((await r.json()) as { accessToken: string }).accessToken);
      return (await fetch(`${mock.url}/v1/quotes/${id}`, { headers: { authorization: `Bearer ${token}` } }).then((r) => r.json())) as {
        status: string;
      };
    };
    expect((await read(carol, carolQuote.id)).status).toBe('EXPIRED');
    expect((await read(dave, daveQuote.id)).status).toBe('OPEN');
  });

  it('a failed verification throws a message listing each near miss and how it differs', async () => {
    const carol = await control.customer();
    const quotes = await clientOf(carol);
    await quotes('10.00');
    await quotes('25.00');
    const failed = assertVerified(
      carol.verify({ method: 'POST', path: '/v1/quotes', body: [{ path: '$.sourceAmount', equals: '10.00' }] }, { exactly: 2 }),
    );
    await expect(failed).rejects.toThrow(VerificationError);
    const message = await failed.catch((error: Error) => error.message);
    expect(message).toContain('found 1.');
    expect(message).toContain('Near misses (closest first):');
    expect(message).toContain('body.$.sourceAmount: expected equals "10.00", was "25.00"');
  });

  it('the same as a matcher for expect.extend (jest and vitest)', async () => {
    expect.extend(verificationMatchers);
    const dave = await control.customer();
    const verdict = await dave.verify({ path: '/v1/quotes' }, { exactly: 0 });
    (expect(verdict) as unknown as { toHold(): void }).toHold();
    const result = verificationMatchers.toHold(await dave.verify({ path: '/v1/quotes' }));
    expect(result.pass).toBe(false);
    expect(result.message()).toContain('Nothing came close');
  });

  it('deliveries are verified for the customer alone', async () => {
    const erin = await control.customer();
    await erin.deliveries.idle();
    expect((await erin.deliveries.verify({ eventType: 'OPERATION_COMPLETED' }, { exactly: 0 })).ok).toBe(true);
  });

  it('connectMock to where no mock answers rejects naming the URL', async () => {
    await expect(connectMock('http://127.0.0.1:9', { readyTimeoutMs: 0 })).rejects.toThrow(
      'no mock answered GET http://127.0.0.1:9/_mock/health',
    );
  });
});
