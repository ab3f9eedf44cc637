// Every operation kind created and its record: deposits, withdrawals, swaps and transfers are
// REQUESTED on creation with the document's shape, read back alike and listed; their refusals;
// with the control API, settlement and its balance moves, and INSUFFICIENT_BALANCE.
import { randomUUID } from 'node:crypto';
import { expect, it } from '@jest/globals';
import Decimal from 'decimal.js';
import { describeWhen, itWhen } from './support/capabilities';
import { ControlError } from './support/control';
import { expectCreatedIn, expectTransition } from './support/lifecycle';
import { without } from './support/json';
import { allPages, findAccounts, findBeneficiary, type Accounts } from './support/preconditions';
import { beforeAllWhen, useSession } from './support/session';
import type { Beneficiary, Operation, Quote } from './support/types';

const session = useSession();
let accounts: Accounts;
let beneficiary: Beneficiary;

beforeAllWhen(['stateful'], async () => {
  accounts = await findAccounts(session());
  const found = await findBeneficiary(session().api);
  if (!found) throw new Error('contract suite: the customer needs a saved beneficiary with a BRL payment instruction');
  beneficiary = found;
});

async function quote(body: Record<string, unknown> = {}): Promise<Quote> {
  const res = await session().api.post<Quote>('/v1/quotes', {
    accountId: accounts.funded.id,
    sourceAsset: 'BRL',
    targetAsset: 'BRL',
    sourceAmount: '2.00',
    ...body,
  });
  expect(res.status).toBe(201);
  return res.body;
}

const create = {
  deposit: (q: Quote, extra: Record<string, unknown> = {}) =>
    session().api.post<Operation>('/v1/operations/deposits', {
      accountId: q.accountId,
      quoteId: q.id,
      fundingInstruction: { rail: 'PIX' },
      ...extra,
    }),
  withdrawal: (q: Quote, beneficiaryId = beneficiary.id) =>
    session().api.post<Operation>('/v1/operations/withdrawals', {
      accountId: q.accountId,
      quoteId: q.id,
      beneficiary: { mode: 'REFERENCE', id: beneficiaryId },
    }),
  swap: (q: Quote, accountId = q.accountId) => session().api.post<Operation>('/v1/operations/swaps', { accountId, quoteId: q.id }),
  transfer: (amount = '0.50', target = accounts.other.id, source = accounts.funded.id) =>
    session().api.post<Operation>('/v1/operations/transfers', { accountId: source, targetAccountId: target, asset: 'BRL', amount }),
};

/** The record read back: the same operation, whatever state it has reached since. */
async function expectReadBack(op: Operation): Promise<Operation> {
  const res = await session().api.get<Operation>(`/v1/operations/${op.id}`);
  expect(res.status).toBe(200);
  expect(res.body).toMatchObject(without(op, 'currentState', 'updatedAt', 'transactions'));
  return res.body;
}

function expectRequested(op: Operation, q: Quote | undefined, type: string) {
  expectCreatedIn('operation', op.currentState.status);
  expect(op.currentState.status).toBe('REQUESTED');
  expect(op.intent.type).toBe(type);
  expect(op.accountId).toBe(q?.accountId ?? accounts.funded.id);
  if (q) {
    expect(op.quote).toMatchObject({ id: q.id });
    expect(op.sourceAmount).toEqual(q.sourceAmount);
    expect(op.targetAmount).toEqual(q.targetAmount);
  }
  expect(op.transactions).toEqual([]);
}

