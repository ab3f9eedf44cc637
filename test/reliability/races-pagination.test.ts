// Pagination races: a list walk, forwards in either sort order or back from the last page, sees
// every record that existed when it began exactly once while records are added between (and
// during) its page reads.
import { describe, expect, it } from '@jest/globals';
import { createQuote, expectStatus } from './support/api';
import { pick, prng, SEED, size } from './support/env';
import { type Answer } from './support/http-client';
import { api, c1, funded, h, raceFile } from './support/races';

const PAGINATION_ROUNDS = size('RELIABILITY_PAGINATION_ROUNDS', 3);

const stats = { pageWalks: 0, insertsDuringWalks: 0 };
raceFile('races-pagination.test.ts', stats);

describe('races', () => {
  describe('pagination while records are added', () => {
    async function newOperation(): Promise<string> {
      const q = await createQuote(api, { accountId: funded, sourceAsset: 'BRL', targetAsset: 'BRL', sourceAmount: '1.00' });
      return expectStatus(
        await api.post('/v1/operations/deposits', { accountId: funded, quoteId: q.id, fundingInstruction: { rail: 'PIX' } }),
        201,
        'deposit',
      ).body.id;
    }

    it.each(['DESCENDING', 'ASCENDING'])(
      'a walk of /v1/operations with limit 3 (%s) sees every operation that existed when it began exactly once',
      async (sortOrder) => {
        const random = prng(SEED ^ sortOrder.length);
        for (let i = 0; i < 20; i++) await newOperation();
        for (let round = 0; round < PAGINATION_ROUNDS; round++) {
          const existing = (await h.mock.deps.store.all('operation', c1)).map((op) => op.id);
          const seen: string[] = [];
          let inserted = 0;
          let cursor: string | null = null;
          let pages = 0;
          do {
            // Inserts race the page read itself, and more land between pages.
            const during = Array.from({ length: inserted < 60 ? pick(random, 3) : 0 }, () => newOperation());
            const page: Answer = expectStatus(
              await api.get(`/v1/operations?limit=3&sortOrder=${sortOrder}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`),
              200,
              'page',
            );
            await Promise.all(during);
            inserted += during.length;
            if (inserted < 40) for (let i = pick(random, 3); i > 0; i--, inserted++) await newOperation();
            seen.push(...page.body.data.map((op: { id: string }) => op.id));
            cursor = page.body.meta.nextCursor;
            pages++;
            expect(pages).toBeLessThan(500);
          } while (cursor);
          stats.pageWalks++;
          stats.insertsDuringWalks += inserted;
          expect(new Set(seen).size).toBe(seen.length);
          const seenSet = new Set(seen);
          const missing = existing.filter((id) => !seenSet.has(id));
          expect(missing).toEqual([]);
        }
      },
    );

    it('walking back with previousCursor from the last page also sees every earlier operation exactly once', async () => {
      const random = prng(SEED ^ 0xbac);
      for (let i = 0; i < 20; i++) await newOperation();
      // Find the last page first.
      let cursor: string | null = null;
      let last: Answer;
      do {
        last = expectStatus(await api.get(`/v1/operations?limit=3${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`), 200, 'page');
        cursor = last.body.meta.nextCursor;
      } while (cursor);
      const existing = (await h.mock.deps.store.all('operation', c1)).map((op) => op.id);
      const seen: string[] = last.body.data.map((op: { id: string }) => op.id);
      let back: string | null = last.body.meta.previousCursor;
      let inserted = 0;
      while (back) {
        for (let i = pick(random, 3); i > 0; i--, inserted++) await newOperation();
        const page: Answer = expectStatus(await api.get(`/v1/operations?limit=3&cursor=${encodeURIComponent(back)}`), 200, 'page');
        seen.push(...page.body.data.map((op: { id: string }) => op.id));
        back = page.body.meta.previousCursor;
      }
      stats.pageWalks++;
      stats.insertsDuringWalks += inserted;
      expect(new Set(seen).size).toBe(seen.length);
      expect(existing.filter((id) => !seen.includes(id))).toEqual([]);
    });
  });
});
