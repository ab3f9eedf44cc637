// The contract suite's power, measured: deliberate contract breaks, applied to the mock one at a
// time WITHOUT touching its source, each run against the part of the suite that should notice.
// A break the suite does not fail on is a hole in the suite.
//
// How a break is made (all in this process; the mock's files are not edited):
//   - a front app in front of the mock's request listener that rewrites answers (a field dropped, a
//     type changed, a status changed, a header dropped or mangled, a content type changed) or
//     requests (an idempotency key supplied when the client sent none);
//   - createApp options: `handlers` (a handler wrapped: 200 instead of 201, a leaky lookup, a
//     delete that deletes nothing, totals over every page), `store` (a MemoryStore whose quotes
//     are never marked consumed, whose idempotency keys ignore the body), `deliver` (webhooks
//     without X-Event-Type, payloads without atTime), `config` (another token lifetime);
//   - after start: a service or dependency swapped (a cursor codec that does not check its MAC,
//     a token check that does not check signatures).
// Responses are not validated by the mock itself (config.strictResponses=false), or it would turn
// each break into its own 500. The suite runs as for any URL target (CONTRACT_BASE_URL, control
// API on, --runInBand), only the test files named for the break (jest path patterns).
//
// First a baseline: the same files against the unbroken mock (same options) must pass, or a
// "catch" would mean nothing. Then each break must make at least one test fail.
//
//   npx tsx scripts/contract/break-catching.ts [--all] [--only id,id] [--jobs N]
//     --all      run the whole suite for every break (slow), not just the break's files
//     --only     run only these breaks (ids from the table)
//     --jobs N   breaks run N at a time (default 1; each has its own mock and jest process)
import { randomUUID } from 'node:crypto';
import { rmSync } from 'node:fs';
import type { RequestListener } from 'node:http';
import express, { type NextFunction, type Request, type Response } from 'express';
import Decimal from 'decimal.js';
import type { AppOptions, MockApp } from '../../mock/app';
import { CursorCodec, type CursorPosition } from '../../mock/domain/pagination/cursor';
import type { HandlerContext, HandlerResult, HandlerTable } from '../../mock/http/types';
import { handlers as defaultHandlers } from '../../mock/resources/handlers';
import { MemoryStore } from '../../mock/store/memory-store';
import type { IdempotencyClaim } from '../../mock/store/store';
import { deliver as realDeliver } from '../../mock/webhooks/deliver';
import { firstFailureLine, pad, runJest, seconds, startMock, tempDir, type JestRun } from './lib';

// ---------------------------------------------------------------------------------------------
// Ways to break the mock

type Wrap = (app: RequestListener, mock: MockApp) => RequestListener;

/**
 * An app in front of the mock's: `use` runs first on every request of the service API, then the
 * mock answers. The control API (/_mock) is left alone: a break must be caught by what the
 * suite checks of the API, not by its own set-up calls failing.
 */
function front(use: (req: Request, res: Response, next: NextFunction) => void): Wrap {
  return (app) => {
    const outer = express();
    outer.disable('x-powered-by');
    outer.set('etag', false);
    outer.use((req, res, next) => (req.path.startsWith('/_mock') ? next() : use(req, res, next)));
    outer.use(app);
    return outer;
  };
}

interface Answer {
  req: Request;
  status: number;
  /** A deep copy: changing it never changes the mock's stored records. */
  body: any;
}
type Rewritten = { status?: number; body?: unknown; empty?: true; text?: { type: string; body: string } } | void;

/**
 * Rewrites JSON answers. The mock ends every answer with res.end: after writeHead(status,
 * headers) on its front door, after setHeader calls through Express elsewhere. So writeHead is
 * held back until end, where the JSON is parsed, changed and written with its new length.
 */