describeWhen(['writes', 'stateful'], 'creating each kind', () => {
  const created: Operation[] = [];

  it(
    'When a deposit names an open quote, ' +
      'then it is REQUESTED with a PIX funding instruction and consumes the quote [OP-REQUESTED, OP-DEPOSIT-FUNDING, QUOTE-CONSUMED-ONCE]',
    async () => {
      const q = await quote({ targetAsset: 'USDT' });
      const res = await create.deposit(q);
      expect(res.status).toBe(201);
      expectRequested(res.body, q, 'DEPOSIT');
      const intent = res.body.intent as { fundingInstruction: { rail: string; payload: string } };
      expect(intent.fundingInstruction.rail).toBe('PIX');
      expect(typeof intent.fundingInstruction.payload).toBe('string');
      expect((await session().api.get<Quote>(`/v1/quotes/${q.id}`)).body).toMatchObject({ status: 'CONSUMED', operationId: res.body.id });
      await expectReadBack(res.body);
      created.push(res.body);
    },
  );

  it('When a deposit names a payer, then the operation carries it [OP-DEPOSIT-PAYER]', async () => {
    const payer = { name: 'Pagador Terceiro Ltda', taxId: { value: '11222333000181', type: 'CNPJ' } };
    const res = await create.deposit(await quote(), { payer });
    expect(res.status).toBe(201);
    expect(res.body.intent).toMatchObject({ type: 'DEPOSIT', payer });
    created.push(res.body);
  });

  it('When a withdrawal names a saved beneficiary, then it is REQUESTED and names that beneficiary [OP-REQUESTED]', async () => {
    const q = await quote();
    const res = await create.withdrawal(q);
    expect(res.status).toBe(201);
    expectRequested(res.body, q, 'WITHDRAWAL');
    expect(res.body.intent).toMatchObject({ beneficiary: { id: beneficiary.id } });
    await expectReadBack(res.body);
    created.push(res.body);
  });

  it('When a swap names a quote between two assets, then it is REQUESTED [OP-REQUESTED]', async () => {
    const q = await quote({ sourceAsset: 'BRL', targetAsset: 'USDT' });
    const res = await create.swap(q);
    expect(res.status).toBe(201);
    expectRequested(res.body, q, 'SWAP');
    await expectReadBack(res.body);
    created.push(res.body);
  });

  it(
    'When a transfer moves BRL to another own account, ' +
      'then it is REQUESTED with its own 1:1 quote and names the target [OP-REQUESTED, OP-TRANSFER-QUOTE]',
    async () => {
      const res = await create.transfer('0.50');
      expect(res.status).toBe(201);
      expectRequested(res.body, undefined, 'TRANSFER');
      expect(res.body.intent).toMatchObject({ type: 'TRANSFER', targetAccount: { id: accounts.other.id } });
      expect(res.body.quote).not.toBeNull();
      expect(new Decimal(res.body.quote!.rate).eq(1)).toBe(true);
      expect(res.body.sourceAmount).toMatchObject({ value: '0.50', asset: 'BRL' });
      await expectReadBack(res.body);
      created.push(res.body);
    },
  );

  it('When the operations are listed, then every one created here is there, newest first [PAGE-SORT]', async () => {
    const all = await allPages<Operation>(session().api, '/v1/operations');
    const ids = all.map((o) => o.id);
    for (const op of created) expect(ids).toContain(op.id);
    const times = all.map((o) => Date.parse(o.createdAt));
    expect(times).toEqual([...times].sort((a, b) => b - a));
  });

  it('When the account has propagating tags, then they are stamped on its operations [OP-TAGS-PROPAGATE]', async () => {
    const tags = (await session().api.get(`/api/accounts/${accounts.funded.id}`)).body.tags as Array<{
      key: string | null;
      value: string;
      propagates?: boolean;
    }>;
    // `propagates` is the document's own marking (the seed does not say how propagation shows):
    // where the target marks its tags, an operation carries exactly the marked ones; elsewhere
    // each of its tags must at least be one of the account's.
    const marked = tags.some((tag) => tag.propagates !== undefined);
    const propagating = tags.filter((tag) => tag.propagates === true).map(({ key, value }) => ({ key, value }));
    if (marked) expect(propagating.length).toBeGreaterThan(0);
    expect(created.length).toBeGreaterThan(0);
    for (const op of created) {
      if (marked) expect(op.tags.map(({ key, value }) => ({ key, value }))).toEqual(propagating);
      for (const tag of op.tags) expect(tags).toContainEqual(expect.objectContaining({ key: tag.key, value: tag.value }));
    }
  });
});

describeWhen(['writes', 'stateful'], 'refused operations', () => {
  it.each(['withdrawal', 'swap'] as const)(
    'When a %s reuses a consumed quote, then it answers 409 QUOTE_ALREADY_CONSUMED [QUOTE-CONSUMED-ONCE]',
    async (kind) => {
      const q = await quote({ targetAsset: kind === 'swap' ? 'USDT' : 'BRL' });
      expect((await create.deposit(q)).status).toBe(201);
      const res = kind === 'swap' ? await create.swap(q) : await create.withdrawal(q);
      expect(res.status).toBe(409);
      expect(res.body).toMatchObject({ code: 'QUOTE_ALREADY_CONSUMED' });
    },
  );

  it('When a swap uses a quote of another account, then it answers 422 QUOTE_ACCOUNT_MISMATCH [QUOTE-ACCOUNT-MATCH]', async () => {
    const q = await quote({ targetAsset: 'USDT' });
    const res = await create.swap(q, accounts.other.id);
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({ code: 'QUOTE_ACCOUNT_MISMATCH' });
  });

  it('When a withdrawal names an unknown beneficiary, then it answers 404 and the quote stays open [NOT-FOUND-404]', async () => {
    const q = await quote();
    const res = await create.withdrawal(q, randomUUID());
    expect(res.status).toBe(404);
    expect((await session().api.get<Quote>(`/v1/quotes/${q.id}`)).body.status).toBe('OPEN');
  });

  it('When a transfer names its own account as the target, then it answers 400', async () => {
    expect((await create.transfer('0.50', accounts.funded.id)).status).toBe(400);
  });

  it.each([['0'], ['0.001'], ['-1.00']])('When a transfer amount is %s, then it answers 400', async (amount) => {
    expect((await create.transfer(amount)).status).toBe(400);
  });
});

