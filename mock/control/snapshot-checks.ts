// The records of a snapshot that the service shows (accounts, beneficiaries, operations,
// subscriptions, execution logs), checked against the service document before the import, as
// fixture files are (mock/services/fixture-checks.ts); and its quotes, which the service shows
// through QuoteService.present and operations consume (quoteProblems). A snapshot is JSON a user can edit: without
// this, an account whose owner lost its address was restored, and its first deposit failed with a
// 500; an operation with a malformed amount was listed by a strict mock as a 500 on every page.
import type { Contract } from '../../spec/contract';
import type { FieldError } from '../../spec/contract/validators';
import { atScale, isFixedAt, isPositive, type AssetScales } from '../domain/money';
import type { QuoteRecord } from '../domain/records';
import type { Kind, StoreState } from '../store';
import { publicProblems } from './public-schemas';

/** What the quote check needs of the service: the reference data's scales and the Quote it shows for a record. */
export interface QuoteShowing {
  scales: AssetScales;
  present(quote: QuoteRecord): unknown;
}

/** Where a kind's stored record holds what the service shows, and the document's schema of it. */
interface Shown {
  kind: Kind;
  schema: string;
  /** The shown part's path within the record ('' for the record itself). */
  part: '' | 'account' | 'subscription';
}

const SHOWN: readonly Shown[] = [
  { kind: 'account', schema: 'Account', part: 'account' },
  { kind: 'beneficiary', schema: 'Beneficiary', part: '' },
  { kind: 'operation', schema: 'Operation', part: '' },
  { kind: 'subscription', schema: 'Subscription', part: 'subscription' },
  { kind: 'executionLog', schema: 'ExecutionLog', part: '' },
];

/** An account's review, which is not a field of the Account resource (records.ts, ReviewStatus). */
const REVIEWS = new Set(['NOT_SUBMITTED', 'SUBMITTED']);

/**
 * Each problem of the records the service shows, as `body.records.<kind>.<i>.record…` fields:
 * errors and drift against the document (strict answers refuse drift), and an id that is not
 * the one the record is kept under; of the quotes, which it shows as built by `quotes`; and of the
 * operations' timelines, whose entries the control API shows (`control`, its `TimelineEntry`).
 */
export function snapshotRecordProblems(
  records: StoreState['records'],
  contract: Contract,
  quotes: QuoteShowing,
  control: Contract,
): FieldError[] {
  const problems: FieldError[] = [];
  (records.quote ?? []).forEach((item, i) => problems.push(...quoteProblems(item, `body.records.quote.${i}.record`, contract, quotes)));
  (records.timeline ?? []).forEach((item, i) =>
    problems.push(...timelineProblems(item, `body.records.timeline.${i}.record`, control, contract)),
  );
  for (const { kind, schema, part } of SHOWN) {
    (records[kind] ?? []).forEach((item, i) => {
      const where = `body.records.${kind}.${i}.record${part ? `.${part}` : ''}`;
      const record = item.record as Record<string, unknown>;
      const shown = part ? record[part] : record;
      problems.push(...publicProblems(contract, schema, shown, where));
      const id = (shown as { id?: unknown } | undefined)?.id;
      if (typeof id === 'string' && id !== item.id) problems.push(wrongId(where, item.id));
      if (kind === 'account' && !REVIEWS.has(record.review as string))
        problems.push({ field: `body.records.account.${i}.record.review`, message: 'must be NOT_SUBMITTED or SUBMITTED' });
    });
  }
  return problems;
}

/** A record (at `where`) whose id is not the one it is kept under: the store finds it by that one. */
function wrongId(where: string, id: string): FieldError {
  return { field: `${where}.id`, message: `must be the record's id ${id}` };
}

/** The record's field a field of the Quote the service shows comes from (QuoteService.present). */
function quoteRecordField(shown: string): string {
  const [head = '', part] = shown.split('.');
  if (head === 'customer') return 'customerId';
  // The status shown is worked out from the expiry (and the consuming operation).
  if (head === 'status') return 'expiresAt';
  if (head === 'sourceAmount' || head === 'targetAmount')
    return part === 'asset' || part === 'decimals' ? head.replace('Amount', 'Asset') : head;
  return head;
}

/**
 * A quote record as the mock writes it: assets the reference data knows, each amount above zero
 * at its asset's scale (what an operation consuming it copies), a boolean `internal`, and the Quote it
 * shows valid against the document (ids, rate, dates), each problem named by the record's field.
 * Before, a hand-edited amount made every read of the quote, and the deposit consuming it, a 500.
 * Every problem is named at once: the Quote is shown from the record with each field already
 * refused put back as the mock would write it, so a bad amount does not hide a bad rate.
 */
