// Cursor pagination on every list: walks with limit 1 and 100 agree (no duplicates, no gaps),
// PREVIOUS returns the prior page, records added during a walk neither repeat nor vanish,
// limits outside 1..100 and forged cursors are refused.
import { describe, expect, it } from '@jest/globals';
import { capabilities, describeWhen, itEachWhen, itWhen } from './support/capabilities';
import type { ApiClient, ApiResponse } from './support/client';
import { operationEvents } from './support/samples';
import { beforeAllWhen, useSession } from './support/session';
import { contract } from './support/target';
import type { Page, Subscription } from './support/types';

const session = useSession();

type Keyed = { id?: string; name?: string };
const keyOf = (record: Keyed) => record.id ?? record.name!;

interface Walk {
  pages: Array<Page<Keyed>>;
  keys: string[];
  complete: boolean;
}

/**
 * Two walks of one list agree. A customer of its own (the in-process mock, or a fresh customer
 * from the control API) must give the same walk twice; a customer shared with other test
 * files may gain or lose records in between, so there only the common records must keep their
 * order.
 */
function expectSameWalk(earlier: string[], later: string[], exact = capabilities().inProcess || capabilities().control) {
  if (exact) {
    expect(later).toEqual(earlier);
    return;
  }
  const common = later.filter((key) => earlier.includes(key));
  expect(common).toEqual(earlier.filter((key) => common.includes(key)));
}

/** Follows nextCursor from the first page (at most `maxPages` pages). */
async function walk(
  api: ApiClient,
  path: string,
  limit: number,
  query: Record<string, string> = {},
  maxPages = 40,
  between?: (page: number) => Promise<void>,
): Promise<Walk> {
  const pages: Array<Page<Keyed>> = [];
  let cursor: string | null = null;
  for (let i = 0; i < maxPages; i++) {
    const res: ApiResponse<Page<Keyed>> = await api.get<Page<Keyed>>(path, {
      query: { ...query, limit, ...(cursor ? { cursor, direction: 'NEXT' } : {}) },
    });
    expect(res.status).toBe(200);
    pages.push(res.body);
    cursor = res.body.meta.nextCursor;
    if (!cursor) break;
    await between?.(i);
  }
  return { pages, keys: pages.flatMap((p) => p.data.map(keyOf)), complete: cursor === null };
}

const lists = contract()
  .operations.filter(
    (op) => op.method === 'get' && op.pathParams.length === 0 && op.responses.get('200')?.hasBody && /^list/.test(op.operationId),
  )
  .map((op) => [op.operationId, op.path] as const);

const mySubscriptions: string[] = [];

beforeAllWhen(['stateful'], async () => {
  const { api, onClose } = session();
  // Enough records in one list to walk several pages, whatever the customer held before.
  for (let i = 0; i < 5; i++) {
    const res = await api.post<Subscription>('/api/subscriptions', {
      url: `https://hooks.example.com/pagination/${i}`,
      resources: operationEvents,
    });
    expect(res.status).toBe(201);
    mySubscriptions.push(res.body.id);
  }
  onClose(async () => {
    for (const id of mySubscriptions) await api.delete(`/v1/subscriptions/${id}`);
  });
});

describe('walking every list', () => {
  it('covers every list operation of the document', () => {
    expect(lists.map(([id]) => id).sort()).toEqual([
      'listAccounts',
      'listBeneficiaries',
      'listOperations',
      'listReferenceEventTypes',
      'listReferenceResources',
      'listSubscriptions',
    ]);
  });

  itEachWhen(['stateful'], lists)(
    'When %s is walked one record at a time, then it sees what pages of 100 see, once each [PAGE-WALK, PAGE-TOTAL, PAGE-CURSOR-ENDS]',
    async (_id, path) => {
      const { api } = session();
      const big = await walk(api, path, 100, {}, 5);
      const small = await walk(api, path, 1, {}, 40);
      expect(new Set(small.keys).size).toBe(small.keys.length);
      expect(new Set(big.keys).size).toBe(big.keys.length);
      if (small.complete && big.complete) expectSameWalk(big.keys, small.keys);
      else expectSameWalk(big.keys, small.keys, false);
      for (const page of small.pages) {
        expect(page.meta.total).toBe(page.data.length);
        expect(page.data.length).toBeLessThanOrEqual(1);
      }
      expect(small.pages[0]!.meta.previousCursor).toBeNull();
      if (small.complete) expect(small.pages.at(-1)!.meta.nextCursor).toBeNull();
    },
  );

  itEachWhen(['stateful'], lists)(
    'When %s is asked without a limit, then a page holds at most 10 records [PAGE-LIMIT, PAGE-TOTAL]',
    async (_id, path) => {
      const res = await session().api.get<Page<Keyed>>(path);
      expect(res.status).toBe(200);
      expect(res.body.data.length).toBeLessThanOrEqual(10);
      expect(res.body.meta.total).toBe(res.body.data.length);
    },
  );
});

