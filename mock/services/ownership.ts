// Tenancy: every read goes through these, so another customer's record answers exactly as an
// unknown id does (404 RESOURCE_NOT_FOUND, never 403, so nothing tells that the id exists).
import { ServiceError } from '../errors/catalogue';
import type { AccountRecord, Beneficiary, Operation, SubscriptionRecord } from '../domain/records';
import type { Store } from '../store';

function notFound(resource: string, id: string, field?: string): ServiceError {
  return new ServiceError('RESOURCE_NOT_FOUND', field ? { resource, id, field } : { resource, id }, `No ${resource} with id ${id}.`);
}

export async function ownAccount(store: Store, customerId: string, id: string, field?: string): Promise<AccountRecord> {
  const record = await store.get('account', id);
  if (!record || record.account.customer.id !== customerId) throw notFound('account', id, field);
  return record;
}

export async function ownOperation(store: Store, customerId: string, id: string): Promise<Operation> {
  const record = await store.get('operation', id);
  if (!record || record.customer.id !== customerId) throw notFound('operation', id);
  return record;
}

export async function ownBeneficiary(store: Store, customerId: string, id: string, field?: string): Promise<Beneficiary> {
  const record = await store.get('beneficiary', id);
  if (!record || record.customerId !== customerId) throw notFound('beneficiary', id, field);
  return record;
}

export async function ownSubscription(store: Store, customerId: string, id: string): Promise<SubscriptionRecord> {
  const record = await store.get('subscription', id);
  if (!record || record.subscription.companyId !== customerId) throw notFound('subscription', id);
  return record;
}
