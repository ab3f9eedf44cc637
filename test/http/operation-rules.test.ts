// The rules of creating operations a client reads in the answers: which field a refusal names,
// which payment instruction a withdrawal pays, the PIX charge's merchant, the owner a transfer
// names, and the assets an account may move. Run on the demo data plus a few records of our own
// (an individual's account in a city a BR Code cannot spell and only BRL, a beneficiary with several
// instructions), each valid against the document as the mock checks fixtures (fixture-checks.ts).
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { parseDepositBrCode, normaliseBrCodeText, MERCHANT_CITY_MAX } from '../../mock/domain/pix';
import type { DemoFixtures } from '../../fixtures/types';
import { demoFixtures, startMock, type Authed, type Harness } from './harness';
import { demo } from './fixture-ids';

const d = demo();
const funded = d.funded(d.c1.id);
const beneficiary = d.beneficiaryOf(d.c1.id);

// Our own records, added to the demo data.
const individualId = randomUUID();
const pickyId = randomUUID();
const noStatusId = randomUUID();
const usdtInstruction = randomUUID();
const rejectedBrl = randomUUID();
const createdBrl = randomUUID();
const unstatedBrl = randomUUID();

function world(): DemoFixtures {
  const f = structuredClone(demoFixtures());
  const template = f.accounts.find((a) => a.id === funded.id)!;
  f.accounts.push({
    ...structuredClone(template),
    id: individualId,
    owner: {
      type: 'INDIVIDUAL',
      firstName: 'Ana',
      lastName: 'Costa',
      taxId: structuredClone(template.owner.taxId),
      // No letter a BR Code carries (A-Z, 0-9) is left of it once normalised.
      address: { ...structuredClone(template.owner.address), city: '東京' },
    },
    assets: template.assets.filter((a) => a.currency === 'BRL'),
    tags: [],
  });
  f.balances.push({ accountId: individualId, asset: 'BRL', value: '100.00' });
  const base = f.beneficiaries.find((b) => b.id === beneficiary.id)!;
  const instruction = base.paymentInstructions[0]!;
  const at = instruction.currentState.createdAt;
  f.beneficiaries.push(
    {
      ...structuredClone(base),
      id: pickyId,
      paymentInstructions: [
        { ...structuredClone(instruction), id: usdtInstruction, asset: 'USDT', currentState: { status: 'APPROVED', createdAt: at } },
        { ...structuredClone(instruction), id: rejectedBrl, asset: 'BRL', currentState: { status: 'REJECTED', createdAt: at } },
        { ...structuredClone(instruction), id: createdBrl, asset: 'BRL', currentState: { status: 'CREATED', createdAt: at } },
      ],
    },
    {
      ...structuredClone(base),
      id: noStatusId,
      paymentInstructions: [{ ...structuredClone(instruction), id: unstatedBrl, asset: 'BRL', currentState: { createdAt: at } }],
    },
  );
  return f;
}

let h: Harness;
let api: Authed;

beforeAll(async () => {
  h = await startMock({ fixtures: world() });
  api = await h.as();
});
afterAll(() => h?.close());

async function quote(accountId: string, sourceAsset = 'BRL', targetAsset = 'BRL', sourceAmount = '10.00') {
  return (await api.post('/v1/quotes', { accountId, sourceAsset, targetAsset, sourceAmount }).expect(201)).body;
}

function notFound(resource: string, id: string, field: string) {
  return { code: 'RESOURCE_NOT_FOUND', message: `No ${resource} with id ${id}.`, details: { resource, id, field } };
}

function invalid(field: string, message: string) {
  return { code: 'VALIDATION_ERROR', message: 'The request does not match the API document.', details: { fields: [{ field, message }] } };
}

describe('an unknown account or beneficiary is 404 naming the request field', () => {
  it('a deposit, withdrawal or swap on an unknown account names accountId', async () => {
    const unknown = randomUUID();
    const q = await quote(funded.id);
    const bodies: Array<[string, object]> = [
      ['deposits', { accountId: unknown, quoteId: q.id, fundingInstruction: { rail: 'PIX' } }],
      ['withdrawals', { accountId: unknown, quoteId: q.id, beneficiary: { mode: 'REFERENCE', id: beneficiary.id } }],
      ['swaps', { accountId: unknown, quoteId: q.id }],
      ['transfers', { accountId: unknown, targetAccountId: funded.id, asset: 'BRL', amount: '1.00' }],
    ];
    for (const [kind, body] of bodies) {
      expect((await api.post(`/v1/operations/${kind}`, body).expect(404)).body).toEqual(notFound('account', unknown, 'accountId'));
    }
  });

  it('a withdrawal to an unknown beneficiary names beneficiary.id', async () => {
    const q = await quote(funded.id);
    const unknown = randomUUID();
    const res = await api
      .post('/v1/operations/withdrawals', { accountId: funded.id, quoteId: q.id, beneficiary: { mode: 'REFERENCE', id: unknown } })
      .expect(404);
    expect(res.body).toEqual(notFound('beneficiary', unknown, 'beneficiary.id'));
  });

  it('a transfer to an unknown account names targetAccountId', async () => {
    const unknown = randomUUID();
    const res = await api
      .post('/v1/operations/transfers', { accountId: funded.id, targetAccountId: unknown, asset: 'BRL', amount: '1.00' })
      .expect(404);
    expect(res.body).toEqual(notFound('account', unknown, 'targetAccountId'));
  });
});

