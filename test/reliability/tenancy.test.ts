// Tokens and tenancy. Forged, tampered, expired and orphaned tokens are all 401. Customer 2,
// holding a perfectly valid token, gets 404 for every one of customer 1's ids on every
// operation that takes one (exactly as for an id nobody has, with none of customer 1's data in
// the answer), never sees customer 1's ids in its lists or execution logs, and never receives
// customer 1's webhooks.
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { SignJWT, decodeJwt, decodeProtectedHeader } from 'jose';
import { startMock, type Harness } from '../http/harness';
import { demo } from '../http/fixture-ids';
import { startReceiver, type Receiver } from '../../mock/receiver/receiver';
import { createQuote, expectStatus, walkAll } from './support/api';
import type { ExecutionLog, Subscription } from '../../mock/store/records';
import { answerProblems } from './support/checks';
import { report } from './support/env';
import { errorLog } from './support/error-log';
import { client, serve, type Answer, type Client, type Served } from './support/http-client';

const d = demo();
const c1 = d.c1.id;
const c2 = d.c2.id;
const errors = errorLog();
const stats = { forgedTokens: 0, crossTenantRequests: 0, listsWalked: 0, webhooksChecked: 0 };

afterAll(() => report('tenancy.test.ts', stats));

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

function expectUnauthorized(answer: Answer, what: string): void {
  if (answer.status !== 401 || answer.body?.code !== 'UNAUTHORIZED')
    throw new Error(`${what}: expected 401 UNAUTHORIZED, got ${answer.status} ${answer.text.slice(0, 300)}`);
  stats.forgedTokens++;
}

describe('tokens', () => {
  let h: Harness;
  let served: Served;
  let real: string;
  const withToken = (token: string) => client(served, token);

  beforeEach(async () => {
    h = await startMock({ logger: errors.logger });
    served = await serve(h.mock.app);
    real = await h.token('customer1');
  });
  afterEach(async () => {
    await served.close();
    await h.close();
  });

  /** Signs claims with the mock's own secret: only the changed claim or header can make it fail. */
  async function signed(
    claims: Record<string, unknown>,
    header: Record<string, unknown> = {},
    key: string = h.mock.deps.config.secret,
  ): Promise<string> {
    const base = decodeJwt(real);
    return new SignJWT({ ...base, ...claims })
      .setProtectedHeader({ ...decodeProtectedHeader(real), ...header, alg: (header.alg as string) ?? 'HS256' })
      .sign(new TextEncoder().encode(key));
  }

  it('the genuine token, and one re-signed with the mock secret and the same claims, are accepted (the control)', async () => {
    expectStatus(await withToken(real).get('/api/accounts?limit=1'), 200, 'real token');
    expectStatus(await withToken(await signed({})).get('/api/accounts?limit=1'), 200, 're-signed token');
  });

  it('alg none, another key, a tampered payload, a wrong typ, issuer or audience, another algorithm: 401', async () => {
    const [h64, p64, sig] = real.split('.') as [string, string, string];
    const payload = decodeJwt(real);
    const forged: Array<[string, string]> = [
      ['alg none, no signature', `${b64({ alg: 'none', typ: 'at+jwt' })}.${p64}.`],
      ['alg none, original signature', `${b64({ alg: 'none', typ: 'at+jwt' })}.${p64}.${sig}`],
      ['alg None (case)', `${b64({ alg: 'None', typ: 'at+jwt' })}.${p64}.`],
      ['HS256 with another key', await signed({}, {}, 'not-the-mock-secret-0123456789abcdef')],
      ['HS256 with an empty-ish key', await signed({}, {}, ' ')],
      ['payload tampered: sub is customer 2', `${h64}.${b64({ ...payload, sub: c2 })}.${sig}`],
      ['payload tampered: exp in a century', `${h64}.${b64({ ...payload, exp: (payload.exp as number) + 100 * 365 * 86400 })}.${sig}`],
      ['signature of another token', `${h64}.${p64}.${(await signed({ jti: randomUUID() })).split('.')[2]}`],
      ['signature truncated', `${h64}.${p64}.${sig.slice(0, -4)}`],
      ['typ JWT instead of at+jwt', await signed({}, { typ: 'JWT' })],
      ['no typ', await signed({}, { typ: undefined })],
      ['wrong issuer', await signed({ iss: 'someone-else' })],
      ['wrong audience', await signed({ aud: 'another-api' })],
      ['HS512 with the mock secret', await signed({}, { alg: 'HS512' })],
      ['unknown customer', await signed({ sub: randomUUID() })],
      ['no sub', await signed({ sub: undefined })],
      ['no exp', await signed({ exp: undefined })],
      ['not yet valid (nbf in the future)', await signed({ nbf: (payload.iat as number) + 3600 })],
      ['a JWE-shaped string', `${h64}.${p64}.${sig}.x.y`],
    ];
    for (const [what, token] of forged) expectUnauthorized(await withToken(token).get('/api/accounts?limit=1'), what);
    // Nothing broke the genuine token on the way.
    expectStatus(await withToken(real).get('/api/accounts?limit=1'), 200, 'real token still works');
  });

  it('a token expired by the mock clock is 401, whether or not it was used before', async () => {
    const used = real;
    expectStatus(await withToken(used).get('/api/accounts?limit=1'), 200, 'fresh token');
    const unused = (
      await served.send({
        method: 'POST',
        path: '/api/oauth/client/token',
        body: { clientId: d.c2.clientId, clientSecret: d.c2.clientSecret },
      })
    ).body.accessToken as string;
    h.mock.deps.clock.advance((h.mock.deps.config.tokenLifetimeSeconds - 1) * 1000);
    expectStatus(await withToken(used).get('/api/accounts?limit=1'), 200, 'a second before expiry');
    h.mock.deps.clock.advance(1000);
    expectUnauthorized(await withToken(used).get('/api/accounts?limit=1'), 'expired, seen before');
    expectUnauthorized(await withToken(unused).get('/api/accounts?limit=1'), 'expired, never seen');
  });

  it('the token of a deleted customer is 401 at once, and no new token is issued for it', async () => {
    expectStatus(await withToken(real).get('/api/accounts?limit=1'), 200, 'before deletion');
    await h.mock.deps.store.update('customer', c1, (r) => ({ ...r, deleted: true }));
    expectUnauthorized(await withToken(real).get('/api/accounts?limit=1'), 'deleted customer, cached token');
    expectUnauthorized(
      await withToken(await signed({ jti: randomUUID() })).get('/v1/operations'),
      'deleted customer, new token signed by the mock',
    );
    const issue = await served.send({
      method: 'POST',
      path: '/api/oauth/client/token',
      body: { clientId: d.c1.clientId, clientSecret: d.c1.clientSecret },
    });
    expect(issue.status).toBe(401);
    expect(issue.body.code).toBe('INVALID_CLIENT');
    // The other customer is untouched.
    expectStatus(await withToken(await h.token('customer2')).get('/api/accounts?limit=1'), 200, 'customer 2');
  });

  it('every operation with a bearer token refuses a forged one with 401 and the Error body', async () => {
    const forged = `${b64({ alg: 'none', typ: 'at+jwt' })}.${real.split('.')[1]}.`;
    for (const op of h.mock.contract.operations.filter((o) => o.security)) {
      const path = op.path.replace(/\{[^}]+\}/g, () => randomUUID());
      const answer = await served.send({
        method: op.method.toUpperCase(),
        path,
        headers: { authorization: `Bearer ${forged}`, 'x-idempotency-key': randomUUID() },
        body: op.hasBody ? {} : undefined,
      });
      expectUnauthorized(answer, `${op.operationId} with alg none`);
      expect(answerProblems(h.mock.contract, op, answer)).toEqual([]);
    }
  });
});

