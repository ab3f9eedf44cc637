// Quotes and the operations made on them: deposits, withdrawals, swaps, transfers, and a quote
// used again. Amounts stay small; the mock's forcing amounts (a withdrawal of 666.66 fails, a
// deposit of 777.77 settles at once) are used only on a fos-mock.
import { randomUUID } from 'node:crypto';
import { Decimal } from 'decimal.js';
import type { Step } from '../scenarios/types';
import { Act, accepted, remember } from './act';
import { nextName, pick, type Model, type OperationKind, type QuoteRecord } from './model';
import { checkQuoteUse, observe } from './observe';
import type { RunContext } from './run-context';

export const PAIRS = [
  ['BRL', 'BRL'],
  ['BRL', 'USDT'],
  ['USDT', 'BRL'],
  ['USDT', 'USDT'],
] as const;

export const AMOUNTS = ['1.00', '2.50', '10.00', '40.00'];
export const MOCK_AMOUNTS = ['666.66', '777.77'];

const PATHS: Record<OperationKind, string> = {
  deposit: '/v1/operations/deposits',
  withdrawal: '/v1/operations/withdrawals',
  swap: '/v1/operations/swaps',
  transfer: '/v1/operations/transfers',
};

export function mutating(call: string, body: unknown): Step {
  return { call, body, headers: { 'x-idempotency-key': randomUUID() } };
}

interface Amount {
  value?: unknown;
  decimals?: unknown;
}

/** The seed's quote: target = source × rate (1:1 for one asset), rounded down to the target's scale. */
function checkQuoteAmounts(run: RunContext, body: unknown): void {
  const {
    sourceAmount: source,
    targetAmount: target,
    rate,
  } = (body ?? {}) as { sourceAmount?: Amount; targetAmount?: Amount; rate?: unknown };
  if (
    typeof source?.value !== 'string' ||
    typeof target?.value !== 'string' ||
    typeof rate !== 'string' ||
    typeof target.decimals !== 'number'
  )
    return; // the document check names a missing or mistyped field
  const assets = body as { sourceAmount?: { asset?: unknown }; targetAmount?: { asset?: unknown } };
  if (assets.sourceAmount?.asset === assets.targetAmount?.asset && !new Decimal(rate).equals(1))
    run.fail(
      'quote.amounts',
      `a quote from ${String(assets.sourceAmount?.asset)} to the same asset has rate ${rate}, not 1 (1:1 for one asset)`,
    );
  const want = new Decimal(source.value).times(rate).toDecimalPlaces(target.decimals, Decimal.ROUND_DOWN);
  if (!want.equals(target.value))
    run.fail(
      'quote.amounts',
      `a quote of ${source.value} at rate ${rate} has target ${target.value}, not ${want.toFixed(target.decimals)} (rounded down)`,
    );
}

/** Sends an operation's creation; an accepted one is kept by name and its first state observed. */
async function createOperation(model: Model, run: RunContext, kind: OperationKind, body: object, quote?: QuoteRecord): Promise<void> {
  const name = nextName(model, 'op');
  const step = { ...mutating(`POST ${PATHS[kind]}`, body), save: { [name]: 'body.id' } };
  const answer = await run.do(step);
  remember(model, run, step, answer);
  if (quote) checkQuoteUse(run, quote, name, answer);
  if (accepted(answer) && name in run.saved) {
    const op = { name, kind, ...(quote ? { quote: quote.name } : {}), statuses: [] };
    model.operations.push(op);
    observe(run, op, answer.body, `${step.call} answered`);
  }
}

export class CreateQuote extends Act {
  constructor(
    readonly account: number,
    readonly pair: number,
    readonly amount: string,
  ) {
    super();
  }
  check(model: Readonly<Model>): boolean {
    return model.accounts.length > 0;
  }
  async run(model: Model, run: RunContext): Promise<void> {
    const account = pick(model.accounts, this.account)!;
    const [sourceAsset, targetAsset] = PAIRS[this.pair % PAIRS.length]!;
    const name = nextName(model, 'q');
    const step = {
      ...mutating('POST /v1/quotes', { accountId: account, sourceAsset, targetAsset, sourceAmount: this.amount }),
      save: { [name]: 'body.id' },
    };
    const answer = await run.do(step);
    remember(model, run, step, answer);
    if (accepted(answer)) checkQuoteAmounts(run, answer.body);
    if (accepted(answer) && name in run.saved) model.quotes.push({ name, account, sourceAsset, targetAsset });
  }
  toString(): string {
    return `quote(account ${this.account}, ${PAIRS[this.pair % PAIRS.length]!.join('→')}, ${this.amount})`;
  }
}

/** A deposit, withdrawal or swap on a quote (`again`: on a quote an operation already used). */
export class OperationOnQuote extends Act {
  constructor(
    readonly kind: Exclude<OperationKind, 'transfer'>,
    readonly quote: number,
    readonly beneficiary: number,
    readonly again: boolean,
  ) {
    super();
  }
  private quotes(model: Readonly<Model>) {
    const fitting = model.quotes.filter((q) => (q.usedBy !== undefined) === this.again);
    // A quote the clock has not passed yet, when there is one: an expired quote only meets QUOTE_EXPIRED.
    const fresh = fitting.filter((q) => !q.stale);
    return fresh.length > 0 ? fresh : fitting;
  }
  check(model: Readonly<Model>): boolean {
    return this.quotes(model).length > 0 && (this.kind !== 'withdrawal' || model.beneficiaries.length > 0);
  }
  async run(model: Model, run: RunContext): Promise<void> {
    const quote = pick(this.quotes(model), this.quote)!;
    const body: Record<string, unknown> = { accountId: quote.account, quoteId: `{{${quote.name}}}` };
    if (this.kind === 'deposit') body.fundingInstruction = { rail: 'PIX' };
    if (this.kind === 'withdrawal') body.beneficiary = { mode: 'REFERENCE', id: pick(model.beneficiaries, this.beneficiary) };
    await createOperation(model, run, this.kind, body, quote);
  }
  toString(): string {
    const beneficiary = this.kind === 'withdrawal' ? `, beneficiary ${this.beneficiary}` : '';
    return `${this.kind}(${this.again ? 'used ' : ''}quote ${this.quote}${beneficiary})`;
  }
}

export class Transfer extends Act {
  constructor(
    readonly from: number,
    readonly to: number,
    readonly asset: string,
    readonly amount: string,
  ) {
    super();
  }
  check(model: Readonly<Model>): boolean {
    return model.accounts.length > 1;
  }
  async run(model: Model, run: RunContext): Promise<void> {
    const from = pick(model.accounts, this.from)!;
    const others = model.accounts.filter((a) => a !== from);
    const body = { accountId: from, targetAccountId: pick(others, this.to), asset: this.asset, amount: this.amount };
    await createOperation(model, run, 'transfer', body);
  }
  toString(): string {
    return `transfer(account ${this.from} → ${this.to}, ${this.amount} ${this.asset})`;
  }
}