describe('a deposit’s PIX charge', () => {
  it('names the account owner’s city as the merchant city, and SAO PAULO when nothing of the city can be written', async () => {
    const withCity = (
      await api
        .post('/v1/operations/deposits', {
          accountId: funded.id,
          quoteId: (await quote(funded.id)).id,
          fundingInstruction: { rail: 'PIX' },
        })
        .expect(201)
    ).body;
    const city = normaliseBrCodeText(funded.owner.address.city, MERCHANT_CITY_MAX);
    expect(city).not.toBe('SAO PAULO');
    expect(parseDepositBrCode(withCity.intent.fundingInstruction.payload)?.merchantCity).toBe(city);

    const unwritableCity = (
      await api
        .post('/v1/operations/deposits', {
          accountId: individualId,
          quoteId: (await quote(individualId)).id,
          fundingInstruction: { rail: 'PIX' },
        })
        .expect(201)
    ).body;
    expect(parseDepositBrCode(unwritableCity.intent.fundingInstruction.payload)).toMatchObject({
      merchantName: 'ANA COSTA',
      merchantCity: 'SAO PAULO',
    });
  });

  it('can be paid for one hour of mock time', async () => {
    const op = (
      await api
        .post('/v1/operations/deposits', {
          accountId: funded.id,
          quoteId: (await quote(funded.id)).id,
          fundingInstruction: { rail: 'PIX' },
        })
        .expect(201)
    ).body;
    expect(Date.parse(op.intent.fundingInstruction.expiresAt) - Date.parse(op.createdAt)).toBe(60 * 60 * 1000);
  });
});

describe('a withdrawal pays a usable instruction of the asset the quote buys', () => {
  async function withdraw(beneficiaryId: string, targetAsset = 'BRL') {
    const q = await quote(funded.id, 'BRL', targetAsset);
    return await api
      .post('/v1/operations/withdrawals', { accountId: funded.id, quoteId: q.id, beneficiary: { mode: 'REFERENCE', id: beneficiaryId } })
      .expect(201);
  }

  it('skips instructions of another asset and REJECTED ones; a CREATED one is usable', async () => {
    const op = (await withdraw(pickyId)).body;
    expect(op.intent).toEqual({ type: 'WITHDRAWAL', beneficiary: { id: pickyId, paymentInstructionId: createdBrl } });
    const usdt = (await withdraw(pickyId, 'USDT')).body;
    expect(usdt.intent.beneficiary.paymentInstructionId).toBe(usdtInstruction);
  });

  it('an instruction with no stated status counts as approved', async () => {
    const op = (await withdraw(noStatusId)).body;
    expect(op.intent.beneficiary.paymentInstructionId).toBe(unstatedBrl);
  });

  it('a beneficiary with no instruction for the target asset is 400 naming beneficiary.id, and the quote stays open', async () => {
    const q = await quote(funded.id, 'BRL', 'USDT');
    const res = await api
      .post('/v1/operations/withdrawals', { accountId: funded.id, quoteId: q.id, beneficiary: { mode: 'REFERENCE', id: beneficiary.id } })
      .expect(400);
    expect(res.body).toEqual(invalid('body.beneficiary.id', 'beneficiary has no usable USDT payment instruction'));
    expect((await api.get(`/v1/quotes/${q.id}`).expect(200)).body.status).toBe('OPEN');
  });
});