describeWhen(['stateful'], 'moving back', () => {
  it.each([
    ['listReferenceEventTypes', '/v1/reference/eventTypes'],
    ['listSubscriptions', '/v1/subscriptions'],
  ])('When %s follows previousCursor with PREVIOUS, then it gets the prior page again [PAGE-WALK]', async (_id, path) => {
    const { api } = session();
    const forward = await walk(api, path, 2, {}, 10);
    expect(forward.pages.length).toBeGreaterThanOrEqual(3);
    for (let i = 1; i < forward.pages.length; i++) {
      const cursor = forward.pages[i]!.meta.previousCursor;
      expect(cursor).not.toBeNull();
      const back = await api.get<Page<Keyed>>(path, { query: { limit: 2, cursor: cursor!, direction: 'PREVIOUS' } });
      expect(back.status).toBe(200);
      expect(back.body.data.map(keyOf)).toEqual(forward.pages[i - 1]!.data.map(keyOf));
    }
  });

  it(
    'When a walk goes back from the last page to the first, ' +
      'then it meets every page again and the first has no previousCursor [PAGE-WALK, PAGE-CURSOR-ENDS]',
    async () => {
      const { api } = session();
      const path = '/v1/reference/eventTypes';
      const forward = await walk(api, path, 5);
      expect(forward.complete).toBe(true);
      let page = forward.pages.at(-1)!;
      const back: string[][] = [];
      while (page.meta.previousCursor) {
        page = (await api.get<Page<Keyed>>(path, { query: { limit: 5, cursor: page.meta.previousCursor, direction: 'PREVIOUS' } })).body;
        back.push(page.data.map(keyOf));
        expect(back.length).toBeLessThanOrEqual(forward.pages.length);
      }
      expect(back).toEqual(
        forward.pages
          .slice(0, -1)
          .map((p) => p.data.map(keyOf))
          .reverse(),
      );
      const onward = await api.get<Page<Keyed>>(path, { query: { limit: 5, cursor: page.meta.nextCursor!, direction: 'NEXT' } });
      expect(onward.body.data.map(keyOf)).toEqual(forward.pages[1]!.data.map(keyOf));
    },
  );

  it('When the list is read ASCENDING, then it is the DESCENDING walk reversed [PAGE-SORT]', async () => {
    const { api } = session();
    const desc = await walk(api, '/v1/subscriptions', 3, { sortOrder: 'DESCENDING' });
    const asc = await walk(api, '/v1/subscriptions', 3, { sortOrder: 'ASCENDING' });
    expect(desc.complete && asc.complete).toBe(true);
    const own = (keys: string[]) => keys.filter((key) => mySubscriptions.includes(key));
    expect(own(asc.keys)).toEqual(own([...desc.keys].reverse()));
    expectSameWalk([...desc.keys].reverse(), asc.keys);
  });
});

describeWhen(['stateful'], 'records added during a walk', () => {
  it.each(['DESCENDING', 'ASCENDING'])(
    'When subscriptions are added while walking %s, then no record repeats and none of the first ones vanishes [PAGE-WALK]',
    async (order) => {
      const { api } = session();
      const before = (await walk(api, '/v1/subscriptions', 100, { sortOrder: order })).keys.filter((key) => mySubscriptions.includes(key));
      const added: string[] = [];
      const during = await walk(api, '/v1/subscriptions', 2, { sortOrder: order }, 40, async (page) => {
        if (page > 1) return;
        const res = await api.post<Subscription>('/api/subscriptions', {
          url: `https://hooks.example.com/added/${order}/${page}`,
          resources: operationEvents,
        });
        added.push(res.body.id);
        mySubscriptions.push(res.body.id);
      });
      expect(during.complete).toBe(true);
      expect(new Set(during.keys).size).toBe(during.keys.length);
      for (const key of before) expect(during.keys).toContain(key);
      // Newest first: the new records sort before the cursor, so this walk does not meet them.
      if (order === 'DESCENDING') for (const key of added) expect(during.keys).not.toContain(key);
    },
  );
});

