// Quotes and the four operation kinds, with the seed's quote rules, balances and settlement.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { isValidBrCode } from '../../mock/domain/pix';
import { startMock, type Authed, type Harness } from './harness';
import { demo } from './fixture-ids';

let h: Harness;
let api: Authed;
const d = demo();
const funded = d.funded(d.c1.id);

beforeAll(async () => {
  h = await startMock();
  api = await h.as();
});
afterAll(() => h?.close());

async function quote(body: Record<string, unknown> = {}) {
  const res = await api
    .post('/v1/quotes', { accountId: funded.id, sourceAsset: 'BRL', targetAsset: 'BRL', sourceAmount: '100.00', ...body })
    .expect(201);
  return res.body;
}

async function balance(accountId: string, asset: string) {
  return h.mock.deps.store.getBalance(accountId, asset);
}

describe('quotes', () => {
  it('prices BRL to USDT from the rate table, rounding the target down to 6 places', async () => {
    const q = await quote({ targetAsset: 'USDT', sourceAmount: '100.01' });
    expect(q).toMatchObject({
      accountId: funded.id,
      sourceAmount: { value: '100.01', asset: 'BRL', decimals: 2 },
      targetAmount: { value: '18.501850', asset: 'USDT', decimals: 6 },
      rate: '0.185000',
      status: 'OPEN',
      operationId: null,
    });
    expect(Date.parse(q.expiresAt) - Date.parse(q.createdAt)).toBe(30_000);
  });

  it('is 1:1 for the same asset, and can be priced from the target amount', async () => {
    expect((await quote()).targetAmount.value).toBe('100.00');
    const q = await quote({ targetAsset: 'USDT', sourceAmount: undefined, targetAmount: '18.5' });
    expect(q.targetAmount.value).toBe('18.500000');
    expect(q.sourceAmount.value).toBe('100.00');
  });

  it('rejects a quote with both amounts, or neither', async () => {
    await api
      .post('/v1/quotes', { accountId: funded.id, sourceAsset: 'BRL', targetAsset: 'USDT', sourceAmount: '1', targetAmount: '1' })
      .expect(400);
    await api.post('/v1/quotes', { accountId: funded.id, sourceAsset: 'BRL', targetAsset: 'USDT' }).expect(400);
  });

  it('rejects amounts beyond the asset scale, zero, and numbers where decimal strings belong', async () => {
    for (const sourceAmount of ['1.001', '0', 10]) {
      const res = await api.post('/v1/quotes', { accountId: funded.id, sourceAsset: 'BRL', targetAsset: 'USDT', sourceAmount }).expect(400);
      expect(res.body.details.fields[0].field).toBe('body.sourceAmount');
    }
  });

  it('answers a quote for another customer’s account with 404', async () => {
    await api
      .post('/v1/quotes', { accountId: d.funded(d.c2.id).id, sourceAsset: 'BRL', targetAsset: 'BRL', sourceAmount: '1.00' })
      .expect(404);
  });

  it('reads a quote back; another customer gets 404', async () => {
    const q = await quote();
    expect((await api.get(`/v1/quotes/${q.id}`).expect(200)).body).toEqual(q);
    await (await h.as('customer2')).get(`/v1/quotes/${q.id}`).expect(404);
  });

  it('shows EXPIRED once 30 s of mock time have passed', async () => {
    const q = await quote();
    h.mock.deps.clock.advance(30_000);
    expect((await api.get(`/v1/quotes/${q.id}`).expect(200)).body.status).toBe('EXPIRED');
  });
});

