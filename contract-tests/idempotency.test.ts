// Idempotency keys: required on every POST/PUT/PATCH but the token call; a replay answers the
// first status and body with X-Idempotent-Replayed: true; the same key on another request is
// 422; concurrent duplicates make one resource; a refused (400) request does not use its key.
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from '@jest/globals';
import { describeWhen, itEachWhen, itWhen } from './support/capabilities';
import { findAccounts, type Accounts } from './support/preconditions';
import { person, samples } from './support/samples';
import { beforeAllWhen, useSession } from './support/session';
import { contract } from './support/target';
import type { Beneficiary, Quote, Subscription } from './support/types';

const session = useSession();
let accounts: Accounts;
const quoteBody = (amount = '3.00') => ({ accountId: accounts.funded.id, sourceAsset: 'BRL', targetAsset: 'USDT', sourceAmount: amount });

beforeAllWhen(['stateful'], async () => {
  accounts = await findAccounts(session());
});

const keyed = samples(contract(), (op) => op.idempotent);

describe('the key is required', () => {
  it('is taken by every POST, PUT and PATCH of the document but the token call', () => {
    const mutating = contract().operations.filter((op) => op.mutating && op.operationId !== 'createToken');
    expect(mutating.filter((op) => !op.idempotent).map((op) => op.operationId)).toEqual([]);
  });

  itEachWhen(
    ['stateful'],
    keyed.map((s) => [s.operationId, s] as const),
  )('When %s is sent without X-Idempotency-Key, then it answers 400 IDEMPOTENCY_KEY_REQUIRED [IDEM-KEY-REQUIRED]', async (_id, s) => {
    const res = await session().api.call(s.method, s.path, { body: s.body, idempotencyKey: null });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('IDEMPOTENCY_KEY_REQUIRED');
  });

  itWhen(['stateful'], 'When the key is not a uuid, then it answers 400 VALIDATION_ERROR naming the header [VALIDATION-400]', async () => {
    const res = await session().api.post('/v1/quotes', quoteBody(), { idempotencyKey: 'not-a-uuid' });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('VALIDATION_ERROR');
    expect(res.body.details.fields.map((f: { field: string }) => f.field)).toContain('header.x-idempotency-key');
  });
});

describeWhen(['stateful'], 'replays', () => {
  it(
    'When a quote request is repeated with its key, ' + 'then the first answer comes back marked X-Idempotent-Replayed [IDEM-REPLAY]',
    async () => {
      const { api } = session();
      const key = randomUUID();
      const first = await api.post<Quote>('/v1/quotes', quoteBody(), { idempotencyKey: key });
      const again = await api.post<Quote>('/v1/quotes', quoteBody(), { idempotencyKey: key });
      expect(first.status).toBe(201);
      expect(first.replayed).toBe(false);
      expect(again.status).toBe(201);
      expect(again.replayed).toBe(true);
      expect(again.body).toEqual(first.body);
    },
  );

  it('When a subscription request is repeated with its key, then one subscription exists [IDEM-REPLAY]', async () => {
    const { api, onClose } = session();
    const key = randomUUID();
    const body = { url: 'https://hooks.example.com/replay', resources: [{ name: 'OPERATION', events: ['OPERATION_FAILED'] }] };
    const first = await api.post<Subscription>('/api/subscriptions', body, { idempotencyKey: key });
    onClose(() => api.delete(`/v1/subscriptions/${first.body.id}`));
    const again = await api.post<Subscription>('/api/subscriptions', body, { idempotencyKey: key });
    expect(again.replayed).toBe(true);
    expect(again.body.id).toBe(first.body.id);
  });

  it('When the first answer was a refusal, then the replay answers the same refusal [IDEM-REPLAY]', async () => {
    const { api } = session();
    const key = randomUUID();
    const body = { ...quoteBody(), accountId: randomUUID() };
    const first = await api.post('/v1/quotes', body, { idempotencyKey: key });
    const again = await api.post('/v1/quotes', body, { idempotencyKey: key });
    expect(first.status).toBe(404);
    expect(again.status).toBe(404);
    expect(again.body).toEqual(first.body);
  });

  it(
    'When a request is refused as invalid (400), ' + 'then its key can be used again for the corrected request [IDEM-INVALID-NOT-BURNED]',
    async () => {
      const { api } = session();
      const key = randomUUID();
      const refused = await api.post('/v1/quotes', { ...quoteBody(), sourceAmount: 'lots' }, { idempotencyKey: key });
      expect(refused.status).toBe(400);
      const accepted = await api.post('/v1/quotes', quoteBody(), { idempotencyKey: key });
      expect(accepted.status).toBe(201);
      expect(accepted.replayed).toBe(false);
    },
  );

  itWhen(
    ['writes'],
    'When a deposit is retried with its key, ' +
      'then the same operation comes back and the quote is consumed once [IDEM-REPLAY, QUOTE-CONSUMED-ONCE]',
    async () => {
      const { api } = session();
      const quote = (
        await api.post<Quote>('/v1/quotes', { accountId: accounts.funded.id, sourceAsset: 'BRL', targetAsset: 'BRL', sourceAmount: '1.00' })
      ).body;
      const key = randomUUID();
      const body = { accountId: accounts.funded.id, quoteId: quote.id, fundingInstruction: { rail: 'PIX' } };
      const first = await api.post('/v1/operations/deposits', body, { idempotencyKey: key });
      const again = await api.post('/v1/operations/deposits', body, { idempotencyKey: key });
      expect(first.status).toBe(201);
      expect(again.status).toBe(201);
      expect(again.replayed).toBe(true);
      expect(again.body.id).toBe(first.body.id);
      expect((await api.get<Quote>(`/v1/quotes/${quote.id}`)).body.operationId).toBe(first.body.id);
    },
  );
});