describe('tenancy', () => {
  let h: Harness;
  let served: Served;
  let one: Client;
  let two: Client;
  let r1: Receiver;
  let r2: Receiver;
  /** Customer 1's ids by path parameter name. */
  const mine: Record<string, string> = {};
  /** Everything of customer 1 that must never show in customer 2's answers. */
  let secrets: string[] = [];

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

  /** A valid body for each operation that takes one and a path id, so only the id can be wrong. */
  const BODIES: Record<string, unknown> = {
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

  function leaks(text: string, allowed: string[]): string[] {
    return secrets.filter((s) => s && !allowed.includes(s) && text.includes(s));
  }

  async function as2(op: { method: string; operationId: string }, path: string): Promise<Answer> {
    stats.crossTenantRequests++;
    return two[op.method as 'get' | 'post' | 'patch' | 'delete'](path, BODIES[op.operationId]);
  }

  it(
    "for every operation with a path id, customer 2's token on customer 1's ids is 404, " +
      "exactly as for an unknown id, with none of customer 1's data",
    async () => {
      const before = {
        account: (await one.get(`/api/accounts/${mine.accountId}`)).body,
        beneficiary: (await one.get(`/v1/beneficiaries/${mine.beneficiaryId}`)).body,
        subscription: (await one.get(`/v1/subscriptions/${mine.subscriptionId}`)).body,
      };
      const withIds = h.mock.contract.operations.filter((op) => op.pathParams.length > 0);
      expect(withIds.length).toBeGreaterThanOrEqual(11);
      for (const op of withIds) {
        for (const name of op.pathParams)
          if (!mine[name])
            throw new Error(`${op.operationId}: no customer-1 id known for path parameter ${name}; teach this test about it`);
        if (op.hasBody && op.bodyRequired && !(op.operationId in BODIES))
          throw new Error(`${op.operationId}: no valid body known; teach this test about it`);
        const ids = op.pathParams.map((name) => mine[name]!);
        const unknown = op.pathParams.map(() => randomUUID());
        const fill = (values: string[]) => op.pathParams.reduce((p, name, i) => p.replace(`{${name}}`, values[i]!), op.path);
        const theirs = await as2(op, fill(ids));
        if (theirs.status !== 404 || theirs.body?.code !== 'RESOURCE_NOT_FOUND')
          throw new Error(`${op.operationId}: customer 2 on customer 1's ids got ${theirs.status} ${theirs.text.slice(0, 300)}`);
        expect(answerProblems(h.mock.contract, op, theirs)).toEqual([]);
        expect(leaks(theirs.text, ids)).toEqual([]);
        // Exactly like an id nobody has: the same answer with the ids swapped.
        const nobody = await as2(op, fill(unknown));
        expect(nobody.status).toBe(404);
        const normalised = ids.reduce((text, id, i) => text.split(id).join(unknown[i]), theirs.text);
        expect(normalised).toBe(nobody.text);
      }
      // Nothing of customer 1 changed (PATCH, DELETE and POST were all refused).
      expect((await one.get(`/api/accounts/${mine.accountId}`)).body).toEqual(before.account);
      expect((await one.get(`/v1/beneficiaries/${mine.beneficiaryId}`)).body).toEqual(before.beneficiary);
      expect((await one.get(`/v1/subscriptions/${mine.subscriptionId}`)).body).toEqual(before.subscription);
    },
  );

  it("customer 2's own subscription with customer 1's execution log id is 404 too", async () => {
    const own = (await walkAll<Subscription>(two, '/v1/subscriptions'))[0]!.id;
    const answer = await two.post(`/v1/subscriptions/${own}/executionLogs/${mine.executionLogId}/resend`);
    stats.crossTenantRequests++;
    expect(answer.status).toBe(404);
    expect(leaks(answer.text, [mine.executionLogId!])).toEqual([]);
  });

  it("customer 1's ids in a request body: never a success, never customer 1's data", async () => {
    const funded2 = d.funded(c2).id;
    const funded1 = d.funded(c1).id;
    const foreignQuote = (await createQuote(one, { accountId: funded1, sourceAsset: 'BRL', targetAsset: 'BRL', sourceAmount: '1.00' })).id;
    const ownQuote = (await createQuote(two, { accountId: funded2, sourceAsset: 'BRL', targetAsset: 'BRL', sourceAmount: '1.00' })).id;
    const attempts: Array<[string, string, unknown, number, string]> = [
      [
        'quote on their account',
        '/v1/quotes',
        { accountId: funded1, sourceAsset: 'BRL', targetAsset: 'BRL', sourceAmount: '1.00' },
        404,
        'RESOURCE_NOT_FOUND',
      ],
      [
        'deposit with their quote',
        '/v1/operations/deposits',
        { accountId: funded2, quoteId: foreignQuote, fundingInstruction: { rail: 'PIX' } },
        422,
        'QUOTE_NOT_FOUND',
      ],
      ['swap with their quote', '/v1/operations/swaps', { accountId: funded2, quoteId: foreignQuote }, 422, 'QUOTE_NOT_FOUND'],
      [
        'deposit into their account',
        '/v1/operations/deposits',
        { accountId: funded1, quoteId: foreignQuote, fundingInstruction: { rail: 'PIX' } },
        404,
        'RESOURCE_NOT_FOUND',
      ],
      [
        'withdrawal to their beneficiary',
        '/v1/operations/withdrawals',
        { accountId: funded2, quoteId: ownQuote, beneficiary: { mode: 'REFERENCE', id: mine.beneficiaryId } },
        404,
        'RESOURCE_NOT_FOUND',
      ],
      [
        'transfer into their account',
        '/v1/operations/transfers',
        { accountId: funded2, targetAccountId: funded1, asset: 'BRL', amount: '1.00' },
        404,
        'RESOURCE_NOT_FOUND',
      ],
      [
        'transfer out of their account',
        '/v1/operations/transfers',
        { accountId: funded1, targetAccountId: funded2, asset: 'BRL', amount: '1.00' },
        404,
        'RESOURCE_NOT_FOUND',
      ],
    ];
    for (const [what, path, body, status, code] of attempts) {
      const answer = await two.post(path, body);
      stats.crossTenantRequests++;
      if (answer.status !== status || answer.body.code !== code)
        throw new Error(`${what}: expected ${status} ${code}, got ${answer.status} ${answer.text.slice(0, 300)}`);
      const named = JSON.stringify(body);
      expect(
        leaks(
          answer.text,
          secrets.filter((s) => named.includes(s)),
        ),
      ).toEqual([]);
    }
    // Their quote is still theirs to use.
    expect((await one.get(`/v1/quotes/${foreignQuote}`)).body.status).toBe('OPEN');
  });

  it("an idempotency key is the customer's own: customer 2 reusing customer 1's key gets no replay of customer 1's answer", async () => {
    const [k1, k2] = [randomUUID(), randomUUID()];
    const body1 = { accountId: d.funded(c1).id, sourceAsset: 'BRL', targetAsset: 'BRL', sourceAmount: '4.00' };
    const first = expectStatus(await one.post('/v1/quotes', body1, k1), 201, 'c1 quote');
    expectStatus(await one.post('/v1/quotes', { ...body1, sourceAmount: '5.00' }, k2), 201, 'c1 second quote');
    // Customer 1's key and customer 1's very request: answered for customer 2, not replayed.
    const same = await two.post('/v1/quotes', body1, k1);
    expect(same.status).toBe(404);
    expect(same.headers['x-idempotent-replayed']).toBeUndefined();
    expect(same.text).not.toContain(first.body.id);
    // Customer 1's other key with customer 2's own request: a new quote of customer 2.
    const own = await two.post('/v1/quotes', { ...body1, accountId: d.funded(c2).id }, k2);
    expect(own.status).toBe(201);
    expect(own.headers['x-idempotent-replayed']).toBeUndefined();
    expect(own.body.customer.id).toBe(c2);
    stats.crossTenantRequests += 2;
  });

  it("a cursor of customer 1's list is refused for customer 2 (400 INVALID_CURSOR), never a page of customer 1's data", async () => {
    for (const path of ['/v1/operations', '/api/accounts', '/v1/beneficiaries', '/v1/subscriptions']) {
      const page = expectStatus(await one.get(`${path}?limit=1`), 200, `c1 ${path}`);
      const cursor = page.body.meta.nextCursor ?? page.body.meta.previousCursor;
      if (!cursor) continue;
      const answer = await two.get(`${path}?cursor=${encodeURIComponent(cursor)}`);
      stats.crossTenantRequests++;
      expect(answer.status).toBe(400);
      expect(answer.body.code).toBe('INVALID_CURSOR');
      expect(leaks(answer.text, [])).toEqual([]);
    }
  });

  it("customer 2's lists and execution logs, walked in both orders, never contain customer 1's ids", async () => {
    const subscriptions = await walkAll<Subscription>(two, '/v1/subscriptions');
    const lists = [
      '/api/accounts',
      '/v1/operations',
      '/v1/beneficiaries',
      '/v1/subscriptions',
      ...subscriptions.map((s) => `/v1/subscriptions/${s.id}/executionLogs`),
    ];
    for (const list of lists) {
      for (const order of ['DESCENDING', 'ASCENDING']) {
        const items = await walkAll(two, `${list}?sortOrder=${order}`);
        stats.listsWalked++;
        expect(items.length).toBeGreaterThan(0);
        expect(leaks(JSON.stringify(items), [])).toEqual([]);
      }
    }
  });

  it("customer 1's webhooks never reach customer 2's subscription", async () => {
    // More events of both, after the lists above.
    const q = await createQuote(one, { accountId: d.funded(c1).id, sourceAsset: 'BRL', targetAsset: 'BRL', sourceAmount: '1.00' });
    expectStatus(
      await one.post('/v1/operations/deposits', { accountId: d.funded(c1).id, quoteId: q.id, fundingInstruction: { rail: 'PIX' } }),
      201,
      'c1 deposit',
    );
    await h.mock.services.webhooks.idle();
    expect(r1.received.length).toBeGreaterThan(0);
    expect(r2.received.length).toBeGreaterThan(0);
    for (const delivery of r2.received) {
      const body = JSON.parse(delivery.body);
      expect(body.customerId).toBe(c2);
      expect(leaks(delivery.body, [])).toEqual([]);
      stats.webhooksChecked++;
    }
    for (const delivery of r1.received) {
      expect(JSON.parse(delivery.body).customerId).toBe(c1);
      stats.webhooksChecked++;
    }
    // And the logs agree: customer 2's subscription logged only customer 2's messages.
    const own = (await walkAll<Subscription>(two, '/v1/subscriptions'))[0]!.id;
    const logs = await walkAll<ExecutionLog>(two, `/v1/subscriptions/${own}/executionLogs`);
    expect(logs.length).toBe(r2.received.length);
    for (const log of logs) expect(JSON.parse(log.payload).customerId).toBe(c2);
  });
});

describe('the mock itself', () => {
  it('logged no internal error through all of the above', () => {
    expect(errors.describe()).toEqual([]);
  });
});