function rewrite(change: (answer: Answer) => Rewritten): Wrap {
  return front((req, res, next) => {
    const writeHead = res.writeHead.bind(res) as (status: number) => Response;
    const end = res.end.bind(res) as (chunk?: unknown) => Response;
    let heldStatus: number | undefined;
    res.writeHead = ((status: number, ...rest: unknown[]) => {
      heldStatus = status;
      const headers = rest.find((arg) => arg !== null && typeof arg === 'object' && !Array.isArray(arg)) as Record<string, string | number> | undefined;
      for (const [name, value] of Object.entries(headers ?? {})) res.setHeader(name, value);
      return res;
    }) as typeof res.writeHead;
    res.end = ((chunk?: unknown) => {
      const status = heldStatus ?? res.statusCode;
      const json = chunk !== undefined && typeof chunk !== 'function' && /json/i.test(String(res.getHeader('content-type') ?? ''));
      if (!json) return writeHead(status) && end(chunk);
      const body = JSON.parse(String(chunk));
      const out = change({ req, status, body }) ?? {};
      const finalStatus = out.status ?? status;
      if (out.empty) {
        res.removeHeader('content-type');
        res.removeHeader('content-length');
        return writeHead(finalStatus) && end();
      }
      let text = JSON.stringify('body' in out ? out.body : body);
      if (out.text) {
        res.setHeader('content-type', out.text.type);
        text = out.text.body;
      }
      res.setHeader('content-length', Buffer.byteLength(text));
      return writeHead(finalStatus) && end(text);
    }) as typeof res.end;
    next();
  });
}

/** Changes (or with undefined, drops) response headers as the mock sets them. */
function headers(change: (name: string, value: number | string | readonly string[]) => number | string | readonly string[] | undefined): Wrap {
  return front((_req, res, next) => {
    const set = res.setHeader.bind(res);
    res.setHeader = ((name: string, value: number | string | readonly string[]) => {
      const changed = change(name.toLowerCase(), value);
      return changed === undefined ? res : set(name, changed);
    }) as typeof res.setHeader;
    next();
  });
}

/** Every record in a single-record or list answer. */
const records = (body: any): any[] => (body && Array.isArray(body.data) ? body.data : body && typeof body === 'object' ? [body] : []);
const isPage = (body: any) => body && Array.isArray(body.data) && body.meta && typeof body.meta === 'object';
const path = (req: Request) => req.originalUrl.split('?')[0] ?? '';

function withHandlers(change: (table: HandlerTable) => void): HandlerTable {
  const table: HandlerTable = { ...defaultHandlers };
  change(table);
  return table;
}

/** A page walk with the original handler, for a total over every page. */
async function countAll(id: string, ctx: HandlerContext): Promise<number> {
  let total = 0;
  let cursor: string | undefined;
  for (let i = 0; i < 200; i++) {
    const page = await defaultHandlers[id]!({ ...ctx, query: { ...ctx.query, limit: 100, cursor, direction: 'NEXT' } });
    const body = page.body as { data: unknown[]; meta: { nextCursor: string | null } };
    total += body.data.length;
    if (!body.meta.nextCursor) break;
    cursor = body.meta.nextCursor;
  }
  return total;
}

/** A codec that reads the position from a cursor and never checks its MAC (nor which list it came from). */
class TrustingCodec extends CursorCodec {
  override decode(list: string, cursor: string): CursorPosition {
    const [payload] = cursor.split('.');
    const [key, direction, order] = Buffer.from(payload ?? '', 'base64url').toString().split('.');
    const parsed = Number(key);
    if (!Number.isSafeInteger(parsed) || !['N', 'P'].includes(direction ?? '') || !['A', 'D'].includes(order ?? '')) return super.decode(list, cursor);
    return { key: parsed, direction: direction === 'N' ? 'NEXT' : 'PREVIOUS', order: order === 'A' ? 'ASCENDING' : 'DESCENDING' };
  }
}

/** Quotes are checked but never marked consumed: each can fund any number of operations. */
class QuoteNeverConsumedStore extends MemoryStore {
  override async consumeQuote(): Promise<boolean> {
    return true;
  }
}

/** The idempotency key is remembered, but a different request under it replays the first answer. */
class KeyIgnoresBodyStore extends MemoryStore {
  override async claimIdempotencyKey(key: string, fingerprint: string, now: number, ttlMs: number): Promise<IdempotencyClaim> {
    const claim = await super.claimIdempotencyKey(key, fingerprint, now, ttlMs);
    return claim.outcome === 'CLAIMED' ? claim : { ...claim, entry: { ...claim.entry, fingerprint } };
  }
}

