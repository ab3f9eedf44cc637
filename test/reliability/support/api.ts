// Small API steps the reliability tests repeat: quotes, operations, list walks, balances.
import { expect } from '@jest/globals';
import type { Harness } from '../../http/harness';
import type { Schemas } from '../../../mock/domain/records';
import type { Answer, Client } from './http-client';

export interface QuoteBody {
  accountId: string;
  sourceAsset: string;
  targetAsset: string;
  sourceAmount?: string;
  targetAmount?: string;
}

/** Answers with a status other than the one expected fail with the whole answer shown. */
export function expectStatus(answer: Answer, status: number, what: string): Answer {
  if (answer.status !== status) throw new Error(`${what}: expected ${status}, got ${answer.status} ${answer.text.slice(0, 500)}`);
  return answer;
}

export async function createQuote(api: Client, body: QuoteBody): Promise<Schemas['Quote']> {
  return expectStatus(await api.post('/v1/quotes', body), 201, `quote ${JSON.stringify(body)}`).body;
}

/** Every item of a list, following nextCursor (limit 100); `T` is the list's item type. */
export async function walkAll<T>(api: Client, path: string): Promise<T[]> {
  const items: T[] = [];
  const join = path.includes('?') ? '&' : '?';
  let cursor: string | null = null;
  do {
    const page: Answer = expectStatus(
      await api.get(`${path}${join}limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`),
      200,
      `walk ${path}`,
    );
    items.push(...page.body.data);
    cursor = page.body.meta.nextCursor;
  } while (cursor);
  return items;
}

/** The store's balance of every account of the demo data, per asset: `${accountId}:${asset}` → decimal string. */
export async function balancesOf(h: Harness, accountIds: string[]): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const accountId of accountIds) {
    for (const [asset, value] of Object.entries(await h.mock.deps.store.balances(accountId))) out.set(`${accountId}:${asset}`, value);
  }
  return out;
}

export function expectNoSettleErrorsBut(results: PromiseSettledResult<unknown>[], allowedCodes: string[]): void {
  for (const r of results) {
    if (r.status === 'rejected') expect(allowedCodes).toContain((r.reason as { code?: string }).code);
  }
}
