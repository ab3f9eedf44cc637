// A list walked to its end with its cursors, as a client iterates it: each page's envelope, every
// record once, in the order asked for, and (where the run knows them) every record it made.
import type { HttpAnswer } from '../scenarios/http';
import { code, injected, type RunContext } from './run-context';

interface Page {
  data?: Array<{ id?: unknown; createdAt?: unknown; currentState?: { status?: unknown } }>;
  meta?: { nextCursor?: unknown; previousCursor?: unknown; total?: unknown };
}

export interface Walked {
  /** Every record seen, in order; undefined when a page was refused (the walk ends there). */
  records?: NonNullable<Page['data']>;
  last?: HttpAnswer;
}

/** Pages at most in one walk: a cursor that never ends is a failure, not a hang. */
const MAX_PAGES = 200;

/** `sortOrder` undefined: none sent, and the document's default (DESCENDING) expected. */
export async function walk(
  run: RunContext,
  path: string,
  limit: number,
  sortOrder: 'ASCENDING' | 'DESCENDING' | undefined,
): Promise<Walked> {
  const records: NonNullable<Page['data']> = [];
  const seen = new Set<unknown>();
  // Each page's cursor is saved by name and sent back as a template, as a client does: the
  // written scenario (and a second target) walks its own cursors, never this run's.
  let cursor: string | undefined;
  for (let page = 1; page <= MAX_PAGES; page++) {
    const query = `limit=${limit}${sortOrder ? `&sortOrder=${sortOrder}` : ''}${cursor ? `&cursor={{${cursor}}}&direction=NEXT` : ''}`;
    const next = run.freshName('cursor');
    const step = { call: `GET ${path}${path.includes('?') ? '&' : '?'}${query}`, save: { [next]: 'body.meta.nextCursor' } };
    // Faults the run injected answer some requests: the walk asks again, as a client retries.
    let answer = await run.do(step);
    for (let retry = 0; retry < 10 && injected(answer); retry++) answer = await run.do(step);
    if (answer.status !== 200) return { last: answer };
    const body = answer.body as Page;
    const data = Array.isArray(body.data) ? body.data : [];
    const where = `${path} page ${page}`;
    if (body.meta?.total !== data.length)
      run.fail('pages.complete', `${where}: meta.total is ${String(body.meta?.total)} for ${data.length} records`);
    if (page === 1 && body.meta?.previousCursor !== null)
      run.fail('pages.complete', `${where}: the first page's previousCursor is not null`);
    if (data.length > limit) run.fail('pages.complete', `${where}: ${data.length} records on a page of limit ${limit}`);
    for (const record of data) {
      if (seen.has(record.id)) run.fail('pages.complete', `${where}: ${String(record.id)} was already on an earlier page`);
      const previous = records[records.length - 1];
      if (previous && outOfOrder(previous.createdAt, record.createdAt, sortOrder ?? 'DESCENDING'))
        run.fail(
          'pages.complete',
          `${where}: ${String(record.id)} (${String(record.createdAt)}) is out of ${sortOrder ?? 'DESCENDING'} order ` +
            `after ${String(previous.createdAt)}`,
        );
      seen.add(record.id);
      records.push(record);
    }
    const nextCursor = body.meta?.nextCursor;
    if (nextCursor === null || nextCursor === undefined) return { records, last: answer };
    if (typeof nextCursor !== 'string') run.fail('pages.complete', `${where}: nextCursor is ${JSON.stringify(nextCursor)}`);
    if (data.length === 0) run.fail('pages.complete', `${where}: an empty page with a nextCursor`);
    cursor = next;
  }
  return run.fail('pages.complete', `${path}: still a nextCursor after ${MAX_PAGES} pages`);
}

function outOfOrder(before: unknown, after: unknown, sortOrder: string): boolean {
  if (typeof before !== 'string' || typeof after !== 'string') return false;
  const [a, b] = [Date.parse(before), Date.parse(after)];
  return sortOrder === 'ASCENDING' ? b < a : b > a;
}

/** Every id the run knows must be in the walk; a foreign one never. */
export function checkMembers(run: RunContext, path: string, walked: Walked, known: string[], foreign: string[]): void {
  if (!walked.records) {
    const last = walked.last;
    if (last && last.status < 500 && !injected(last)) run.fail('pages.complete', `GET ${path} answered ${last.status}${code(last)}`);
    return;
  }
  const ids = new Set(walked.records.map((r) => r.id));
  const missing = known.filter((id) => !ids.has(id));
  if (missing.length > 0)
    run.fail(
      'pages.complete',
      `GET ${path} walked to its end lacks ${missing.length} record(s) the run made: ${missing.slice(0, 3).join(', ')}`,
    );
  const leaked = foreign.filter((id) => ids.has(id));
  if (leaked.length > 0) run.fail('tenancy.isolation', `GET ${path} lists another customer's record ${leaked[0]}`);
}