const OPAQUE_CURSOR = 'ZW5kLW9mLWxpc3Q.bm90LWEtcmVhbC1tYWM';

// ---------------------------------------------------------------------------------------------
// The breaks

interface Break {
  id: string;
  what: string;
  /** The test files that should notice (contract-tests/<name>.test.ts). */
  files: string[];
  /** createApp options; `mock()` is the app they end up in (for a handler that needs its store). */
  options?: (mock: () => MockApp) => AppOptions;
  wrap?: Wrap;
  /** Changes made to the running mock. */
  after?: (mock: MockApp) => void;
}

const BREAKS: Break[] = [
  {
    id: 'account-drops-null-field',
    what: 'Account without sourceAccountId when it is null (required, nullable)',
    files: ['accounts'],
    wrap: rewrite(({ req, body }) => {
      if (!/^\/(api|v1)\/accounts/.test(path(req))) return;
      for (const a of records(body)) if (a && a.sourceAccountId === null) delete a.sourceAccountId;
      return { body };
    }),
  },
  {
    id: 'amount-value-number',
    what: 'Amount.value a JSON number, not a decimal string (quotes)',
    files: ['quotes'],
    wrap: rewrite(({ req, body }) => {
      if (!path(req).startsWith('/v1/quotes')) return;
      for (const q of records(body)) for (const k of ['sourceAmount', 'targetAmount']) if (q?.[k]?.value !== undefined) q[k].value = Number(q[k].value);
      return { body };
    }),
  },
  {
    id: 'request-id-missing',
    what: 'X-Request-Id never sent',
    files: ['accounts'],
    wrap: headers((name, value) => (name === 'x-request-id' ? undefined : value)),
  },
  {
    id: 'request-id-not-uuid',
    what: 'X-Request-Id not a uuid (req-<time>)',
    files: ['accounts'],
    wrap: headers((name, value) => (name === 'x-request-id' ? `req-${Date.now()}` : value)),
  },
  {
    id: 'create-quote-200',
    what: 'createQuote answers 200 instead of 201',
    files: ['quotes'],
    options: () => ({ handlers: withHandlers((t) => (t.createQuote = async (ctx) => ({ ...(await defaultHandlers.createQuote!(ctx)), status: 200 }))) }),
  },
  {
    id: 'quote-usable-twice',
    what: 'a quote is never marked consumed: it funds any number of operations',
    files: ['quotes'],
    options: () => ({ store: new QuoteNeverConsumedStore() }),
  },
  {
    id: 'total-counts-everything',
    what: 'meta.total counts every record of the list, not the page',
    files: ['pagination'],
    options: () => ({
      handlers: withHandlers((t) => {
        for (const id of Object.keys(t).filter((k) => /^list/.test(k))) {
          t[id] = async (ctx): Promise<HandlerResult> => {
            const page = await defaultHandlers[id]!(ctx);
            if (page.status !== 200) return page;
            const body = page.body as { meta: Record<string, unknown> };
            return { ...page, body: { ...body, meta: { ...body.meta, total: await countAll(id, ctx) } } };
          };
        }
      }),
    }),
  },
  {
    id: 'next-cursor-never-null',
    what: 'meta.nextCursor never null, also on the last page',
    files: ['pagination'],
    wrap: rewrite(({ body }) => {
      if (!isPage(body) || body.meta.nextCursor !== null) return;
      body.meta.nextCursor = OPAQUE_CURSOR;
      return { body };
    }),
  },
  {
    id: 'previous-cursor-on-first-page',
    what: 'meta.previousCursor set on the first page',
    files: ['pagination'],
    wrap: rewrite(({ req, body }) => {
      if (!isPage(body) || req.query.cursor !== undefined || body.meta.previousCursor !== null) return;
      body.meta.previousCursor = OPAQUE_CURSOR;
      return { body };
    }),
  },
  {
    id: 'cursor-not-verified',
    what: 'cursors are not signed-checked: an edited or borrowed cursor is accepted',
    files: ['pagination'],
    after: (mock) => void (mock.deps.codec = new TrustingCodec(mock.deps.config.secret)),
  },
  {
    id: 'tenancy-leak',
    what: 'getAccount answers another customer’s account',
    files: ['tenancy'],
    options: (mock) => ({
      handlers: withHandlers((t) => {
        t.getAccount = async (ctx) => {
          try {
            return await defaultHandlers.getAccount!(ctx);
          } catch (error) {
            const record = await mock().deps.store.get('account', String(ctx.params.accountId));
            if (record) return { status: 200, body: record.account };
            throw error;
          }
        };
      }),
    }),
  },
  {
    id: 'replay-unmarked',
    what: 'an idempotent replay without X-Idempotent-Replayed',
    files: ['idempotency'],
    wrap: headers((name, value) => (name === 'x-idempotent-replayed' ? undefined : value)),
  },
  {
    id: 'key-reused-other-body',
    what: 'an idempotency key reused with a different body replays the first answer (no 422)',
    files: ['idempotency'],
    options: () => ({ store: new KeyIgnoresBodyStore() }),
  },
  {
    id: 'key-not-required',
    what: 'a POST without X-Idempotency-Key is served (the server makes one up)',
    files: ['idempotency'],
    wrap: front((req, _res, next) => {
      if (['POST', 'PATCH', 'PUT'].includes(req.method) && path(req) !== '/api/oauth/client/token' && req.headers['x-idempotency-key'] === undefined) req.headers['x-idempotency-key'] = randomUUID();
      next();
    }),
  },
  {
    id: '401-as-403',
    what: 'a missing or bad token answers 403 instead of 401',
    files: ['auth'],
    wrap: rewrite(({ status }) => (status === 401 ? { status: 403 } : undefined)),
  },
  {
    id: 'signature-not-checked',
    what: 'a bearer token is accepted without checking its signature or expiry',
    files: ['auth'],
    after: (mock) => {
      const tokens = mock.services.tokens;
      const verify = tokens.verify.bind(tokens);
      tokens.verify = async (authorization: string | undefined) => {
        try {
          return await verify(authorization);
        } catch (error) {
          const token = /^Bearer (\S+)$/.exec(authorization ?? '')?.[1];
          try {
            const sub = JSON.parse(Buffer.from(token?.split('.')[1] ?? '', 'base64url').toString()).sub;
            const customer = await mock.deps.store.get('customer', String(sub));
            if (customer && !customer.deleted) return customer.id;
          } catch {
            // not even a JWT: refused as before
          }
          throw error;
        }
      };
    },
  },
  {
    id: 'token-lifetime-3600',
    what: 'tokens live 3600 s (expiresIn 3600, not 82800)',
    files: ['auth'],
    options: () => ({ config: { tokenLifetimeSeconds: 3600 } }),
  },
  {
    id: 'unknown-id-200-empty',
    what: 'an unknown id answers 200 with an empty body instead of 404',
    files: ['tenancy'],
    wrap: rewrite(({ req, status }) => (status === 404 && req.method === 'GET' ? { status: 200, empty: true } : undefined)),
  },
  {
    id: 'webhook-no-event-type',
    what: 'webhook deliveries without X-Event-Type',
    files: ['webhooks'],
    options: () => ({
      deliver: (d) => {
        const { 'x-event-type': _dropped, ...rest } = d.headers;
        return realDeliver({ ...d, headers: rest });
      },
    }),
  },
  {
    id: 'webhook-no-attime',
    what: 'webhook payloads without atTime',
    files: ['webhooks'],
    options: () => ({
      deliver: (d) => {
        const payload = JSON.parse(d.body) as Record<string, unknown>;
        delete payload.atTime;
        return realDeliver({ ...d, body: JSON.stringify(payload) });
      },
    }),
  },
  {
    id: 'log-status-ok',
    what: 'execution logs say status OK instead of SUCCESS',
    files: ['webhooks'],
    wrap: rewrite(({ req, body }) => {
      if (!/\/executionLogs/.test(path(req))) return;
      for (const log of records(body)) if (log?.status === 'SUCCESS') log.status = 'OK';
      return { body };
    }),
  },
  {
    id: 'error-without-code',
    what: 'error bodies without `code`',
    files: ['subscriptions'],
    wrap: rewrite(({ status, body }) => {
      if (status < 400 || !body || typeof body !== 'object') return;
      delete body.code;
      return { body };
    }),
  },
  {
    id: 'deposit-without-payload',
    what: 'a deposit’s fundingInstruction without its PIX payload',
    files: ['operations'],
    wrap: rewrite(({ req, body }) => {
      if (!path(req).startsWith('/v1/operations')) return;
      for (const op of records(body)) if (op?.intent?.type === 'DEPOSIT' && op.intent.fundingInstruction) delete op.intent.fundingInstruction.payload;
      return { body };
    }),
  },
  {
    id: 'operation-status-pending',
    what: 'a new operation is PENDING (a value the document does not know) instead of REQUESTED',
    files: ['operations'],
    wrap: rewrite(({ req, body }) => {
      if (!path(req).startsWith('/v1/operations')) return;
      for (const op of records(body)) if (op?.currentState?.status === 'REQUESTED') op.currentState.status = 'PENDING';
      return { body };
    }),
  },
  {
    id: 'quote-rounds-up',
    what: 'a quote’s target amount rounded up instead of down',
    files: ['quotes'],
    wrap: rewrite(({ req, body }) => {
      if (!path(req).startsWith('/v1/quotes')) return;
      for (const q of records(body)) {
        if (!q?.sourceAmount || !q.targetAmount || !q.rate) continue;
        const scale = q.targetAmount.decimals as number;
        q.targetAmount.value = new Decimal(q.sourceAmount.value).times(q.rate).toDecimalPlaces(scale, Decimal.ROUND_UP).toFixed(scale);
      }
      return { body };
    }),
  },
  {
    id: 'teapot-418',
    what: 'listReferenceResources answers 418 (a status the document does not give it)',
    files: ['subscriptions'],
    options: () => ({ handlers: withHandlers((t) => (t.listReferenceResources = async () => ({ status: 418, body: { code: 'I_AM_A_TEAPOT', message: 'I am a teapot.' } }))) }),
  },
  {
    id: 'json-as-text-plain',
    what: 'the subscription list sent as text/plain (a JSON body under a non-JSON content type)',
    files: ['subscriptions'],
    wrap: rewrite(({ req, body }) => (req.method === 'GET' && path(req) === '/v1/subscriptions' ? { text: { type: 'text/plain', body: JSON.stringify(body) } } : undefined)),
  },
  {
    id: 'delete-is-a-no-op',
    what: 'deleteSubscription answers 204 and deletes nothing',
    files: ['subscriptions'],
    options: () => ({
      handlers: withHandlers((t) => {
        t.deleteSubscription = async ({ customerId, params, services }) => {
          await services.subscriptions.get(customerId, String(params.subscriptionId));
          return { status: 204 };
        };
      }),
    }),
  },
];

