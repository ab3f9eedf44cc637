// Quotes: pricing and rounding, reading back, the request rules, and the seed's use rules:
// consumed by exactly one operation (also under concurrency), expired, another account's,
// unknown.
import { randomUUID } from 'node:crypto';
import { expect, it } from '@jest/globals';
import Decimal from 'decimal.js';
import { describeWhen, itWhen } from './support/capabilities';
import { findAccounts, type Accounts } from './support/preconditions';
import { beforeAllWhen, useSession } from './support/session';
import type { Quote } from './support/types';

const session = useSession();
let accounts: Accounts;

beforeAllWhen(['stateful'], async () => {
  accounts = await findAccounts(session());
});

async function quote(body: Record<string, unknown> = {}): Promise<Quote> {
  const res = await session().api.post<Quote>('/v1/quotes', {
    accountId: accounts.funded.id,
    sourceAsset: 'BRL',
    targetAsset: 'BRL',
    sourceAmount: '10.00',
    ...body,
  });
  expect(res.status).toBe(201);
  return res.body;
}

const deposit = (quoteId: string, accountId = accounts.funded.id) =>
  session().api.post('/v1/operations/deposits', { accountId, quoteId, fundingInstruction: { rail: 'PIX' } });

describeWhen(['stateful'], 'pricing', () => {
  // Both directions: a 2-decimal BRL amount times a rate may fit USDT's 6 decimals exactly (then
  // nothing is rounded); a 6-decimal USDT amount into 2-decimal BRL almost never does.
  it.each([
    ['BRL', 'USDT', '100.01'],
    ['USDT', 'BRL', '10.123457'],
  ])(
    'When a quote is asked from a source amount (%s to %s), ' +
      'then the target is source x rate rounded down to the target scale [QUOTE-ROUNDING, DOC-STATUS, MONEY-DECIMAL-STRING]',
    async (sourceAsset, targetAsset, sourceAmount) => {
      const q = await quote({ sourceAsset, targetAsset, sourceAmount });
      expect(q).toMatchObject({ accountId: accounts.funded.id, status: 'OPEN', operationId: null });
      expect(q.sourceAmount).toMatchObject({ value: sourceAmount, asset: sourceAsset });
      expect(q.targetAmount.asset).toBe(targetAsset);
      const scale = q.targetAmount.decimals;
      const exact = new Decimal(q.sourceAmount.value).times(q.rate);
      expect(q.targetAmount.value).toBe(exact.toDecimalPlaces(scale, Decimal.ROUND_DOWN).toFixed(scale));
      expect(Date.parse(q.expiresAt)).toBeGreaterThan(Date.parse(q.createdAt));
    },
  );

  it('When a quote is asked from a target amount, then the source covers it at the rate [QUOTE-ROUNDING]', async () => {
    const q = await quote({ targetAsset: 'USDT', sourceAmount: undefined, targetAmount: '18.5' });
    expect(new Decimal(q.targetAmount.value).eq('18.5')).toBe(true);
    expect(new Decimal(q.sourceAmount.value).times(q.rate).gte(q.targetAmount.value)).toBe(true);
    expect(q.sourceAmount.value.split('.')[1]?.length ?? 0).toBe(q.sourceAmount.decimals);
  });

  it('When source and target are the same asset, then the rate is 1:1 [QUOTE-SAME-ASSET-1-1]', async () => {
    const q = await quote();
    expect(new Decimal(q.rate).eq(1)).toBe(true);
    expect(q.targetAmount.value).toBe(q.sourceAmount.value);
  });

  it('When a quote is read back, then it is the quote that was created', async () => {
    const q = await quote();
    const res = await session().api.get<Quote>(`/v1/quotes/${q.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual(q);
  });
});

describeWhen(['stateful'], 'refused quote requests', () => {
  it.each([
    ['both amounts', { sourceAmount: '1.00', targetAmount: '1.00' }],
    ['neither amount', { sourceAmount: undefined }],
    ['more decimals than the asset has', { sourceAmount: '1.001' }],
    ['a number where a decimal string belongs', { sourceAmount: 10 }],
    ['a negative amount', { sourceAmount: '-1.00' }],
    ['an account id that is not a uuid', { accountId: 'acc-1' }],
    ['an unknown field', { sourceAmmount: '1.00' }],
  ])('When the request has %s, then it answers 400 VALIDATION_ERROR [VALIDATION-400]', async (_name, patch) => {
    const res = await session().api.post('/v1/quotes', {
      accountId: accounts.funded.id,
      sourceAsset: 'BRL',
      targetAsset: 'USDT',
      sourceAmount: '10.00',
      ...patch,
    });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('VALIDATION_ERROR');
  });

  it('When a quote id is not a uuid, then reading it answers 400 [VALIDATION-400]', async () => {
    expect((await session().api.get('/v1/quotes/not-a-uuid')).status).toBe(400);
  });
});

describeWhen(['stateful'], 'using a quote', () => {
  it('When a deposit names a quote nobody has, then it answers 422 QUOTE_NOT_FOUND [QUOTE-UNKNOWN]', async () => {
    const res = await deposit(randomUUID());
    expect(res.status).toBe(422);
    expect(res.body.code).toBe('QUOTE_NOT_FOUND');
  });

  itWhen(
    ['writes'],
    'When a quote is used twice, then the second use answers 409 QUOTE_ALREADY_CONSUMED [QUOTE-CONSUMED-ONCE]',
    async () => {
      const q = await quote();
      const first = await deposit(q.id);
      expect(first.status).toBe(201);
      const second = await deposit(q.id);
      expect(second.status).toBe(409);
      expect(second.body.code).toBe('QUOTE_ALREADY_CONSUMED');
      const read = (await session().api.get<Quote>(`/v1/quotes/${q.id}`)).body;
      expect(read).toMatchObject({ status: 'CONSUMED', operationId: first.body.id });
    },
  );

  itWhen(
    ['writes'],
    'When 20 deposits race for one quote, then exactly one wins and the others answer 409 [QUOTE-CONSUMED-ONCE]',
    async () => {
      const q = await quote();
      const answers = await Promise.all(Array.from({ length: 20 }, () => deposit(q.id)));
      const statuses = answers.map((a) => a.status);
      expect(statuses.filter((s) => s === 201)).toHaveLength(1);
      expect(statuses.filter((s) => s === 409)).toHaveLength(19);
      for (const a of answers.filter((x) => x.status === 409)) expect(a.body.code).toBe('QUOTE_ALREADY_CONSUMED');
      const winner = answers.find((a) => a.status === 201)!;
      expect((await session().api.get<Quote>(`/v1/quotes/${q.id}`)).body.operationId).toBe(winner.body.id);
    },
  );

  itWhen(
    ['writes'],
    'When a quote of one account is used on another account, ' +
      'then it answers 422 QUOTE_ACCOUNT_MISMATCH and stays open [QUOTE-ACCOUNT-MATCH]',
    async () => {
      const q = await quote();
      const res = await deposit(q.id, accounts.other.id);
      expect(res.status).toBe(422);
      expect(res.body.code).toBe('QUOTE_ACCOUNT_MISMATCH');
      expect((await session().api.get<Quote>(`/v1/quotes/${q.id}`)).body.status).toBe('OPEN');
    },
  );

  itWhen(
    ['control', 'writes'],
    'When the mock clock passes expiresAt, then the quote reads EXPIRED and a deposit answers 422 QUOTE_EXPIRED [QUOTE-EXPIRES]',
    async () => {
      const { control } = session();
      const q = await quote();
      const lifetime = Date.parse(q.expiresAt) - Date.parse((await control!.clock()).now);
      await control!.advance(Math.max(lifetime, 0) + 1);
      expect((await session().api.get<Quote>(`/v1/quotes/${q.id}`)).body.status).toBe('EXPIRED');
      const res = await deposit(q.id);
      expect(res.status).toBe(422);
      expect(res.body.code).toBe('QUOTE_EXPIRED');
    },
  );
});