describe('deposits', () => {
  it('creates a REQUESTED deposit with a valid PIX BR Code and consumes the quote', async () => {
    const q = await quote();
    const res = await api
      .post('/v1/operations/deposits', { accountId: funded.id, quoteId: q.id, fundingInstruction: { rail: 'PIX' } })
      .expect(201);
    const op = res.body;
    expect(op).toMatchObject({
      accountId: funded.id,
      currentState: { status: 'REQUESTED' },
      intent: { type: 'DEPOSIT' },
      quote: { id: q.id },
      transactions: [],
    });
    expect(isValidBrCode(op.intent.fundingInstruction.payload)).toBe(true);
    expect((await api.get(`/v1/quotes/${q.id}`).expect(200)).body).toMatchObject({ status: 'CONSUMED', operationId: op.id });
    expect((await api.get(`/v1/operations/${op.id}`).expect(200)).body).toEqual(op);
  });

  it('a quote used twice is rejected with QUOTE_ALREADY_CONSUMED', async () => {
    const q = await quote();
    const body = { accountId: funded.id, quoteId: q.id, fundingInstruction: { rail: 'PIX' } };
    await api.post('/v1/operations/deposits', body).expect(201);
    expect((await api.post('/v1/operations/deposits', body).expect(409)).body.code).toBe('QUOTE_ALREADY_CONSUMED');
  });

  it('of 20 concurrent deposits naming one quote, exactly one wins', async () => {
    const q = await quote();
    const body = { accountId: funded.id, quoteId: q.id, fundingInstruction: { rail: 'PIX' } };
    const results = await Promise.all(Array.from({ length: 20 }, () => api.post('/v1/operations/deposits', body)));
    const statuses = results.map((r) => r.status).sort();
    expect(statuses.filter((s) => s === 201)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(19);
  });

  it('an expired quote is rejected with 422 QUOTE_EXPIRED', async () => {
    const q = await quote();
    h.mock.deps.clock.advance(30_001);
    const res = await api
      .post('/v1/operations/deposits', { accountId: funded.id, quoteId: q.id, fundingInstruction: { rail: 'PIX' } })
      .expect(422);
    expect(res.body.code).toBe('QUOTE_EXPIRED');
  });

  it('a quote of another account is rejected with 422 QUOTE_ACCOUNT_MISMATCH', async () => {
    const q = await quote();
    const other = d.accountsOf(d.c1.id).find((a) => a.id !== funded.id)!;
    const res = await api
      .post('/v1/operations/deposits', { accountId: other.id, quoteId: q.id, fundingInstruction: { rail: 'PIX' } })
      .expect(422);
    expect(res.body.code).toBe('QUOTE_ACCOUNT_MISMATCH');
  });

  it('an unknown quote, or another customer’s, is 422 QUOTE_NOT_FOUND', async () => {
    const theirs = await (
      await h.as('customer2')
    )
      .post('/v1/quotes', { accountId: d.funded(d.c2.id).id, sourceAsset: 'BRL', targetAsset: 'BRL', sourceAmount: '1.00' })
      .expect(201);
    for (const quoteId of [randomUUID(), theirs.body.id]) {
      const res = await api
        .post('/v1/operations/deposits', { accountId: funded.id, quoteId, fundingInstruction: { rail: 'PIX' } })
        .expect(422);
      expect(res.body.code).toBe('QUOTE_NOT_FOUND');
    }
  });

  it('settling credits the account and records one confirmed PIX transaction', async () => {
    const before = await balance(funded.id, 'USDT');
    const q = await quote({ targetAsset: 'USDT' });
    const op = (
      await api.post('/v1/operations/deposits', { accountId: funded.id, quoteId: q.id, fundingInstruction: { rail: 'PIX' } }).expect(201)
    ).body;
    await h.mock.services.operations.settle(d.c1.id, op.id);
    const settled = (await api.get(`/v1/operations/${op.id}`).expect(200)).body;
    expect(settled.currentState.status).toBe('COMPLETED');
    expect(settled.transactions).toEqual([
      expect.objectContaining({ rail: 'PIX', direction: 'CREDIT', status: 'CONFIRMED', amount: q.sourceAmount }),
    ]);
    expect(Number(await balance(funded.id, 'USDT')) - Number(before)).toBeCloseTo(18.5, 6);
  });

  it('stamps the account’s propagating tags on the operation', async () => {
    const tagged = d.accountsOf(d.c1.id).find((a) => a.tags.some((t) => t.propagates))!;
    const q = (
      await api.post('/v1/quotes', { accountId: tagged.id, sourceAsset: 'BRL', targetAsset: 'BRL', sourceAmount: '1.00' }).expect(201)
    ).body;
    const op = (
      await api.post('/v1/operations/deposits', { accountId: tagged.id, quoteId: q.id, fundingInstruction: { rail: 'PIX' } }).expect(201)
    ).body;
    const expected = tagged.tags.filter((t) => t.propagates).map((t) => ({ key: t.key, value: t.value }));
    expect(op.tags).toEqual(expected);
  });
});

describe('withdrawals', () => {
  const beneficiary = d.beneficiaryOf(d.c1.id);

  it('pays a saved beneficiary and debits the account when settled', async () => {
    const before = await balance(funded.id, 'BRL');
    const q = await quote({ sourceAmount: '10.00' });
    const op = (
      await api
        .post('/v1/operations/withdrawals', { accountId: funded.id, quoteId: q.id, beneficiary: { mode: 'REFERENCE', id: beneficiary.id } })
        .expect(201)
    ).body;
    expect(op.intent).toMatchObject({ type: 'WITHDRAWAL', beneficiary: { id: beneficiary.id } });
    const done = await h.mock.services.operations.settle(d.c1.id, op.id);
    expect(done.currentState.status).toBe('COMPLETED');
    expect(done.transactions).toEqual([expect.objectContaining({ rail: 'PIX', direction: 'DEBIT' })]);
    expect((Number(before) - Number(await balance(funded.id, 'BRL'))).toFixed(2)).toBe('10.00');
  });

  it('an unknown or foreign beneficiary is 404', async () => {
    const q = await quote();
    for (const id of [randomUUID(), d.beneficiaryOf(d.c2.id).id]) {
      const res = await api
        .post('/v1/operations/withdrawals', { accountId: funded.id, quoteId: q.id, beneficiary: { mode: 'REFERENCE', id } })
        .expect(404);
      expect(res.body.code).toBe('RESOURCE_NOT_FOUND');
    }
    // The quote was not consumed by the refused requests.
    expect((await api.get(`/v1/quotes/${q.id}`).expect(200)).body.status).toBe('OPEN');
  });

  it('a withdrawal short of funds goes FAILED with INSUFFICIENT_BALANCE and moves nothing', async () => {
    const poor = d.accountsOf(d.c1.id).find((a) => d.balance(a.id, 'BRL') === '0.00')!;
    const q = (
      await api.post('/v1/quotes', { accountId: poor.id, sourceAsset: 'BRL', targetAsset: 'BRL', sourceAmount: '5.00' }).expect(201)
    ).body;
    const op = (
      await api
        .post('/v1/operations/withdrawals', { accountId: poor.id, quoteId: q.id, beneficiary: { mode: 'REFERENCE', id: beneficiary.id } })
        .expect(201)
    ).body;
    const failed = await h.mock.services.operations.settle(d.c1.id, op.id);
    expect(failed.currentState).toMatchObject({ status: 'FAILED', reason: { code: 'INSUFFICIENT_BALANCE' } });
    expect(failed.transactions).toEqual([]);
    expect(await balance(poor.id, 'BRL')).toBe('0');
  });
});

describe('swaps and transfers', () => {
  it('a swap debits the source asset and credits the target asset', async () => {
    const brl = Number(await balance(funded.id, 'BRL'));
    const usdt = Number(await balance(funded.id, 'USDT'));
    const q = await quote({ sourceAsset: 'USDT', targetAsset: 'BRL', sourceAmount: '10.000000' });
    const op = (await api.post('/v1/operations/swaps', { accountId: funded.id, quoteId: q.id }).expect(201)).body;
    expect(op.intent).toEqual({ type: 'SWAP' });
    await h.mock.services.operations.settle(d.c1.id, op.id);
    expect(Number(await balance(funded.id, 'USDT'))).toBeCloseTo(usdt - 10, 6);
    expect(Number(await balance(funded.id, 'BRL'))).toBeCloseTo(brl + 54, 2);
  });

  it('a swap needs two different assets', async () => {
    const q = await quote();
    expect((await api.post('/v1/operations/swaps', { accountId: funded.id, quoteId: q.id }).expect(400)).body.code).toBe(
      'VALIDATION_ERROR',
    );
  });

  it('a transfer makes its own 1:1 quote and names the target account’s owner', async () => {
    const target = d.accountsOf(d.c1.id).find((a) => a.id !== funded.id)!;
    const before = await balance(target.id, 'BRL');
    const op = (
      await api
        .post('/v1/operations/transfers', { accountId: funded.id, targetAccountId: target.id, asset: 'BRL', amount: '7.50' })
        .expect(201)
    ).body;
    expect(op.intent).toEqual({ type: 'TRANSFER', targetAccount: { id: target.id, owner: expect.any(String) } });
    expect(op.quote.rate).toBe('1');
    expect(op.sourceAmount).toEqual({ value: '7.50', asset: 'BRL', decimals: 2 });
    await h.mock.services.operations.settle(d.c1.id, op.id);
    expect((Number(await balance(target.id, 'BRL')) - Number(before)).toFixed(2)).toBe('7.50');
  });

  it('a transfer to another customer’s account is 404, to itself 400', async () => {
    await api
      .post('/v1/operations/transfers', { accountId: funded.id, targetAccountId: d.funded(d.c2.id).id, asset: 'BRL', amount: '1.00' })
      .expect(404);
    await api
      .post('/v1/operations/transfers', { accountId: funded.id, targetAccountId: funded.id, asset: 'BRL', amount: '1.00' })
      .expect(400);
  });
});

describe('listing and reading operations', () => {
  it('lists the customer’s operations newest first and hides them from other customers', async () => {
    const q = await quote();
    const op = (
      await api.post('/v1/operations/deposits', { accountId: funded.id, quoteId: q.id, fundingInstruction: { rail: 'PIX' } }).expect(201)
    ).body;
    const page = (await api.get('/v1/operations?limit=1').expect(200)).body;
    expect(page.data[0].id).toBe(op.id);
    expect(page.meta.nextCursor).not.toBeNull();
    const theirs = (await (await h.as('customer2')).get('/v1/operations?limit=100').expect(200)).body;
    expect(theirs.data.map((o: { id: string }) => o.id)).not.toContain(op.id);
    await (await h.as('customer2')).get(`/v1/operations/${op.id}`).expect(404);
  });
});

describe('auto-settlement', () => {
  it('settles a REQUESTED operation when the mock clock passes the auto-settle delay', async () => {
    const mock = await startMock({ config: { autoSettleMs: 5_000 } });
    try {
      const me = await mock.as();
      const q = (
        await me.post('/v1/quotes', { accountId: funded.id, sourceAsset: 'BRL', targetAsset: 'BRL', sourceAmount: '1.00' }).expect(201)
      ).body;
      const op = (
        await me.post('/v1/operations/deposits', { accountId: funded.id, quoteId: q.id, fundingInstruction: { rail: 'PIX' } }).expect(201)
      ).body;
      mock.mock.deps.clock.advance(4_999);
      await mock.mock.deps.scheduler.idle();
      expect((await me.get(`/v1/operations/${op.id}`).expect(200)).body.currentState.status).toBe('REQUESTED');
      mock.mock.deps.clock.advance(1);
      await mock.mock.deps.scheduler.idle();
      expect((await me.get(`/v1/operations/${op.id}`).expect(200)).body.currentState.status).toBe('COMPLETED');
    } finally {
      await mock.close();
    }
  });
});

describe('idempotency over HTTP', () => {
  it('replays the first answer for the same key and request, with X-Idempotent-Replayed', async () => {
    const key = randomUUID();
    const body = { accountId: funded.id, sourceAsset: 'BRL', targetAsset: 'USDT', sourceAmount: '3.00' };
    const first = await api.post('/v1/quotes', body, key).expect(201);
    const again = await api.post('/v1/quotes', body, key).expect(201);
    expect(again.body).toEqual(first.body);
    expect(again.headers['x-idempotent-replayed']).toBe('true');
    expect(first.headers['x-idempotent-replayed']).toBeUndefined();
  });

  it('the same key with another body is 422 IDEMPOTENCY_KEY_REUSED', async () => {
    const key = randomUUID();
    await api.post('/v1/quotes', { accountId: funded.id, sourceAsset: 'BRL', targetAsset: 'USDT', sourceAmount: '3.00' }, key).expect(201);
    const res = await api
      .post('/v1/quotes', { accountId: funded.id, sourceAsset: 'BRL', targetAsset: 'USDT', sourceAmount: '4.00' }, key)
      .expect(422);
    expect(res.body.code).toBe('IDEMPOTENCY_KEY_REUSED');
  });

  it('a request that failed validation does not burn its key', async () => {
    const key = randomUUID();
    await api.post('/v1/quotes', { accountId: funded.id, sourceAsset: 'BRL', targetAsset: 'USDT', sourceAmount: 'lots' }, key).expect(400);
    await api.post('/v1/quotes', { accountId: funded.id, sourceAsset: 'BRL', targetAsset: 'USDT', sourceAmount: '4.00' }, key).expect(201);
  });

  it('keys are scoped per customer', async () => {
    const key = randomUUID();
    await api.post('/v1/quotes', { accountId: funded.id, sourceAsset: 'BRL', targetAsset: 'BRL', sourceAmount: '1.00' }, key).expect(201);
    const other = await h.as('customer2');
    const res = await other
      .post('/v1/quotes', { accountId: d.funded(d.c2.id).id, sourceAsset: 'BRL', targetAsset: 'BRL', sourceAmount: '1.00' }, key)
      .expect(201);
    expect(res.headers['x-idempotent-replayed']).toBeUndefined();
  });

  it('a key that is not a uuid is a validation error naming the header', async () => {
    const res = await api
      .post('/v1/quotes', { accountId: funded.id, sourceAsset: 'BRL', targetAsset: 'BRL', sourceAmount: '1.00' }, 'not-a-uuid')
      .expect(400);
    expect(res.body.details.fields[0].field).toBe('header.x-idempotency-key');
  });
});