// ---------------------------------------------------------------------------------------------
// Running them

interface Outcome {
  brk: Break;
  run: JestRun;
  caught: boolean;
  first?: { name: string; line: string };
}

const BASE: AppOptions = { config: { strictResponses: false, logLevel: 'silent' } };

async function runAgainst(brk: Pick<Break, 'options' | 'wrap' | 'after'>, patterns: string[]): Promise<JestRun> {
  let current: MockApp | undefined;
  const options = brk.options?.(() => {
    if (!current) throw new Error('break-catching: the mock is not running yet');
    return current;
  }) ?? {};
  const running = await startMock({ ...BASE, ...options, config: { ...BASE.config, ...options.config } }, brk.wrap);
  current = running.mock;
  brk.after?.(running.mock);
  const reportDir = tempDir('breaks');
  try {
    return await runJest({
      patterns,
      args: ['--reporters=default'],
      env: {
        CONTRACT_BASE_URL: running.url,
        CONTRACT_CONTROL_URL: undefined,
        CONTRACT_PROXY: undefined,
        CONTRACT_CLIENT_ID: undefined,
        CONTRACT_CLIENT_SECRET: undefined,
        CONTRACT_REPORT_DIR: reportDir,
      },
    });
  } finally {
    await running.close();
    rmSync(reportDir, { recursive: true, force: true });
  }
}

