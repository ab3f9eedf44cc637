// Tenancy: every record belongs to the token's customer. Another customer's id answers exactly
// as an unknown one (404 RESOURCE_NOT_FOUND, never 403), lists never show it, cursors and
// idempotency keys do not cross customers.
import { randomUUID } from 'node:crypto';
import { expect, it } from '@jest/globals';
import { describeWhen, itWhen } from './support/capabilities';
import type { ApiClient } from './support/client';
import { findAccounts, findBeneficiary, type Accounts } from './support/preconditions';
import { companyOwner, operationEvents, pixInstruction, samples } from './support/samples';
import { beforeAllWhen, useSession } from './support/session';
import { contract } from './support/target';
import type { Page, Quote, Subscription } from './support/types';

const session = useSession();

describeWhen(['stateful'], 'unknown ids', () => {
  const lookups = samples(contract(), (op) => op.security && op.pathParams.length > 0);
  it.each(lookups.map((s) => [s.operationId, s] as const))(
    'When %s names an id nobody has, then it answers 404 RESOURCE_NOT_FOUND [NOT-FOUND-404]',
    async (_id, s) => {
      const res = await session().api.call(s.method, s.path, { body: s.body });
      expect(res.status).toBe(404);
      expect(res.body.code).toBe('RESOURCE_NOT_FOUND');
    },
  );

  const bodyLookups = samples(
    contract(),
    (op) =>
      op.pathParams.length === 0 &&
      ['createQuote', 'createDeposit', 'createWithdrawal', 'createSwap', 'createTransfer'].includes(op.operationId),
  );
  it.each(bodyLookups.map((s) => [s.operationId, s] as const))(
    'When %s names an account nobody has, then it answers 404 RESOURCE_NOT_FOUND [NOT-FOUND-404]',
    async (_id, s) => {
      const res = await session().api.call(s.method, s.path, { body: s.body });
      expect(res.status).toBe(404);
      expect(res.body.code).toBe('RESOURCE_NOT_FOUND');
    },
  );
});

