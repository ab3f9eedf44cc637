// The records of a snapshot that the service shows (accounts, beneficiaries, operations,
// subscriptions, execution logs), checked against the service document before the import, as
// fixture files are (mock/services/fixture-checks.ts). A snapshot is JSON a user can edit: without
// this, an account whose owner lost its address was restored, and its first deposit failed with a
// 500; an operation with a malformed amount was listed by a strict mock as a 500 on every page.
import type { Contract } from '../../spec/contract';
import type { FieldError } from '../../spec/contract/validators';
import type { Kind, StoreState } from '../store/store';
import { publicProblems } from './public-schemas';

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
 * the one the record is kept under.
 */
export function snapshotRecordProblems(records: StoreState['records'], contract: Contract): FieldError[] {
  const problems: FieldError[] = [];
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