const patternsFor = (files: string[], all: boolean) => (all ? ['contract-tests'] : files.map((f) => `contract-tests/${f}\\.test\\.ts$`));

async function pool<T, R>(items: T[], jobs: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.max(1, jobs) }, async () => {
      while (next < items.length) {
        const i = next++;
        out[i] = await work(items[i]!);
      }
    }),
  );
  return out;
}

function argValue(name: string): string | undefined {
  const at = process.argv.indexOf(name);
  return at >= 0 ? process.argv[at + 1] : undefined;
}

async function main(): Promise<number> {
  const all = process.argv.includes('--all');
  const jobs = Number(argValue('--jobs') ?? 1);
  const only = argValue('--only')?.split(',');
  const breaks = only ? BREAKS.filter((b) => only.includes(b.id)) : BREAKS;
  if (only && breaks.length !== only.length) throw new Error(`unknown break id in --only: ${only.filter((id) => !BREAKS.some((b) => b.id === id)).join(', ')}`);
  const started = Date.now();

  // Baseline: the unbroken mock, with the same options, passes every file the breaks will use.
  const files = [...new Set(breaks.flatMap((b) => b.files))];
  process.stdout.write(`baseline: the unbroken mock (strict responses off) against ${all ? 'the whole suite' : files.join(', ')} ...\n`);
  const baseline = await runAgainst({}, patternsFor(files, all));
  if (baseline.failed || baseline.brokenFiles.length || baseline.code !== 0 || baseline.passed === 0) {
    process.stdout.write(`${baseline.output.slice(-6000)}\nBASELINE FAILED (${baseline.failed} failed, ${baseline.brokenFiles.length} files broken): a caught break would mean nothing. Fix the suite or the mock first.\n`);
    return 1;
  }
  process.stdout.write(`baseline: ${baseline.passed} passed, ${baseline.skipped} skipped in ${seconds(baseline.ms)}\n\n`);

  const outcomes = await pool(breaks, jobs, async (brk): Promise<Outcome> => {
    const run = await runAgainst(brk, patternsFor(brk.files, all));
    const failed = run.tests.find((t) => t.status === 'failed');
    const caught = run.failed > 0 || run.brokenFiles.length > 0 || run.code !== 0;
    const first = failed ? { name: `${failed.file.replace(/^contract-tests\//, '')}: ${failed.fullName}`, line: firstFailureLine(failed) } : run.brokenFiles[0] ? { name: run.brokenFiles[0].file, line: run.brokenFiles[0].message.split('\n')[0] ?? '' } : undefined;
    process.stdout.write(`${caught ? 'caught  ' : 'MISSED  '} ${pad(brk.id, 30)} ${run.failed}/${run.total} failed, ${seconds(run.ms)}\n`);
    return { brk, run, caught, first };
  });

  const caught = outcomes.filter((o) => o.caught).length;
  const lines = ['', '| # | break | caught? | tests failed | first failing test | what it said |', '|---|---|---|---|---|---|'];
  outcomes.forEach((o, i) => {
    const cell = (t: string) => t.replace(/\|/g, '\\|').replace(/\n/g, ' ');
    lines.push(`| ${i + 1} | \`${o.brk.id}\`: ${cell(o.brk.what)} | ${o.caught ? 'yes' : '**NO**'} | ${o.run.failed}/${o.run.total} | ${cell(o.first?.name ?? '-')} | ${cell(o.first?.line ?? '-')} |`);
  });
  lines.push('', `${caught}/${outcomes.length} breaks caught (${((100 * caught) / outcomes.length).toFixed(0)}%); baseline ${baseline.passed} tests green; total time ${seconds(Date.now() - started)}${all ? ' (whole suite per break)' : ' (the break’s files per break)'}.`);
  const missed = outcomes.filter((o) => !o.caught);
  if (missed.length) lines.push(`NOT CAUGHT: ${missed.map((o) => o.brk.id).join(', ')}: the suite has a hole there.`);
  process.stdout.write(`${lines.join('\n')}\n`);
  return missed.length ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`${(error as Error)?.stack ?? error}\n`);
    process.exit(1);
  },
);
