// POST /_mock/customers/{id}/reset: one customer back to the data it was created with,
// no other customer touched. A customer made by POST /_mock/customers gets back the records kept
// when it was made (CustomerRecord.origin), a fixture customer its records of the fixtures, under
// the same ids, so a test's account ids stay good across resets. Requests in flight for the
// customer may still write what they were writing: a reset is for between tests.
import { startState } from '../clock';
import type { CustomerOrigin, CustomerRecord } from '../domain/records';
import type { DemoFixtures } from '../../fixtures/types';
import type { Kind } from '../store';
import { settlementGroup } from '../services/operation-service';
import { deliveryGroup } from '../webhooks/dispatcher';
import { settleDueWork, type ControlContext } from './context';
import { notFound } from './lookup';

/** The kinds kept under a customer's id (execution logs and delivery timings are under its subscriptions'). */
const CUSTOMER_KINDS = ['account', 'quote', 'operation', 'beneficiary', 'timeline'] as const satisfies readonly Kind[];

/** A fixture customer's records as the fixtures hold them (none when the fixtures no longer name it). */
function fixtureOrigin(fixtures: DemoFixtures, customerId: string): CustomerOrigin {
  const accounts = fixtures.accounts.filter((account) => account.customer.id === customerId);
  const ids = new Set(accounts.map((account) => account.id));
  return {
    accounts: accounts.map((account) => ({ account, review: fixtures.accountReview[account.id] ?? 'NOT_SUBMITTED' })),
    balances: fixtures.balances.filter((balance) => ids.has(balance.accountId)),
    beneficiaries: fixtures.beneficiaries.filter((beneficiary) => beneficiary.customerId === customerId),
  };
}

/** The id a record is stored under (store.all answers records, not their ids). */
function idOf(kind: (typeof CUSTOMER_KINDS)[number], record: unknown): string {
  return kind === 'account' ? (record as { account: { id: string } }).account.id : (record as { id: string }).id;
}

export async function resetCustomer(c: ControlContext, customerId: string) {
  const { store } = c.deps;
  const customer: CustomerRecord | undefined = await store.get('customer', customerId);
  if (!customer) throw notFound('customer', customerId);
  const origin = customer.origin ?? fixtureOrigin(c.fixtures.current, customerId);

  // What is due runs first, against the old records, so no job is half-way through them below
  // (on the customer's own clock too, when it has one).
  await settleDueWork(c);
  if (customer.clock) await c.cluster.runDueOf(customerId);
  // Its pending jobs leave the queue of its clock: its auto-settlements, and its subscriptions'
  // deliveries and retries (a job running now ends as it would, finding its records gone below).
  const subscriptions = await store.all('subscription', customerId);
  const { queue } = await c.deps.clocks.schedulerOf(customerId);
  for (const group of [settlementGroup(customerId), ...subscriptions.map((record) => deliveryGroup(record.subscription.id))])
    await queue.dropGroup(group);
  // Its subscriptions, with their delivery logs.
  for (const record of subscriptions) {
    const scope = record.subscription.id;
    for (const log of await store.all('executionLog', scope)) await store.remove('executionLog', log.id);
    for (const timing of await store.all('deliveryTiming', scope)) await store.remove('deliveryTiming', timing.id);
    await store.remove('subscription', scope);
  }
  for (const kind of CUSTOMER_KINDS) for (const record of await store.all(kind, customerId)) await store.remove(kind, idOf(kind, record));

  for (const record of origin.accounts) {
    // Assets it came to hold since read zero: the store keeps a balance once set.
    for (const asset of Object.keys(await store.balances(record.account.id))) await store.setBalance(record.account.id, asset, '0');
    await store.insert('account', customerId, record.account.id, record);
  }
  for (const balance of origin.balances) await store.setBalance(balance.accountId, balance.asset, balance.value);
  for (const beneficiary of origin.beneficiaries) await store.insert('beneficiary', customerId, beneficiary.id, beneficiary);

  // Its idempotency keys (kept as `<customer>:<key>`): the export is the store's one way to list
  // them; a reset is rare next to requests, so reading everything once is paid there.
  const prefix = `${customerId}:`;
  // Listed by the customer's clock: its keys expire by it.
  for (const entry of (await store.exportState((await c.deps.clocks.clockOf(customerId)).now())).idempotency)
    if (entry.key.startsWith(prefix)) await store.releaseIdempotencyKey(entry.key);

  await c.faults.removeForCustomer(customerId);
  await c.cluster.announceFaults();
  await c.cluster.forgetCustomerJournal(customerId);
  // Its own clock back to where it started, on every replica; a clock carried by a snapshot
  // without its origin stays where it stands.
  const start = origin.clock;
  if (start && customer.clock) {
    await c.deps.clocks.move(customerId, () => startState(Date.parse(start.start), start.frozen));
    await c.cluster.ask('sync');
  }
  return { status: 'reset' as const, customerId, accounts: origin.accounts.length, beneficiaries: origin.beneficiaries.length };
}
