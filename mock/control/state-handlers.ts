// What the inspector's state view reads: the customers, and everything one customer holds, as
// the service API shows it (accounts with balances, quotes with their status by the mock clock,
// operations with their state timeline, beneficiaries, subscriptions), newest first.
import { stateNow } from '../clock';
import { quoteStatus } from '../domain/quotes';
import { timelineEntries } from '../services/operation-timeline';
import type { CustomerRecord, RecordTypes } from '../domain/records';
import type { Kind } from '../store';
import { balancesAtScale } from './account-handlers';
import { ok, type ControlContext, type ControlHandlers } from './context';
import { notFound } from './lookup';

/** The newest this many of each kind are listed. */
export const STATE_LIST_LIMIT = 200;

const summary = (customer: CustomerRecord) => ({
  id: customer.id,
  name: customer.name,
  clientId: customer.clientId,
  deleted: customer.deleted,
  // Its own clock, as the inspector shows it beside the name.
  ...(customer.clock && { clock: { now: new Date(stateNow(customer.clock)).toISOString(), frozen: customer.clock.frozenAt !== null } }),
});

export function stateHandlers(c: ControlContext) {
  const { store } = c.deps;
  const { quotes, subscriptions } = c.services;

  /** The newest records of a kind in a scope, and whether there are more. */
  async function newest<K extends Kind>(kind: K, scope: string): Promise<{ records: Array<RecordTypes[K]>; more: boolean }> {
    const slice = await store.page(kind, { scope, limit: STATE_LIST_LIMIT + 1, order: 'DESCENDING' });
    const records = slice.items.map((item) => item.record);
    return { records: records.slice(0, STATE_LIST_LIMIT), more: records.length > STATE_LIST_LIMIT };
  }

  return {
    listStateCustomers: async () => ok({ data: (await store.all('customer', 'all')).map(summary) }),
    getCustomerState: async ({ params }) => {
      const id = params.customerId;
      const customer = await store.get('customer', id);
      if (!customer) throw notFound('customer', id);
      const [accounts, quoteList, operations, beneficiaries, subscriptionList] = await Promise.all([
        newest('account', id),
        newest('quote', id),
        newest('operation', id),
        newest('beneficiary', id),
        newest('subscription', id),
      ]);
      // Quotes OPEN or EXPIRED by the customer's clock (its own, when it has one).
      const now = (await c.deps.clocks.clockOf(id)).now();
      const cut = Object.entries({ accounts, quotes: quoteList, operations, beneficiaries, subscriptions: subscriptionList })
        .filter(([, list]) => list.more)
        .map(([name]) => name);
      return ok({
        customer: summary(customer),
        accounts: await Promise.all(
          accounts.records.map(async (record) => ({
            account: record.account,
            review: record.review,
            balances: await balancesAtScale(c.deps, record.account),
          })),
        ),
        // A transfer's internal 1:1 quote is not the customer's to see (GET /v1/quotes/{id} is 404 for it).
        quotes: quoteList.records
          .filter((quote) => !quote.internal)
          .map((quote) => ({ quote: quotes.present(quote), status: quoteStatus(quote, now), operationId: quote.operationId })),
        operations: await Promise.all(
          operations.records.map(async (operation) => {
            // Its states in order, the latest TIMELINE_LIMIT (operation-timeline.ts).
            const timeline = await timelineEntries(store, operation.id);
            return {
              operation,
              timeline: timeline.map(({ eventType, at, status, reason }) => ({
                eventType,
                at,
                status,
                ...(reason ? { reason } : {}),
              })),
            };
          }),
        ),
        beneficiaries: beneficiaries.records,
        subscriptions: subscriptionList.records.map((record) => subscriptions.present(record)),
        truncated: cut,
      });
    },
  } satisfies Partial<ControlHandlers>;
}