describe('refused parameters', () => {
  const cases = lists.flatMap(([id, path]) => ['0', '101', '-1', 'ten', '2.5'].map((limit) => [id, limit, path] as const));
  itEachWhen(['stateful'], cases)(
    'When %s is asked for limit=%s, then it answers 400 VALIDATION_ERROR naming query.limit [PAGE-LIMIT]',
    async (_id, limit, path) => {
      const res = await session().api.get(path, { query: { limit } });
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('VALIDATION_ERROR');
      expect(res.body.details.fields.map((f: { field: string }) => f.field)).toContain('query.limit');
    },
  );

  itEachWhen(
    ['stateful'],
    [
      ['direction', 'SIDEWAYS'],
      ['sortOrder', 'RANDOM'],
    ],
  )('When %s is %s, then it answers 400 VALIDATION_ERROR [VALIDATION-400]', async (name, value) => {
    const res = await session().api.get('/v1/subscriptions', { query: { [name]: value } });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('VALIDATION_ERROR');
  });

  // The event-type look-up is the one list every customer has with more than 10 records (the
  // seed's 12 event types), so the default page size shows there without creating anything.
  itWhen(['stateful'], 'When a list of more than 10 is read without a limit, then its first page holds 10 [PAGE-LIMIT]', async () => {
    const { api } = session();
    const everything = await api.get<Page<Keyed>>('/v1/reference/eventTypes', { query: { limit: 100 } });
    expect(everything.body.data.length).toBeGreaterThan(10);
    const first = await api.get<Page<Keyed>>('/v1/reference/eventTypes');
    expect(first.status).toBe(200);
    expect(first.body.data.map(keyOf)).toEqual(everything.body.data.slice(0, 10).map(keyOf));
    expect(first.body.meta).toMatchObject({ total: 10, previousCursor: null });
    expect(first.body.meta.nextCursor).not.toBeNull();
  });

  it('When the limit is 1 or 100, then it is accepted [PAGE-LIMIT]', async () => {
    const { api } = session();
    expect((await api.get('/v1/subscriptions', { query: { limit: 1 } })).status).toBe(200);
    expect((await api.get('/v1/subscriptions', { query: { limit: 100 } })).status).toBe(200);
  });

  itWhen(
    ['stateful'],
    'When a cursor is forged, edited, truncated or borrowed from another list, then it answers 400 INVALID_CURSOR [PAGE-CURSOR-SIGNED]',
    async () => {
      const { api } = session();
      const page = await api.get<Page<Keyed>>('/v1/subscriptions', { query: { limit: 1 } });
      const cursor = page.body.meta.nextCursor!;
      const flip = (c: string, at: number) => c.slice(0, at) + (c[at] === 'A' ? 'B' : 'A') + c.slice(at + 1);
      const borrowed = (await api.get<Page<Keyed>>('/v1/reference/eventTypes', { query: { limit: 1 } })).body.meta.nextCursor!;
      for (const forged of ['made-up', flip(cursor, cursor.length - 1), flip(cursor, 0), cursor.slice(0, -3), `${cursor}x`, borrowed]) {
        const res = await api.get('/v1/subscriptions', { query: { limit: 1, cursor: forged } });
        expect([res.status, res.body.code, forged]).toEqual([400, 'INVALID_CURSOR', forged]);
      }
    },
  );

  itWhen(
    ['stateful'],
    'When a cursor is longer than the document allows, then it answers 400 VALIDATION_ERROR [VALIDATION-400]',
    async () => {
      const res = await session().api.get('/v1/subscriptions', { query: { cursor: 'x'.repeat(600) } });
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('VALIDATION_ERROR');
    },
  );
});
