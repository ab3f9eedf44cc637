// Control actions name a record, not its customer: find the owner, so the action can go through
// the same (tenant-scoped) service call as the real transition. Unknown ids are 404.
import { ServiceError } from '../errors/catalogue';
import type { SubscriptionRecord } from '../domain/records';
import type { Store } from '../store';

/** 404 RESOURCE_NOT_FOUND for an id no customer holds: the one message every control lookup gives. */
export function notFound(resource: string, id: string): ServiceError {
  return new ServiceError('RESOURCE_NOT_FOUND', { resource, id }, `No ${resource} with id ${id}.`);
}

export async function operationOwner(store: Store, id: string): Promise<string> {
  const record = await store.get('operation', id);
  if (!record) throw notFound('operation', id);
  return record.customer.id;
}

export async function accountOwner(store: Store, id: string): Promise<string> {
  const record = await store.get('account', id);
  if (!record) throw notFound('account', id);
  return record.account.customer.id;
}

/** A subscription of any customer (its customer is `subscription.companyId`). */
export async function subscriptionRecord(store: Store, id: string): Promise<SubscriptionRecord> {
  const record = await store.get('subscription', id);
  if (!record) throw notFound('subscription', id);
  return record;
}

export async function beneficiaryOwner(store: Store, id: string): Promise<string> {
  const record = await store.get('beneficiary', id);
  if (!record) throw notFound('beneficiary', id);
  return record.customerId;
}