describe('swaps and transfers', () => {
  it('a swap on a same-asset quote is 400 naming quoteId', async () => {
    const q = await quote(funded.id);
    const res = await api.post('/v1/operations/swaps', { accountId: funded.id, quoteId: q.id }).expect(400);
    expect(res.body).toEqual(invalid('body.quoteId', 'a swap needs a quote between two different assets'));
  });

  it('a transfer to the same account is 400 naming targetAccountId', async () => {
    const res = await api
      .post('/v1/operations/transfers', { accountId: funded.id, targetAccountId: funded.id, asset: 'BRL', amount: '1.00' })
      .expect(400);
    expect(res.body).toEqual(invalid('body.targetAccountId', 'must differ from accountId'));
  });

  it('a transfer names the target’s owner: a company’s legal name, an individual’s first and last name', async () => {
    const toPerson = (
      await api
        .post('/v1/operations/transfers', { accountId: funded.id, targetAccountId: individualId, asset: 'BRL', amount: '1.00' })
        .expect(201)
    ).body;
    expect(toPerson.intent).toEqual({ type: 'TRANSFER', targetAccount: { id: individualId, owner: 'Ana Costa' } });
    const toCompany = (
      await api
        .post('/v1/operations/transfers', { accountId: individualId, targetAccountId: funded.id, asset: 'BRL', amount: '1.00' })
        .expect(201)
    ).body;
    expect(toCompany.intent.targetAccount.owner).toBe((funded.owner as { legalName: string }).legalName);
  });

  it('both accounts of a transfer must have the asset enabled', async () => {
    const from = await api
      .post('/v1/operations/transfers', { accountId: individualId, targetAccountId: funded.id, asset: 'USDT', amount: '1.000000' })
      .expect(400);
    expect(from.body).toEqual(invalid('body', `account ${individualId} has no USDT asset`));
    const to = await api
      .post('/v1/operations/transfers', { accountId: funded.id, targetAccountId: individualId, asset: 'USDT', amount: '1.000000' })
      .expect(400);
    expect(to.body).toEqual(invalid('body', `account ${individualId} has no USDT asset`));
  });

  it('a transfer amount must be above zero and within the asset’s decimal places', async () => {
    const transfer = (amount: string) =>
      api.post('/v1/operations/transfers', { accountId: funded.id, targetAccountId: individualId, asset: 'BRL', amount }).expect(400);
    expect((await transfer('0.00')).body).toEqual(invalid('body.amount', 'must be greater than zero'));
    expect((await transfer('1.001')).body).toEqual(invalid('body.amount', 'has more than 2 decimal places'));
  });
});

describe('settling', () => {
  it('a short balance fails the operation with INSUFFICIENT_BALANCE naming the asset and the balance', async () => {
    const q = await quote(individualId, 'BRL', 'BRL', '150.00');
    const op = (
      await api
        .post('/v1/operations/withdrawals', {
          accountId: individualId,
          quoteId: q.id,
          beneficiary: { mode: 'REFERENCE', id: beneficiary.id },
        })
        .expect(201)
    ).body;
    const failed = await h.mock.services.operations.settle(d.c1.id, op.id);
    expect(failed.currentState.reason).toEqual({
      code: 'INSUFFICIENT_BALANCE',
      message: 'The BRL balance is too low for this operation.',
      details: { asset: 'BRL', balance: '100.00' },
    });
  });

  it('a finished operation cannot be settled or failed again: INVALID_STATE_TRANSITION naming both states', async () => {
    const q = await quote(funded.id);
    const op = (
      await api.post('/v1/operations/deposits', { accountId: funded.id, quoteId: q.id, fundingInstruction: { rail: 'PIX' } }).expect(201)
    ).body;
    await h.mock.services.operations.settle(d.c1.id, op.id);
    await expect(h.mock.services.operations.settle(d.c1.id, op.id)).rejects.toMatchObject({
      code: 'INVALID_STATE_TRANSITION',
      details: { from: 'COMPLETED', to: 'COMPLETED' },
      message: 'An operation in COMPLETED cannot become COMPLETED.',
    });
  });

  it('a withdrawal forced short (666.66) that is already finished cannot fail again', async () => {
    const q = await quote(funded.id, 'BRL', 'BRL', '666.66');
    const op = (
      await api
        .post('/v1/operations/withdrawals', { accountId: funded.id, quoteId: q.id, beneficiary: { mode: 'REFERENCE', id: beneficiary.id } })
        .expect(201)
    ).body;
    const failed = await h.mock.services.operations.settle(d.c1.id, op.id);
    expect(failed.currentState).toMatchObject({ status: 'FAILED', reason: { code: 'INSUFFICIENT_BALANCE' } });
    await expect(h.mock.services.operations.settle(d.c1.id, op.id)).rejects.toMatchObject({
      code: 'INVALID_STATE_TRANSITION',
      details: { from: 'FAILED', to: 'COMPLETED' },
    });
  });

  it('an operation that vanished while being settled is RESOURCE_NOT_FOUND', async () => {
    const q = await quote(funded.id);
    const op = (
      await api.post('/v1/operations/deposits', { accountId: funded.id, quoteId: q.id, fundingInstruction: { rail: 'PIX' } }).expect(201)
    ).body;
    const store = h.mock.deps.store;
    const original = store.updateWithBalances.bind(store);
    store.updateWithBalances = () => Promise.resolve(undefined);
    try {
      await expect(h.mock.services.operations.settle(d.c1.id, op.id)).rejects.toMatchObject({
        code: 'RESOURCE_NOT_FOUND',
        details: { resource: 'operation', id: op.id },
      });
    } finally {
      store.updateWithBalances = original;
    }
  });
});

