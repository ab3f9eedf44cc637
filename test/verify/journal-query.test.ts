// GET /_mock/journal's filters: method, path as a template or a pattern, status or its
// class, a range of mock time; and the pure rules verification is made of.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { pathMatcher, statusMatches } from '../../mock/http/journal-query';
import { countHolds, parseJsonPath, valueAt, valueTest, verify } from '../../mock/http/verification';
import { startMock, type Harness } from '../http/harness';
import { control } from '../control/support';
import { newCustomer, quoteFor } from './support';

let h: Harness;
beforeAll(async () => {
  h = await startMock();
});
afterAll(() => h?.close());

const journal = async (query: string) =>
  (await control(h).get(`/journal?${query}`).expect(200)).body.data.map(
    (e: { method: string; path: string; status: number }) => `${e.method} ${e.status}`,
  );

describe('GET /_mock/journal filtered', () => {
  it('by customer, method, template path, status class and mock time', async () => {
    const alice = await newCustomer(h);
    const q = (await quoteFor(alice, '10.00').expect(201)).body;
    await alice.api.get(`/v1/quotes/${q.id}`).expect(200);
    await control(h).post('/clock/advance', { by: '1m' }).expect(200);
    await alice.api.get('/v1/quotes/00000000-0000-4000-8000-000000000000').expect(404);
    const mine = `customerId=${alice.customerId}`;
    expect(await journal(mine)).toEqual(['GET 404', 'GET 200', 'POST 201']);
    expect(await journal(`${mine}&method=POST`)).toEqual(['POST 201']);
    expect(await journal(`${mine}&path=${encodeURIComponent('/v1/quotes/{quoteId}')}`)).toEqual(['GET 404', 'GET 200']);
    expect(await journal(`${mine}&status=4xx`)).toEqual(['GET 404']);
    const { now } = (await control(h).get('/clock').expect(200)).body;
    expect(await journal(`${mine}&from=${encodeURIComponent(now)}`)).toEqual(['GET 404']);
    expect(await journal(`${mine}&to=${encodeURIComponent(new Date(Date.parse(now) - 1).toISOString())}`)).toEqual(['GET 200', 'POST 201']);
    // Without a customer: the journal of everyone, filtered the same way.
    expect(await journal('path=/v1/quotes/**&status=404&limit=1')).toEqual(['GET 404']);
  });

  it('a status that is neither a code nor a class is a 400 naming it', async () => {
    const res = await control(h).get('/journal?status=5x').expect(400);
    expect(res.body.details.fields[0].field).toBe('query.status');
  });
});

describe('the rules verification is made of', () => {
  it('a template’s {name} is one segment, as * is', () => {
    expect(pathMatcher('/v1/operations/{operationId}').test('/v1/operations/abc')).toBe(true);
    expect(pathMatcher('/v1/operations/{operationId}').test('/v1/operations/abc/x')).toBe(false);
    expect(pathMatcher('/v1/**').test('/v1/operations/abc/x/')).toBe(true);
    expect(statusMatches('2xx', 204)).toBe(true);
    expect(statusMatches('201', 200)).toBe(false);
  });

  it('JSON paths read fields, indexes and quoted keys; a string equals a number written the same', () => {
    const body = { data: { items: [{ 'odd key': 7 }] } };
    expect(valueAt(body, parseJsonPath('$.data.items[0]["odd key"]', 'f'))).toBe(7);
    expect(valueAt(body, parseJsonPath('$', 'f'))).toBe(body);
    expect(valueTest({ equals: '7' }, 'f').test(7)).toBe(true);
    expect(valueTest({ equals: { a: [1, 2] } }, 'f').test({ a: [1, 2] })).toBe(true);
    expect(valueTest({ equals: { a: [1, 2] } }, 'f').test({ a: [2, 1] })).toBe(false);
    expect(valueTest({ contains: 'BR' }, 'f').test(undefined)).toBe(false);
  });

  it('counts: absent is at least one; between; near misses only when too few matched, closest first', () => {
    expect(countHolds({}, 0)).toBe(false);
    expect(countHolds({ atLeast: 1, atMost: 2 }, 2)).toBe(true);
    const checks = [
      (n: number) => (n % 2 === 0 ? undefined : { field: 'even', expected: 'even' }),
      (n: number) => (n > 2 ? undefined : { field: 'big', expected: '> 2' }),
    ];
    const verdict = verify([1, 2, 3, 4], checks, { exactly: 2 }, 3);
    expect(verdict).toMatchObject({ ok: false, count: 1, matches: [4] });
    expect(verdict.nearMisses.map((miss) => miss.item)).toEqual([2, 3]);
  });
});
