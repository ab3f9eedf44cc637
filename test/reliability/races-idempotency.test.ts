// Idempotency races: the same request fired many times at once under one idempotency key makes
// exactly one resource (beneficiary, subscription, deposit, transfer, quote), and every answer is
// the stored result or 409 in progress; concurrent DELETEs of one subscription delete it once.
import { describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { createQuote, expectStatus, walkAll } from './support/api';
import { size } from './support/env';
import { type Answer } from './support/http-client';
import type { Beneficiary, Operation, Subscription } from '../../mock/domain/records';
import { api, c1, d, funded, h, raceFile } from './support/races';

const KEY_RACERS = size('RELIABILITY_IDEMPOTENCY_CONCURRENCY', 50);

const stats = { races: 0, concurrentRequests: 0 };
raceFile('races-idempotency.test.ts', stats);

describe('races', () => {
  describe(`${KEY_RACERS} concurrent identical requests with one idempotency key`, () => {
    /** Fires the same request KEY_RACERS times at once and checks every answer is the stored result or 409 in progress. */
    async function race(path: string, body: unknown): Promise<{ created: { id: string }; answers: Answer[] }> {
      const key = randomUUID();
      const answers = await Promise.all(Array.from({ length: KEY_RACERS }, () => api.post(path, body, key)));
      stats.races++;
      stats.concurrentRequests += answers.length;
      const successes = answers.filter((a) => a.status === 201);
      expect(successes.length).toBeGreaterThanOrEqual(1);
      const originals = successes.filter((a) => a.headers['x-idempotent-replayed'] === undefined);
      expect(originals).toHaveLength(1);
      const created = originals[0]!.body;
      for (const answer of answers) {
        if (answer.status === 201) {
          expect(answer.body).toEqual(created);
          if (answer !== originals[0]) expect(answer.headers['x-idempotent-replayed']).toBe('true');
        } else {
          expect(answer.status).toBe(409);
          expect(answer.body.code).toBe('IDEMPOTENCY_REQUEST_IN_PROGRESS');
        }
      }
      // A replay after the race is the stored result too.
      const replay = await api.post(path, body, key);
      expect(replay.status).toBe(201);
      expect(replay.body).toEqual(created);
      return { created, answers };
    }

    it('of a beneficiary: exactly one exists afterwards, and it is the stored result', async () => {
      const legalName = `Race ${randomUUID()}`;
      const { created } = await race('/v1/beneficiaries', {
        entity: { type: 'COMPANY', legalName, identificationDocument: { type: 'CNPJ', value: '11222333000181', country: 'BR' } },
        relationshipType: 'THIRD_PARTY',
        paymentInstructions: [{ asset: 'BRL', address: { rail: 'PIX_KEY', dictKey: 'race@example.com.br' } }],
      });
      const named = (await walkAll<Beneficiary>(api, '/v1/beneficiaries')).filter(
        (b) => b.entity.type === 'COMPANY' && b.entity.legalName === legalName,
      );
      expect(named.map((b) => b.id)).toEqual([created.id]);
      expect(expectStatus(await api.get(`/v1/beneficiaries/${created.id}`), 200, 'read it').body).toEqual(created);
    });

    it('of a subscription: exactly one exists afterwards', async () => {
      const url = `https://hooks.example.test/race/${randomUUID()}`;
      const { created } = await race('/api/subscriptions', { url, includeAll: true });
      const same = (await walkAll<Subscription>(api, '/v1/subscriptions')).filter((s) => s.url === url);
      expect(same.map((s) => s.id)).toEqual([created.id]);
    });

    it('of a deposit: exactly one operation consumed the quote', async () => {
      const quote = await createQuote(api, { accountId: funded, sourceAsset: 'BRL', targetAsset: 'BRL', sourceAmount: '3.00' });
      const { created } = await race('/v1/operations/deposits', {
        accountId: funded,
        quoteId: quote.id,
        fundingInstruction: { rail: 'PIX' },
      });
      const consumers = (await walkAll<Operation>(api, '/v1/operations')).filter((op) => op.quote?.id === quote.id);
      expect(consumers.map((op) => op.id)).toEqual([created.id]);
      expect(expectStatus(await api.get(`/v1/operations/${created.id}`), 200, 'read it').body).toEqual(created);
    });

    it('of a transfer: exactly one operation exists afterwards', async () => {
      const before = (await walkAll(api, '/v1/operations')).length;
      const target = d.accountsOf(c1).find((a) => a.id !== funded)!.id;
      const { created } = await race('/v1/operations/transfers', {
        accountId: funded,
        targetAccountId: target,
        asset: 'BRL',
        amount: '1.23',
      });
      const after = await walkAll<Operation>(api, '/v1/operations');
      expect(after).toHaveLength(before + 1);
      expect(after.filter((op) => op.intent.type === 'TRANSFER').map((op) => op.id)).toEqual([created.id]);
    });

    it('of a quote: exactly one quote is stored', async () => {
      const before = (await h.mock.deps.store.all('quote', c1)).length;
      const { created } = await race('/v1/quotes', { accountId: funded, sourceAsset: 'USDT', targetAsset: 'BRL', targetAmount: '54.00' });
      const after = await h.mock.deps.store.all('quote', c1);
      expect(after).toHaveLength(before + 1);
      expect(expectStatus(await api.get(`/v1/quotes/${created.id}`), 200, 'read it').body).toEqual(created);
    });
  });

  it(`${KEY_RACERS} concurrent DELETEs of one subscription: exactly one 204, the others 404`, async () => {
    const id = expectStatus(
      await api.post('/api/subscriptions', { url: 'https://hooks.example.test/delete-race', includeAll: true }),
      201,
      'subscription',
    ).body.id;
    const answers = await Promise.all(Array.from({ length: KEY_RACERS }, () => api.delete(`/v1/subscriptions/${id}`)));
    stats.races++;
    stats.concurrentRequests += answers.length;
    expect(answers.filter((a) => a.status === 204)).toHaveLength(1);
    for (const a of answers.filter((x) => x.status !== 204)) {
      expect(a.status).toBe(404);
      expect(a.body.code).toBe('RESOURCE_NOT_FOUND');
    }
  });
});