function quoteProblems(
  item: { id: string; scope: string; record: unknown },
  where: string,
  contract: Contract,
  quotes: QuoteShowing,
): FieldError[] {
  // An object: the control document's schema of a snapshot says so, as for the kinds above.
  const record = item.record as Record<string, unknown>;
  const problems: FieldError[] = [];
  // The record with each refused field in a sound form, for showing the rest (see above).
  const sound: Record<string, unknown> = { ...record };
  const refuse = (field: string, message: string, standIn: unknown) => {
    problems.push({ field: `${where}.${field}`, message });
    sound[field] = standIn;
  };
  const known = Object.keys(quotes.scales);
  for (const side of ['source', 'target'] as const) {
    const asset = record[`${side}Asset`];
    if (typeof asset !== 'string' || !Object.hasOwn(quotes.scales, asset)) {
      const standIn = known[0] as string;
      refuse(`${side}Asset`, `must be an asset of the reference data (${known.join(', ')})`, standIn);
      // Its amount is read at its asset's scale: with no asset it is not checked, and one stands in for it.
      sound[`${side}Amount`] = atScale(1, quotes.scales[standIn] as number);
      continue;
    }
    const scale = quotes.scales[asset] as number;
    const value = record[`${side}Amount`];
    // Above zero: the mock prices no quote of nothing (domain/quotes.ts); isFixedAt first, so Decimal reads only digits.
    if (typeof value !== 'string' || !isFixedAt(value, scale) || !isPositive(value))
      refuse(`${side}Amount`, `must be a decimal above zero at ${asset}'s ${scale} places, as the mock writes it`, atScale(1, scale));
  }
  if (typeof record.internal !== 'boolean') refuse('internal', 'must be boolean', false);
  if (record.id !== item.id) refuse('id', wrongId(where, item.id).message, item.id);
  // A quote is kept under its customer (QuoteService.make): another would let one customer's quote be read as another's.
  if (record.customerId !== item.scope) refuse('customerId', `must be the customer the record is kept under, ${item.scope}`, item.scope);
  // The quote's status is read from it (Date.parse, domain/quotes.ts), which throws on some objects.
  if (typeof record.expiresAt !== 'string') refuse('expiresAt', 'must be string', new Date(0).toISOString());
  // With the fields above sound, presenting cannot throw: amounts at scale are shown as they are, the expiry is text.
  const refused = new Set(problems.map((problem) => problem.field));
  const shown = publicProblems(contract, 'Quote', quotes.present(sound as unknown as QuoteRecord), where, quoteRecordField);
  // A refused field's stand-in is sound; a shown field it feeds is named once, above.
  return [...problems, ...shown.filter((problem) => !refused.has(problem.field))];
}

/**
 * An operation's timeline as the mock writes it (operation-timeline.ts): its operation's id, and a
 * list of the states it entered, each as the control API shows it (the control document's
 * `TimelineEntry`), a reason as the service document has it (the operation's own reason, copied).
 * Before, an edited entry was restored, and the customer's state view (and the inspector's)
 * answered 500 from then on; a timeline without its list failed the next state added.
 * Timelines of the earlier form are upgraded to this one before the check (timeline-upgrade.ts).
 */
function timelineProblems(item: { id: string; record: unknown }, where: string, control: Contract, contract: Contract): FieldError[] {
  // An object: the control document's schema of a snapshot says so, as for the kinds above.
  const record = item.record as Record<string, unknown>;
  const problems: FieldError[] = [];
  if (record.id !== item.id) problems.push(wrongId(where, item.id));
  const entries = record.entries;
  if (!Array.isArray(entries)) return [...problems, { field: `${where}.entries`, message: 'must be array' }];
  entries.forEach((entry: unknown, j) => {
    const at = `${where}.entries.${j}`;
    const shown = publicProblems(control, 'TimelineEntry', entry, at);
    const reason = (entry as { reason?: unknown } | null)?.reason;
    // A reason the control document takes (any code) may still be one the service document does not know;
    // checked unless the control document named the reason already.
    const reasonNamed = shown.some((problem) => problem.field === `${at}.reason` || problem.field.startsWith(`${at}.reason.`));
    const known = reason !== undefined && !reasonNamed ? publicProblems(contract, 'Reason', reason, `${at}.reason`) : [];
    problems.push(...shown, ...known);
  });
  return problems;
}