describeWhen(['stateful'], 'a key reused for another request', () => {
  // The first request of each pair is decided without creating anything (404 for an unknown
  // id); the second differs in body or path. createBeneficiary and createSubscription have no
  // lookup to fail, so they are checked below with a real first request.
  const pairs = keyed.filter((s) => s.notFound);
  it.each(pairs.map((s) => [s.operationId, s] as const))(
    'When %s gets a used key with another request, then it answers 422 IDEMPOTENCY_KEY_REUSED [IDEM-KEY-REUSED]',
    async (_id, s) => {
      const { api } = session();
      const key = randomUUID();
      const first = await api.call(s.method, s.path, { body: s.body, idempotencyKey: key });
      expect(first.status).toBe(404);
      // Another request: another unknown id in the path, or (no path id) in the body.
      const other =
        s.op.pathParams.length > 0
          ? s.path.replace(/[0-9a-f-]{36}$/, randomUUID()).replace(/^(.*\/)[0-9a-f-]{36}(\/[a-zA-Z]+)$/, `$1${randomUUID()}$2`)
          : s.path;
      const body = s.op.pathParams.length > 0 ? s.body : { ...s.body, accountId: randomUUID() };
      const second = await api.call(s.method, other, { body, idempotencyKey: key });
      expect(second.status).toBe(422);
      expect(second.body.code).toBe('IDEMPOTENCY_KEY_REUSED');
    },
  );

  it('When a quote key is reused with another amount, then it answers 422 and the first quote stands [IDEM-KEY-REUSED]', async () => {
    const { api } = session();
    const key = randomUUID();
    const first = await api.post<Quote>('/v1/quotes', quoteBody('3.00'), { idempotencyKey: key });
    const second = await api.post('/v1/quotes', quoteBody('4.00'), { idempotencyKey: key });
    expect(second.status).toBe(422);
    expect(second.body.code).toBe('IDEMPOTENCY_KEY_REUSED');
    expect((await api.get<Quote>(`/v1/quotes/${first.body.id}`)).body.sourceAmount.value).toBe('3.00');
  });

  it('When a subscription key is reused with another URL, then it answers 422 [IDEM-KEY-REUSED]', async () => {
    const { api, onClose } = session();
    const key = randomUUID();
    const first = await api.post<Subscription>(
      '/api/subscriptions',
      { url: 'https://hooks.example.com/a', includeAll: true },
      { idempotencyKey: key },
    );
    onClose(() => api.delete(`/v1/subscriptions/${first.body.id}`));
    const second = await api.post('/api/subscriptions', { url: 'https://hooks.example.com/b', includeAll: true }, { idempotencyKey: key });
    expect(second.status).toBe(422);
  });

  it('When a beneficiary key is reused with another entity, then it answers 422 [IDEM-KEY-REUSED]', async () => {
    const { api } = session();
    const key = randomUUID();
    expect((await api.post('/v1/beneficiaries', { entity: person, relationshipType: 'THIRD_PARTY' }, { idempotencyKey: key })).status).toBe(
      201,
    );
    const second = await api.post(
      '/v1/beneficiaries',
      { entity: { ...person, firstName: 'Ana' }, relationshipType: 'THIRD_PARTY' },
      { idempotencyKey: key },
    );
    expect(second.status).toBe(422);
  });
});

