// Steps that meet one rule each: a quote an operation cannot use (unknown, another account's, past
// its expiry), a list without sortOrder (the document's default order), and execution logs
// filtered (every log kept matches; an expression that does not parse is INVALID_FILTER).
import { randomUUID } from 'node:crypto';
import { Act, accepted } from './act';
import { mutating } from './acts-money';
import { nextName, pick, type Model } from './model';
import { walk } from './pages';
import { code, HOOK_SUBSCRIPTION, injected, type RunContext } from './run-context';

export const MISUSES = ['unknown', 'other-account', 'expired'] as const;
export type Misuse = (typeof MISUSES)[number];

const QUOTE_WORDS: Record<Misuse, string> = { unknown: 'nobody made', 'other-account': 'of another account', expired: 'past its expiry' };
const WANTED: Record<Misuse, string> = { unknown: 'QUOTE_NOT_FOUND', 'other-account': 'QUOTE_ACCOUNT_MISMATCH', expired: 'QUOTE_EXPIRED' };

export class QuoteMisuse extends Act {
  constructor(
    readonly how: Misuse,
    /** The clock can be moved (a fresh customer on a fos-mock): needed for an expired quote. */
    readonly clock: boolean,
  ) {
    super();
  }
  check(model: Readonly<Model>): boolean {
    return model.accounts.length > 1 && (this.how !== 'expired' || this.clock);
  }
  async run(model: Model, run: RunContext): Promise<void> {
    const [first, second] = model.accounts as [string, string];
    let quoteId: string = randomUUID();
    let account = first;
    if (this.how !== 'unknown') {
      const name = nextName(model, 'q');
      const made = await run.do({
        ...mutating('POST /v1/quotes', { accountId: first, sourceAsset: 'BRL', targetAsset: 'BRL', sourceAmount: '1.00' }),
        save: { [name]: 'body.id' },
      });
      if (!accepted(made) || !(name in run.saved)) return;
      quoteId = `{{${name}}}`;
      if (this.how === 'other-account') account = second;
      // Past a quote's life (30 s, the mock's default; 2 h is far beyond), within a key's (24 h).
      if (this.how === 'expired') {
        if ((await run.do({ clock: '2h' })).status !== 200) return;
        model.clockMs += 2 * 3_600_000;
        for (const quote of model.quotes) quote.stale = true;
      }
    }
    const answer = await run.do(
      mutating('POST /v1/operations/deposits', { accountId: account, quoteId, fundingInstruction: { rail: 'PIX' } }),
    );
    if (injected(answer) || answer.status >= 500) return;
    if (code(answer).trim() !== WANTED[this.how])
      run.fail(
        'quote.refusals',
        `a deposit on a quote ${QUOTE_WORDS[this.how]} answered ${answer.status}${code(answer)}, not 422 ${WANTED[this.how]}`,
      );
  }
  toString(): string {
    return `quote(${this.how})`;
  }
}

/** A list asked for without sortOrder is the DESCENDING list, record for record. */
export class DefaultOrder extends Act {
  constructor(readonly limit: number) {
    super();
  }
  check(): boolean {
    return true;
  }
  async run(_model: Model, run: RunContext): Promise<void> {
    const plain = await walk(run, '/api/accounts', this.limit, undefined);
    const descending = await walk(run, '/api/accounts', this.limit, 'DESCENDING');
    if (!plain.records || !descending.records) return;
    const ids = (records: typeof plain.records) => (records ?? []).map((r) => String(r.id)).join(', ');
    if (ids(plain.records) !== ids(descending.records))
      run.fail(
        'pages.complete',
        `GET /api/accounts without sortOrder listed [${ids(plain.records)}], not the DESCENDING order [${ids(descending.records)}]`,
      );
  }
  toString(): string {
    return `walk(accounts, limit ${this.limit}, default order)`;
  }
}

export class FilteredLogs extends Act {
  constructor(
    readonly subscription: number,
    readonly status: 'SUCCESS' | 'FAILED',
    readonly malformed: boolean,
  ) {
    super();
  }
  private subscriptions(model: Readonly<Model>, run?: RunContext): string[] {
    const hook = run?.value(`{{${HOOK_SUBSCRIPTION}}}`) !== undefined ? [HOOK_SUBSCRIPTION] : [];
    return [...hook, ...model.subscriptions];
  }
  check(model: Readonly<Model>): boolean {
    // The run's own subscription (to its receiver) is there from its first step on a fos-mock.
    return model.subscriptions.length > 0 || model.accounts.length > 0;
  }
  async run(model: Model, run: RunContext): Promise<void> {
    const sub = pick(this.subscriptions(model, run), this.subscription);
    if (sub === undefined) return;
    const path = `/v1/subscriptions/{{${sub}}}/executionLogs`;
    if (this.malformed) {
      const answer = await run.do({ call: `GET ${path}?filters=${encodeURIComponent('status[eq]=SUCCESS;(')}` });
      if (!injected(answer) && answer.status < 500 && code(answer).trim() !== 'INVALID_FILTER')
        run.fail(
          'refusal.invalid-request',
          `GET ${path} with a filter that does not parse answered ${answer.status}${code(answer)}, not 400 INVALID_FILTER`,
        );
      return;
    }
    const walked = await walk(run, `${path}?filters=${encodeURIComponent(`status[eq]=${this.status}`)}`, 100, 'DESCENDING');
    const other = walked.records?.find((log) => (log as { status?: unknown }).status !== this.status);
    if (other)
      run.fail(
        'pages.complete',
        `GET ${path} filtered on status[eq]=${this.status} listed a log whose status is ${String((other as { status?: unknown }).status)}`,
      );
  }
  toString(): string {
    return this.malformed
      ? `logs(subscription ${this.subscription}, a filter that does not parse)`
      : `logs(subscription ${this.subscription}, status ${this.status})`;
  }
}
