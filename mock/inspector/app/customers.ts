// The customers (GET /_mock/state), for names in place of ids and for the pickers.
import { useEffect, useRef } from 'preact/hooks';
import { useResource } from './live';
import type { CustomerSummary, CustomerSummaryList, Topic } from './types';

export function customerLabel(customer: CustomerSummary): string {
  // A customer with a clock of its own shows where that clock stands (POST /_mock/customers {clock}).
  const clock = customer.clock ? ` - own clock ${customer.clock.now}${customer.clock.frozen ? ' (frozen)' : ''}` : '';
  return `${customer.name} (${customer.clientId})${customer.deleted ? ' - deleted' : ''}${clock}`;
}

/**
 * The customer list, refetched on `topics`, and once more whenever `seen` names a customer it
 * does not hold yet (one made since: the requests view follows no `state` changes).
 */
export function useCustomers(topics: readonly Topic[], seen: ReadonlyArray<string | undefined> = []) {
  const list = useResource<CustomerSummaryList>('/_mock/state', topics);
  const byId = new Map((list.data?.data ?? []).map((customer) => [customer.id, customer]));
  const asked = useRef(new Set<string>());
  const unknown = seen.find((id) => id !== undefined && !byId.has(id) && !asked.current.has(id));
  useEffect(() => {
    if (unknown === undefined || list.loading) return;
    asked.current.add(unknown);
    list.reload();
  }, [unknown, list.loading]);
  return { list, byId, customers: list.data?.data ?? [] };
}