describeWhen(['stateful'], 'operations that cannot be made', () => {
  it.each(['withdrawal', 'swap'] as const)(
    'When a %s names a quote nobody has, then it answers 422 QUOTE_NOT_FOUND [QUOTE-UNKNOWN]',
    async (kind) => {
      const ghost = { id: randomUUID(), accountId: accounts.funded.id } as Quote;
      const res = kind === 'swap' ? await create.swap(ghost) : await create.withdrawal(ghost);
      expect(res.status).toBe(422);
      expect(res.body).toMatchObject({ code: 'QUOTE_NOT_FOUND' });
    },
  );

  it('When a transfer names an unknown target account, then it answers 404 [NOT-FOUND-404]', async () => {
    expect((await create.transfer('0.50', randomUUID())).status).toBe(404);
  });

  it('When an operation id is not a uuid, then reading it answers 400; an unknown one 404 [VALIDATION-400, NOT-FOUND-404]', async () => {
    expect((await session().api.get('/v1/operations/op-1')).status).toBe(400);
    expect((await session().api.get(`/v1/operations/${randomUUID()}`)).status).toBe(404);
  });
});

describeWhen(['control', 'writes'], 'settlement (control API)', () => {
  const balance = async (accountId: string, asset: string) =>
    new Decimal((await session().control!.balances(accountId)).balances[asset] ?? '0');

  /**
   * Settles through the control API; an operation the mock already auto-settled is read instead.
   * Either way its move from the state it was created in is one the document's lifecycle declares.
   */
  async function settle(op: Operation): Promise<Operation> {
    try {
      await session().control!.settle(op.id);
    } catch (error) {
      if (!(error instanceof ControlError && error.status === 409)) throw error;
    }
    const settled = (await session().api.get<Operation>(`/v1/operations/${op.id}`)).body;
    expectTransition('operation', op.currentState.status, settled.currentState.status);
    return settled;
  }

  it(
    'When a deposit settles, ' + 'then it is COMPLETED with one confirmed transaction and the target asset is credited [OP-SETTLEMENT]',
    async () => {
      const before = await balance(accounts.funded.id, 'USDT');
      const q = await quote({ targetAsset: 'USDT', sourceAmount: '10.00' });
      const done = await settle((await create.deposit(q)).body);
      expect(done.currentState.status).toBe('COMPLETED');
      expect(done.transactions).toHaveLength(1);
      expect((await balance(accounts.funded.id, 'USDT')).minus(before).toFixed()).toBe(new Decimal(q.targetAmount.value).toFixed());
    },
  );

  it('When a transfer settles, then the source is debited and the target credited by the amount [OP-SETTLEMENT]', async () => {
    const from = await balance(accounts.funded.id, 'BRL');
    const to = await balance(accounts.other.id, 'BRL');
    const done = await settle((await create.transfer('1.25')).body);
    expect(done.currentState.status).toBe('COMPLETED');
    expect(from.minus(await balance(accounts.funded.id, 'BRL')).toFixed(2)).toBe('1.25');
    expect((await balance(accounts.other.id, 'BRL')).minus(to).toFixed(2)).toBe('1.25');
  });

  it('When a swap settles, then the source asset is debited and the target asset credited [OP-SETTLEMENT]', async () => {
    const brl = await balance(accounts.funded.id, 'BRL');
    const usdt = await balance(accounts.funded.id, 'USDT');
    const q = await quote({ targetAsset: 'USDT', sourceAmount: '3.00' });
    const done = await settle((await create.swap(q)).body);
    expect(done.currentState.status).toBe('COMPLETED');
    expect(brl.minus(await balance(accounts.funded.id, 'BRL')).toFixed()).toBe(new Decimal(q.sourceAmount.value).toFixed());
    expect((await balance(accounts.funded.id, 'USDT')).minus(usdt).toFixed()).toBe(new Decimal(q.targetAmount.value).toFixed());
  });

  it(
    'When a withdrawal is short of funds, ' + 'then it goes FAILED with INSUFFICIENT_BALANCE and moves nothing [OP-INSUFFICIENT-BALANCE]',
    async () => {
      const { control } = session();
      await control!.setBalances(accounts.other.id, { BRL: '0.00' });
      const q = (
        await session().api.post<Quote>('/v1/quotes', {
          accountId: accounts.other.id,
          sourceAsset: 'BRL',
          targetAsset: 'BRL',
          sourceAmount: '5.00',
        })
      ).body;
      const done = await settle((await create.withdrawal(q)).body);
      expect(done.currentState).toMatchObject({ status: 'FAILED', reason: { code: 'INSUFFICIENT_BALANCE' } });
      expect(done.transactions).toEqual([]);
      expect((await balance(accounts.other.id, 'BRL')).isZero()).toBe(true);
    },
  );

  itWhen(['control', 'writes'], 'When a withdrawal settles, then the account is debited by the source amount [OP-SETTLEMENT]', async () => {
    const before = await balance(accounts.funded.id, 'BRL');
    const q = await quote({ sourceAmount: '4.00' });
    const done = await settle((await create.withdrawal(q)).body);
    expect(done.currentState.status).toBe('COMPLETED');
    expect(before.minus(await balance(accounts.funded.id, 'BRL')).toFixed(2)).toBe('4.00');
  });
});
