// Snapshot export and import. The store gives and takes its whole state (records with scopes
// and insertion keys, balances, finished idempotency keys); the snapshot adds the clock, so a
// restored mock answers as the original did: same lists, same order, cursors still valid
// (same FOS_MOCK_SECRET), same expiries. The customers' own clocks are carried as instants
// (`customerClocks`): the clock kept on a customer's record counts from this machine's real time.
// The webhook deliveries still to do are kept too (`deliveries`, snapshot-deliveries.ts); the
// auto-settlements are not: they are scheduled again from the operations still REQUESTED.
import { startState, stateNow } from '../clock';
import { ServiceError } from '../errors/catalogue';
import type { CustomerRecord, Operation } from '../domain/records';
import type { StoreState } from '../store';
import { settleDueWork, type ControlContext } from './context';
import { snapshotRecordProblems } from './snapshot-checks';
import { deliveryProblems, exportDeliveries, importDeliveries, type SnapshotDelivery } from './snapshot-deliveries';
import { upgradeTimelines } from './timeline-upgrade';

export const SNAPSHOT_VERSION = 1;

export interface Snapshot extends StoreState {
  version: typeof SNAPSHOT_VERSION;
  takenAt: string;
  clock: { now: string; frozen: boolean };
  /** The customers' own clocks (absent in snapshots of earlier versions). */
  customerClocks?: Array<{ customerId: string; now: string; frozen: boolean }>;
  /** Webhook deliveries waiting for their first attempt or a retry (absent: none). */
  deliveries?: SnapshotDelivery[];
}

export async function takeSnapshot(c: ControlContext): Promise<Snapshot> {
  const { store, clock } = c.deps;
  const exported = await store.exportState(clock.now());
  // A key on a customer's own clock (kept as `<customer>:<key>`) is kept while that clock says it has not expired.
  const ownNow = new Map<string, number>();
  const idempotency: StoreState['idempotency'] = [];
  for (const entry of exported.idempotency) {
    const customerId = entry.key.slice(0, entry.key.indexOf(':'));
    if (entry.ownClock && !ownNow.has(customerId)) ownNow.set(customerId, (await c.deps.clocks.clockOf(customerId)).now());
    if (!entry.ownClock || entry.expiresAt > (ownNow.get(customerId) ?? 0)) idempotency.push(entry);
  }
  const state = { ...exported, idempotency };
  const customerClocks = (state.records.customer ?? []).flatMap(({ record }) => {
    const own = (record as CustomerRecord).clock;
    return own
      ? [{ customerId: (record as CustomerRecord).id, now: new Date(stateNow(own)).toISOString(), frozen: own.frozenAt !== null }]
      : [];
  });
  // Read after the records: a delivery is kept only when its subscription is among them.
  const deliveries = await exportDeliveries(
    c,
    state.records,
    customerClocks.map((own) => own.customerId),
  );
  return {
    version: SNAPSHOT_VERSION,
    takenAt: clock.nowIso(),
    clock: { now: clock.nowIso(), frozen: clock.frozen },
    ...(customerClocks.length > 0 && { customerClocks }),
    ...(deliveries.length > 0 && { deliveries }),
    ...state,
  };
}

export async function restoreSnapshot(c: ControlContext, snapshot: Snapshot): Promise<void> {
  const { store, clock } = c.deps;
  // A snapshot saved before timelines were one record per operation restores with them; upgraded
  // first, so the records checked are the records imported.
  const records = upgradeTimelines(snapshot.records);
  // Refused before anything waits or changes.
  const problems = [
    ...snapshotRecordProblems(
      records,
      c.publicContract,
      { scales: c.deps.reference.scales, present: (quote) => c.services.quotes.present(quote) },
      c.controlContract,
    ),
    ...deliveryProblems(snapshot.deliveries ?? [], records, c.publicContract),
  ];
  if (problems.length > 0) throw new ServiceError('VALIDATION_ERROR', { fields: problems });
  // Jobs running now finish first; pending ones are dropped only once the import has succeeded.
  await c.cluster.ask('wait-jobs');
  try {
    await store.importState({
      sequence: snapshot.sequence,
      records,
      balances: snapshot.balances,
      idempotency: snapshot.idempotency,
    });
  } catch (error) {
    if (error instanceof ServiceError) throw error;
    throw new ServiceError('VALIDATION_ERROR', {
      fields: [{ field: 'body.records', message: (error as Error).message.replace(/^store: /, '') }],
    });
  }
  // Each own clock at the instant it showed, counted from now.
  for (const own of snapshot.customerClocks ?? [])
    await store.update('customer', own.customerId, (customer) => ({ ...customer, clock: startState(Date.parse(own.now), own.frozen) }));
  // Jobs of the replaced state must not act on the restored one.
  await c.cluster.ask('clear-jobs');
  clock.freeze(Date.parse(snapshot.clock.now));
  if (!snapshot.clock.frozen) clock.unfreeze();
  await c.cluster.clockChanged();
  // Every replica takes the restored customers' clocks (and forgets those of customers gone).
  await c.cluster.ask('sync');
  await resumeAutoSettlement(
    c,
    (snapshot.records.operation ?? []).map((item) => item.record as Operation),
  );
  // In the queue of each customer's clock, taken by every replica above.
  await importDeliveries(c, snapshot.deliveries ?? []);
  await settleDueWork(c);
}

/** The same job OperationService schedules at creation, for the operations the snapshot left REQUESTED. */
async function resumeAutoSettlement(c: ControlContext, operations: Operation[]): Promise<void> {
  for (const operation of operations) await c.services.operations.scheduleAutoSettle(operation);
}
