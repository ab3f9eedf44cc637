// Every change of balances in the shared store, with or without a record: read in one round trip,
// computed in decimal, committed by one script (fosCommit) only over the values read, and tried
// again from the start on a conflict (optimistic, like WATCH/MULTI on the one shared connection).
import { Decimal } from '../../domain/decimal';
import { BALANCE_CEILING } from '../../domain/money';
import type { RecordTypes } from '../../domain/records';
import type { BalanceMove, Kind, OutboxEntry, OutboxOf, RefusedBalance } from '../store';
import { unavailableOnLoss } from './connection';
import { outboxArgs } from './scripts';
import type { StoreAccess } from './store-access';

/** Optimistic writes give up after this many conflicts in a row (a livelock would be a bug). */
const MAX_ATTEMPTS = 1_000;

export interface MoveOutcome<R> {
  missing?: true;
  short?: RefusedBalance;
  over?: RefusedBalance;
  record?: R;
  /** The new balances by "account:asset". */
  values: Map<string, string>;
}

/**
 * Every change of balances, with or without a record: read the record and the balances in one
 * round trip, compute in decimal, refuse a move below zero, and commit only over the values read
 * (a refusal too is checked against them: it must not rest on a stale read); on a conflict,
 * again from the start.
 */
export async function applyMoves<K extends Kind>(
  access: StoreAccess,
  target: { kind: K; id: string; change: (current: RecordTypes[K]) => RecordTypes[K]; outbox?: OutboxOf<RecordTypes[K]> } | undefined,
  moves: BalanceMove[],
): Promise<MoveOutcome<RecordTypes[K]>> {
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    // Read in one round trip (sent together, answered in order); the commit checks them all.
    const [raw, ...stored] = await unavailableOnLoss(
      Promise.all([
        target ? access.client.hget(access.keys.records(target.kind), target.id) : Promise.resolve(null),
        ...moves.map((move) => access.client.hget(access.keys.balance(move.accountId), move.asset)),
      ]),
    );
    if (target && (raw === null || raw === undefined)) return { missing: true, values: new Map() };
    const next = target ? target.change(access.decode(target.kind, target.id, raw as string) as RecordTypes[K]) : undefined;
    const checks = new Map<string, { accountId: string; asset: string; expected: string; value: InstanceType<typeof Decimal> }>();
    let short: RefusedBalance | undefined;
    let over: RefusedBalance | undefined;
    moves.forEach((move, i) => {
      const name = `${move.accountId}:${move.asset}`;
      const read = stored[i] ?? null;
      const check = checks.get(name) ?? {
        accountId: move.accountId,
        asset: move.asset,
        expected: read ?? '',
        value: new Decimal(read ?? 0),
      };
      check.value = check.value.plus(move.delta);
      const refused = () => ({ accountId: move.accountId, asset: move.asset, balance: new Decimal(read ?? 0).toFixed() });
      if (check.value.isNegative() && !short && !over) short = refused();
      if (check.value.gte(BALANCE_CEILING) && !short && !over) over = refused();
      checks.set(name, check);
    });
    const refusedAny = short ?? over;
    const balanceWrites = [...checks.values()].map((c) => ({ ...c, next: refusedAny ? '' : c.value.toFixed() }));
    const record = target && { kind: target.kind, id: target.id, expected: raw as string, next: refusedAny ? '' : JSON.stringify(next) };
    // The outbox goes with the record only when it is written (not with a refusal).
    const outbox = target?.outbox && !refusedAny ? target.outbox(next as RecordTypes[K]) : undefined;
    const written = await commit(access, record, balanceWrites, outbox);
    if (written === undefined) continue;
    const values = new Map(balanceWrites.map((b) => [`${b.accountId}:${b.asset}`, b.next]));
    if (short) return { short, values };
    if (over) return { over, values };
    return { record: target ? (access.decode(target.kind, target.id, written) as RecordTypes[K]) : undefined, values };
  }
  throw new Error(target ? `store: ${target.kind} ${target.id} kept changing` : 'store: balances kept changing');
}

/**
 * Writes a record (JSON; the script stamps its new version) and balances only if each still
 * holds the value read (a next of '' only checks). Undefined when something changed since;
 * otherwise the record's new stored value, or '' when no record was written.
 */
async function commit(
  access: StoreAccess,
  record: { kind: Kind; id: string; expected: string; next: string } | undefined,
  balances: Array<{ accountId: string; asset: string; expected: string; next: string }>,
  outbox: readonly OutboxEntry[] | undefined,
): Promise<string | undefined> {
  const args: Array<string | number> = [record?.id ?? '', record?.expected ?? '', record?.next ?? '', balances.length];
  for (const b of balances) args.push(access.keys.balance(b.accountId), b.accountId, b.asset, b.expected, b.next);
  args.push(...outboxArgs(outbox));
  const recordsKey = record ? access.keys.records(record.kind) : access.keys.key('unused');
  const keys = [recordsKey, access.keys.key('bal-accounts'), ...access.keys.outbox(), access.keys.version()];
  const reply = await access.run('fosCommit', keys, args);
  if (reply === 0) return undefined;
  return typeof reply === 'string' ? reply : '';
}