describeWhen(['secondCustomer', 'stateful'], 'two customers', () => {
  let mine: ApiClient;
  let theirs: ApiClient;
  let accounts: Accounts;
  let quote: Quote;
  let subscription: Subscription;

  beforeAllWhen([], async () => {
    const s = session();
    mine = s.api;
    theirs = await s.otherCustomer();
    accounts = await findAccounts(s);
    quote = (
      await mine.post<Quote>('/v1/quotes', { accountId: accounts.funded.id, sourceAsset: 'BRL', targetAsset: 'BRL', sourceAmount: '1.00' })
    ).body;
    subscription = (
      await mine.post<Subscription>('/api/subscriptions', { url: 'https://hooks.example.com/tenancy', resources: operationEvents })
    ).body;
    s.onClose(() => mine.delete(`/v1/subscriptions/${subscription.id}`));
  });

  it(
    'When the customers list their accounts, ' + 'then no account appears in both and each shows its own customer [TENANCY-OWN-DATA]',
    async () => {
      const a = (await mine.get<Page<{ id: string; customer: { id: string } }>>('/api/accounts', { query: { limit: 100 } })).body.data;
      const b = (await theirs.get<Page<{ id: string; customer: { id: string } }>>('/api/accounts', { query: { limit: 100 } })).body.data;
      const overlap = a.filter((x) => b.some((y) => y.id === x.id));
      expect(overlap).toEqual([]);
      expect(new Set(a.map((x) => x.customer.id)).size).toBe(1);
      expect(new Set(b.map((x) => x.customer.id)).size).toBe(1);
      expect(a[0]!.customer.id).not.toBe(b[0]!.customer.id);
    },
  );

  it(
    'When one customer reads the other’s account, quote or subscription, ' +
      'then it gets the same 404 as for an unknown id [TENANCY-OWN-DATA]',
    async () => {
      for (const path of [
        `/api/accounts/${accounts.funded.id}`,
        `/v1/quotes/${quote.id}`,
        `/v1/subscriptions/${subscription.id}`,
        `/v1/subscriptions/${subscription.id}/executionLogs`,
      ]) {
        const foreign = await theirs.get(path);
        const unknown = await theirs.get(path.replace(/[0-9a-f-]{36}/, randomUUID()));
        expect(foreign.status).toBe(404);
        expect(foreign.body.code).toBe('RESOURCE_NOT_FOUND');
        expect(foreign.body.code).toBe(unknown.body.code);
        expect(Object.keys(foreign.body.details ?? {}).sort()).toEqual(Object.keys(unknown.body.details ?? {}).sort());
      }
    },
  );

  it('When one customer reads the other’s beneficiary, then it answers 404 and the list does not show it [TENANCY-OWN-DATA]', async () => {
    const beneficiary = await findBeneficiary(mine);
    expect(beneficiary).toBeDefined();
    expect((await theirs.get(`/v1/beneficiaries/${beneficiary!.id}`)).status).toBe(404);
    const listed = (await theirs.get<Page<{ id: string }>>('/v1/beneficiaries', { query: { limit: 100 } })).body.data;
    expect(listed.map((b) => b.id)).not.toContain(beneficiary!.id);
  });

  it(
    'When one customer changes or deletes the other’s subscription, ' +
      'then it answers 404 and the subscription is untouched [TENANCY-OWN-DATA]',
    async () => {
      expect((await theirs.patch(`/v1/subscriptions/${subscription.id}`, { allowRetry: true })).status).toBe(404);
      expect((await theirs.delete(`/v1/subscriptions/${subscription.id}`)).status).toBe(404);
      expect((await theirs.post(`/v1/subscriptions/${subscription.id}/executionLogs/${randomUUID()}/resend`)).status).toBe(404);
      const still = await mine.get<Subscription>(`/v1/subscriptions/${subscription.id}`);
      expect(still.status).toBe(200);
      expect(still.body).toEqual(subscription);
      const listed = (await theirs.get<Page<{ id: string }>>('/v1/subscriptions', { query: { limit: 100 } })).body.data;
      expect(listed.map((x) => x.id)).not.toContain(subscription.id);
    },
  );

  it('When one customer quotes on the other’s account, then it answers 404 [TENANCY-OWN-DATA]', async () => {
    const res = await theirs.post('/v1/quotes', {
      accountId: accounts.funded.id,
      sourceAsset: 'BRL',
      targetAsset: 'BRL',
      sourceAmount: '1.00',
    });
    expect(res.status).toBe(404);
    expect(res.body.code).toBe('RESOURCE_NOT_FOUND');
  });

  itWhen(
    ['writes'],
    'When one customer spends the other’s quote or patches the other’s account, then it is refused and nothing moves [TENANCY-OWN-DATA]',
    async () => {
      const theirAccounts = (await theirs.get<Page<{ id: string }>>('/api/accounts', { query: { limit: 1 } })).body.data;
      const deposit = await theirs.post('/v1/operations/deposits', {
        accountId: theirAccounts[0]!.id,
        quoteId: quote.id,
        fundingInstruction: { rail: 'PIX' },
      });
      expect(deposit.status).toBe(422);
      expect(deposit.body.code).toBe('QUOTE_NOT_FOUND');
      expect((await mine.get<Quote>(`/v1/quotes/${quote.id}`)).body.status).toBe('OPEN');
      const patch = await theirs.patch(`/v1/accounts/${accounts.funded.id}`, { owner: companyOwner });
      expect(patch.status).toBe(404);
      const transfer = await theirs.post('/v1/operations/transfers', {
        accountId: theirAccounts[0]!.id,
        targetAccountId: accounts.funded.id,
        asset: 'BRL',
        amount: '1.00',
      });
      expect(transfer.status).toBe(404);
      const beneficiary = await findBeneficiary(mine);
      const instruction = await theirs.post(`/v1/beneficiaries/${beneficiary!.id}/paymentInstructions`, pixInstruction());
      expect(instruction.status).toBe(404);
    },
  );

  it('When one customer sends the other’s cursor, then it answers 400 INVALID_CURSOR [PAGE-CURSOR-SIGNED]', async () => {
    const page = await mine.get<Page<unknown>>('/api/accounts', { query: { limit: 1 } });
    expect(page.body.meta.nextCursor).not.toBeNull();
    const res = await theirs.get('/api/accounts', { query: { limit: 1, cursor: page.body.meta.nextCursor!, direction: 'NEXT' } });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('INVALID_CURSOR');
  });

  it('When both customers use the same idempotency key, then neither sees the other’s answer [TENANCY-IDEMPOTENCY-SCOPE]', async () => {
    const key = randomUUID();
    const first = await mine.post<Quote>(
      '/v1/quotes',
      { accountId: accounts.funded.id, sourceAsset: 'BRL', targetAsset: 'BRL', sourceAmount: '2.00' },
      { idempotencyKey: key },
    );
    const theirAccount = (await theirs.get<Page<{ id: string }>>('/api/accounts', { query: { limit: 100 } })).body.data[0]!;
    const second = await theirs.post<Quote>(
      '/v1/quotes',
      { accountId: theirAccount.id, sourceAsset: 'BRL', targetAsset: 'BRL', sourceAmount: '2.00' },
      { idempotencyKey: key },
    );
    expect(first.status).toBe(201);
    expect(second.status).toBe(201);
    expect(second.replayed).toBe(false);
    expect(second.body.id).not.toBe(first.body.id);
  });
});
