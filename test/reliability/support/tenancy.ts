// Shared by the tenancy-*.test.ts files: the demo customers, the mock's error log, the counts each
// file reports (with a check, last, that the mock logged no internal error), the forged-token
// helpers, and the two-customer set-up: one mock where customer 1 and customer 2 each have a
// subscription with a receiver, operations, quotes and events, customer 1's ids by path
// parameter name, and everything of customer 1 that must never show in customer 2's answers.
import { afterAll, beforeAll, expect } from '@jest/globals';
import { startMock, type Harness } from '../../http/harness';
import { demo } from '../../http/fixture-ids';
import { startReceiver, type Receiver } from '../../../mock/receiver/receiver';
import type { ExecutionLog } from '../../../mock/domain/records';
import { createQuote, expectStatus, walkAll } from './api';
import { report } from './env';
import { errorLog } from './error-log';
import { client, serve, type Answer, type Client, type Served } from './http-client';

export const d = demo();
export const c1 = d.c1.id;
export const c2 = d.c2.id;
export const errors = errorLog();
export const stats = { forgedTokens: 0, crossTenantRequests: 0, listsWalked: 0, webhooksChecked: 0 };

/** A tenancy file: when all its tests have run, its report line and a check that the mock logged no internal error. */
export function tenancyFile(file: string): void {
  afterAll(() => {
    report(file, stats);
    expect(errors.describe()).toEqual([]);
  });
}

export const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

export function expectUnauthorized(answer: Answer, what: string): void {
  if (answer.status !== 401 || answer.body?.code !== 'UNAUTHORIZED')
    throw new Error(`${what}: expected 401 UNAUTHORIZED, got ${answer.status} ${answer.text.slice(0, 300)}`);
  stats.forgedTokens++;
}

// The two-customer mock, its server, both customers' clients and receivers: set by twoTenants()'s
// beforeAll, read by the tests under these names (ES module live bindings).
export let h: Harness;
export let served: Served;
export let one: Client;
export let two: Client;
export let r1: Receiver;
export let r2: Receiver;
/** Customer 1's ids by path parameter name. */
export const mine: Record<string, string> = {};
/** Everything of customer 1 that must never show in customer 2's answers. */
export let secrets: string[] = [];

/** Starts the two-customer mock before the tests of the describe block it is called in, and stops it after them. */
export function twoTenants(): void {
  beforeAll(async () => {
    h = await startMock({ logger: errors.logger });
    served = await serve(h.mock.app);
    one = client(served, await h.token('customer1'));
    two = client(served, await h.token('customer2'));
    r1 = await startReceiver();
    r2 = await startReceiver();
    const funded1 = d.funded(c1).id;
    const funded2 = d.funded(c2).id;
    mine.subscriptionId = expectStatus(
      await one.post('/api/subscriptions', { url: r1.url, includeAll: true }),
      201,
      'c1 subscription',
    ).body.id;
    expectStatus(await two.post('/api/subscriptions', { url: r2.url, includeAll: true }), 201, 'c2 subscription');
    // Customer 1's events: an operation created and completed, a beneficiary instruction; customer 2's too.
    const q1 = await createQuote(one, { accountId: funded1, sourceAsset: 'BRL', targetAsset: 'USDT', sourceAmount: '10.00' });
    const op1 = expectStatus(
      await one.post('/v1/operations/deposits', { accountId: funded1, quoteId: q1.id, fundingInstruction: { rail: 'PIX' } }),
      201,
      'c1 deposit',
    ).body;
    await h.mock.services.operations.settle(c1, op1.id);
    expectStatus(
      await one.post(`/v1/beneficiaries/${d.beneficiaryOf(c1).id}/paymentInstructions`, {
        asset: 'USDT',
        address: { rail: 'PIX_KEY', dictKey: 'c1-secret@example.com.br' },
      }),
      201,
      'c1 instruction',
    );
    const q2 = await createQuote(two, { accountId: funded2, sourceAsset: 'BRL', targetAsset: 'BRL', sourceAmount: '5.00' });
    const op2 = expectStatus(
      await two.post('/v1/operations/deposits', { accountId: funded2, quoteId: q2.id, fundingInstruction: { rail: 'PIX' } }),
      201,
      'c2 deposit',
    ).body;
    await h.mock.services.operations.settle(c2, op2.id);
    await h.mock.services.webhooks.idle();
    mine.accountId = d.editable(c1).id;
    mine.quoteId = (await createQuote(one, { accountId: funded1, sourceAsset: 'BRL', targetAsset: 'BRL', sourceAmount: '2.00' })).id;
    mine.operationId = op1.id;
    mine.beneficiaryId = d.beneficiaryOf(c1).id;
    mine.executionLogId = (await walkAll<ExecutionLog>(one, `/v1/subscriptions/${mine.subscriptionId}/executionLogs`))[0]!.id;

    const store = h.mock.deps.store;
    const customer1 = (await store.get('customer', c1))!;
    secrets = [
      c1,
      customer1.name,
      r1.url,
      'c1-secret@example.com.br',
      ...(await store.all('account', c1)).flatMap((r) => {
        const owner = r.account.owner;
        return [
          r.account.id,
          owner.taxId.value,
          ...(owner.type === 'COMPANY' ? [owner.legalName] : [`${owner.firstName} ${owner.lastName}`]),
        ];
      }),
      ...(await store.all('quote', c1)).map((q) => q.id),
      ...(await store.all('operation', c1)).map((o) => o.id),
      ...(await store.all('beneficiary', c1)).flatMap((b) => [
        b.id,
        ...b.paymentInstructions.map((pi) => pi.id),
        ...b.paymentInstructions.map((pi) => pi.address.dictKey),
      ]),
      ...(await store.all('subscription', c1)).map((s) => s.subscription.id),
      ...(await store.all('executionLog', mine.subscriptionId!)).flatMap((l) => [l.id, l.messageId]),
    ];
  });

  afterAll(async () => {
    await h.mock.services.webhooks.idle();
    await r1.close();
    await r2.close();
    await served.close();
    await h.close();
  });
}

/** A valid body for each operation that takes one and a path id, so only the id can be wrong. */
export const BODIES: Record<string, unknown> = {
  updateAccount: {
    owner: {
      type: 'INDIVIDUAL',
      firstName: 'Mallory',
      lastName: 'Intruder',
      identificationDocument: { type: 'CPF', value: '39053344705' },
      address: { addressLine1: 'Rua A, 1', city: 'Rio de Janeiro', state: 'RJ', country: 'BR', postalCode: '22270-000' },
    },
  },
  addPaymentInstruction: { asset: 'BRL', address: { rail: 'PIX_KEY', dictKey: 'mallory@example.com.br' } },
  updateSubscription: { url: 'http://127.0.0.1:9/mallory', includeAll: true },
};

export function leaks(text: string, allowed: string[]): string[] {
  return secrets.filter((s) => s && !allowed.includes(s) && text.includes(s));
}

export async function as2(op: { method: string; operationId: string }, path: string): Promise<Answer> {
  stats.crossTenantRequests++;
  return two[op.method as 'get' | 'post' | 'patch' | 'delete'](path, BODIES[op.operationId]);
}
