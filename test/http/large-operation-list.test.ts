// Listing thousands of operations over HTTP: every operation once, in order, equal to the
// stored record; and an operation that breaks the document still answers 500 in strict mode.
import { afterEach, describe, expect, it } from '@jest/globals';
import { seedOperations } from '../../bench/lib/seed-operations';
import type { Operation } from '../../mock/domain/records';
import { BULK_TEST_MS } from '../support/waits';
import { startMock, type Harness } from './harness';

/** Enough for many pages of 100, most of them records listed for the first time. */
const MANY = 4500;

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

/** The mock, strict, with MANY operations of the demo customer; `first` is stored before them. */
async function mockWithMany(first?: (store: Harness['mock']['deps']['store'], customerId: string) => Promise<void>) {
  h = await startMock();
  const { store, reference } = h.mock.deps;
  const customerId = h.mock.fixtures.customers[0]!.id;
  await first?.(store, customerId);
  await seedOperations(store, reference, customerId, MANY);
  return { api: await h.as(), store, customerId };
}

describe('a list of thousands of operations', () => {
  it(
    'walked page by page, gives every operation once, newest first, each equal to the stored record',
    async () => {
      const { api, store } = await mockWithMany();
      const seen: Operation[] = [];
      let cursor: string | null = null;
      do {
        const res = await api.get(`/v1/operations?limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`).expect(200);
        seen.push(...(res.body.data as Operation[]));
        cursor = res.body.meta.nextCursor as string | null;
      } while (cursor);
      expect(seen.length).toBeGreaterThanOrEqual(MANY);
      expect(new Set(seen.map((op) => op.id)).size).toBe(seen.length);
      for (const op of seen) expect(op).toEqual(await store.get('operation', op.id));
      // Newest first: the seeded operations in reverse order of creation.
      const created = seen.map((op) => Date.parse(op.createdAt));
      expect(created).toEqual([...created].sort((a, b) => b - a));
    },
    BULK_TEST_MS,
  );

  it(
    'an operation stored that breaks the document answers 500 naming its field',
    async () => {
      const { api } = await mockWithMany(async (store, customerId) => {
        await seedOperations(store, h!.mock.deps.reference, customerId, 1);
        const [model] = (await store.page('operation', { scope: customerId, limit: 1, order: 'DESCENDING' })).items;
        const op = model!.record;
        await store.insert('operation', customerId, 'f1b7c0de-0000-4000-8000-000000000001', {
          ...op,
          id: 'f1b7c0de-0000-4000-8000-000000000001',
          nickname: 'not in the document',
        } as never);
      });
      // Oldest first: the demo operations, the model, then the broken one, within the first page.
      const res = await api.get('/v1/operations?limit=100&sortOrder=ASCENDING').expect(500);
      expect(res.body.code).toBe('INTERNAL_ERROR');
      const violations = res.body.details.violations as Array<{ field: string; message: string }>;
      expect(violations).toEqual([{ field: expect.stringMatching(/^body\.data\.\d+\.nickname$/), message: 'is not a known field' }]);
      // Still so the next time: a record that fails is never marked as passed.
      await api.get('/v1/operations?limit=100&sortOrder=ASCENDING').expect(500);
    },
    BULK_TEST_MS,
  );
});
