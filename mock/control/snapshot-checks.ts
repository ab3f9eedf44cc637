// The records of a snapshot that the service shows (accounts, beneficiaries, operations,
// subscriptions, execution logs), checked against the service document before the import, as
// fixture files are (mock/services/fixture-checks.ts); and its quotes, which the service shows
// through QuoteService.present and operations consume (quoteProblems). A snapshot is JSON a user can edit: without
// this, an account whose owner lost its address was restored, and its first deposit failed with a
// 500; an operation with a malformed amount was listed by a strict mock as a 500 on every page.
import type { Contract } from '../../spec/contract';
import type { FieldError } from '../../spec/contract/validators';
import { isFixedAt, isPositive, type AssetScales } from '../domain/money';
import type { QuoteRecord } from '../store/records';
import type { Kind, StoreState } from '../store/store';
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
 * the one the record is kept under; and of the quotes, which it shows as built by `quotes`.
 */
export function snapshotRecordProblems(records: StoreState['records'], contract: Contract, quotes: QuoteShowing): FieldError[] {
  const problems: FieldError[] = [];
  (records.quote ?? []).forEach((item, i) => problems.push(...quoteProblems(item, `body.records.quote.${i}.record`, contract, quotes)));
  for (const { kind, schema, part } of SHOWN) {
    (records[kind] ?? []).forEach((item, i) => {
      const where = `body.records.${kind}.${i}.record${part ? `.${part}` : ''}`;
      const record = item.record as Record<string, unknown>;
      const shown = part ? record[part] : record;
      problems.push(...publicProblems(contract, schema, shown, where));
      const id = (shown as { id?: unknown } | undefined)?.id;
      if (typeof id === 'string' && id !== item.id) problems.push({ field: `${where}.id`, message: `must be the record's id ${item.id}` });
      if (kind === 'account' && !REVIEWS.has(record.review as string))
        problems.push({ field: `body.records.account.${i}.record.review`, message: 'must be NOT_SUBMITTED or SUBMITTED' });
    });
  }
  return problems;
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
  const known = Object.keys(quotes.scales);
  for (const side of ['source', 'target'] as const) {
    const asset = record[`${side}Asset`];
    if (typeof asset !== 'string' || !Object.hasOwn(quotes.scales, asset)) {
      problems.push({ field: `${where}.${side}Asset`, message: `must be an asset of the reference data (${known.join(', ')})` });
      continue;
    }
    const scale = quotes.scales[asset] as number;
    const value = record[`${side}Amount`];
    // Above zero: the mock prices no quote of nothing (domain/quotes.ts); isFixedAt first, so Decimal reads only digits.
    if (typeof value !== 'string' || !isFixedAt(value, scale) || !isPositive(value))
      problems.push({
        field: `${where}.${side}Amount`,
        message: `must be a decimal above zero at ${asset}'s ${scale} places, as the mock writes it`,
      });
  }
  if (typeof record.internal !== 'boolean') problems.push({ field: `${where}.internal`, message: 'must be boolean' });
  if (record.id !== item.id) problems.push({ field: `${where}.id`, message: `must be the record's id ${item.id}` });
  // A quote is kept under its customer (QuoteService.make): another would let one customer's quote be read as another's.
  if (record.customerId !== item.scope)
    problems.push({ field: `${where}.customerId`, message: `must be the customer the record is kept under, ${item.scope}` });
  // The quote's status is read from it (Date.parse, domain/quotes.ts), which throws on some objects.
  if (typeof record.expiresAt !== 'string') problems.push({ field: `${where}.expiresAt`, message: 'must be string' });
  // The Quote shown is built from the fields above: checked once they are sound.
  // (With them sound, presenting cannot throw: amounts at scale are shown as they are, the expiry is text.)
  if (problems.length > 0) return problems;
  return publicProblems(contract, 'Quote', quotes.present(record as unknown as QuoteRecord), where, quoteRecordField);
}