describeWhen(['stateful'], 'concurrent duplicates', () => {
  // Any number of identical requests racing with one key: one resource; each answer is the
  // resource (first or replayed) or 409 IDEMPOTENCY_REQUEST_IN_PROGRESS while the first runs.
  async function race<T extends { id: string }>(send: () => Promise<{ status: number; body: T | { code: string } }>, n = 12) {
    const answers = await Promise.all(Array.from({ length: n }, send));
    for (const a of answers) {
      expect([201, 409]).toContain(a.status);
      if (a.status === 409) expect((a.body as { code: string }).code).toBe('IDEMPOTENCY_REQUEST_IN_PROGRESS');
    }
    const ids = new Set(answers.filter((a) => a.status === 201).map((a) => (a.body as T).id));
    return ids;
  }

  it('When the same quote request races with one key, then one quote is created [IDEM-REPLAY]', async () => {
    const { api } = session();
    const key = randomUUID();
    const ids = await race(() => api.post<Quote>('/v1/quotes', quoteBody('5.00'), { idempotencyKey: key }));
    const replay = await api.post<Quote>('/v1/quotes', quoteBody('5.00'), { idempotencyKey: key });
    expect(replay.replayed).toBe(true);
    expect(ids.size).toBe(1);
    expect([...ids][0]).toBe(replay.body.id);
  });

  it('When the same subscription request races with one key, then one subscription is created [IDEM-REPLAY]', async () => {
    const { api, onClose } = session();
    const key = randomUUID();
    const url = `https://hooks.example.com/race/${key}`;
    const ids = await race(() =>
      api.post<Subscription>(
        '/api/subscriptions',
        { url, resources: [{ name: 'ACCOUNT', events: ['ACCOUNT_CREATED'] }] },
        { idempotencyKey: key },
      ),
    );
    const all = (await api.get<{ data: Subscription[] }>('/v1/subscriptions', { query: { limit: 100 } })).body.data.filter(
      (s) => s.url === url,
    );
    for (const s of all) onClose(() => api.delete(`/v1/subscriptions/${s.id}`));
    expect(all).toHaveLength(1);
    expect(ids.size).toBe(1);
  });

  it('When the same beneficiary request races with one key, then one beneficiary is created [IDEM-REPLAY]', async () => {
    const { api } = session();
    const key = randomUUID();
    const lastName = `Race${key.slice(0, 8)}`;
    const ids = await race(() =>
      api.post<Beneficiary>(
        '/v1/beneficiaries',
        { entity: { ...person, lastName }, relationshipType: 'THIRD_PARTY' },
        { idempotencyKey: key },
      ),
    );
    const all = (await api.get<{ data: Beneficiary[] }>('/v1/beneficiaries', { query: { limit: 100 } })).body.data.filter(
      (b) => b.entity.type === 'INDIVIDUAL' && b.entity.lastName === lastName,
    );
    expect(all).toHaveLength(1);
    expect(ids.size).toBe(1);
  });

  itWhen(['writes'], 'When the same transfer races with one key, then one operation is created', async () => {
    const { api } = session();
    const key = randomUUID();
    const ids = await race(() =>
      api.post(
        '/v1/operations/transfers',
        { accountId: accounts.funded.id, targetAccountId: accounts.other.id, asset: 'BRL', amount: '0.01' },
        { idempotencyKey: key },
      ),
    );
    const replay = await api.post(
      '/v1/operations/transfers',
      { accountId: accounts.funded.id, targetAccountId: accounts.other.id, asset: 'BRL', amount: '0.01' },
      { idempotencyKey: key },
    );
    expect(replay.replayed).toBe(true);
    expect(ids.size).toBe(1);
    expect([...ids][0]).toBe(replay.body.id);
  });
});