describe('a transfer’s own quote', () => {
  it('is a 1:1 quote of its own, marked internal and consumed by the transfer', async () => {
    const op = (
      await api
        .post('/v1/operations/transfers', { accountId: funded.id, targetAccountId: individualId, asset: 'BRL', amount: '2.00' })
        .expect(201)
    ).body;
    const record = await h.mock.deps.store.get('quote', op.quote.id);
    expect(record).toMatchObject({ internal: true, operationId: op.id, sourceAsset: 'BRL', targetAsset: 'BRL', rate: '1' });
  });
});

describe('quotes', () => {
  it('a quote on an unknown account is 404 naming accountId', async () => {
    const unknown = randomUUID();
    const res = await api
      .post('/v1/quotes', { accountId: unknown, sourceAsset: 'BRL', targetAsset: 'BRL', sourceAmount: '1.00' })
      .expect(404);
    expect(res.body).toEqual(notFound('account', unknown, 'accountId'));
  });

  it('an account quotes only the assets it has enabled, source or target', async () => {
    for (const [sourceAsset, targetAsset] of [
      ['BRL', 'USDT'],
      ['USDT', 'BRL'],
    ]) {
      const res = await api.post('/v1/quotes', { accountId: individualId, sourceAsset, targetAsset, sourceAmount: '1.00' }).expect(400);
      expect(res.body).toEqual(invalid('body', `account ${individualId} has no USDT asset`));
    }
    await api.post('/v1/quotes', { accountId: individualId, sourceAsset: 'BRL', targetAsset: 'BRL', sourceAmount: '1.00' }).expect(201);
  });

  it('reading an unknown quote is 404 naming the quote', async () => {
    const unknown = randomUUID();
    expect((await api.get(`/v1/quotes/${unknown}`).expect(404)).body).toEqual({
      code: 'RESOURCE_NOT_FOUND',
      message: `No quote with id ${unknown}.`,
      details: { resource: 'quote', id: unknown },
    });
  });
});

describe('the operation timeline', () => {
  it('keeps every state the operation entered, with the reason of a failure', async () => {
    const q = await quote(individualId, 'BRL', 'BRL', '500.00');
    const op = (
      await api
        .post('/v1/operations/withdrawals', {
          accountId: individualId,
          quoteId: q.id,
          beneficiary: { mode: 'REFERENCE', id: beneficiary.id },
        })
        .expect(201)
    ).body;
    const failed = await h.mock.services.operations.settle(d.c1.id, op.id);
    expect(await h.mock.deps.store.get('timeline', op.id)).toEqual({
      id: op.id,
      entries: [
        { eventType: 'OPERATION_REQUESTED', at: op.createdAt, status: 'REQUESTED' },
        { eventType: 'OPERATION_FAILED', at: failed.currentState.createdAt, status: 'FAILED', reason: failed.currentState.reason },
      ],
    });
  });
});

describe('the demo data as loaded', () => {
  it('an account with no review state in the fixtures is NOT_SUBMITTED', async () => {
    expect((await h.mock.deps.store.get('account', individualId))?.review).toBe('NOT_SUBMITTED');
  });

  it('customers and their API clients are kept in the store’s shared scope', async () => {
    const customers = await h.mock.deps.store.page('customer', { scope: 'all', limit: 10, order: 'ASCENDING' });
    expect(customers.items.map(({ record }) => record.id)).toEqual([d.c1.id, d.c2.id]);
    const clients = await h.mock.deps.store.page('client', { scope: 'all', limit: 10, order: 'ASCENDING' });
    expect(clients.items.map(({ record }) => record)).toEqual([
      { clientId: 'demo-client', clientSecret: 'demo-secret', customerId: d.c1.id },
      { clientId: 'demo-client-2', clientSecret: 'demo-secret-2', customerId: d.c2.id },
    ]);
  });
});
