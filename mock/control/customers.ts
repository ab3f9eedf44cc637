// Isolated customers (POST /_mock/customers): a new customer with its own credentials and a copy,
// under new ids, of the template customer's fixture accounts (with balances) and beneficiaries.
// Parallel test runs take one each and never see each other's data.
import { randomBytes } from 'node:crypto';
import { startState, stateNow } from '../clock';
import type { Account, AccountRecord, Beneficiary, CustomerOrigin } from '../domain/records';
import { created, ok, type ControlContext, type ControlHandlers } from './context';
import { resetCustomer } from './customer-reset';

/** The fixture customer whose data a new customer starts with. */
export const TEMPLATE_CLIENT_ID = 'demo-client';

export interface NewCustomer {
  customerId: string;
  clientId: string;
  clientSecret: string;
  accounts: string[];
  beneficiaries: string[];
  /** Its own clock, when it was given one. */
  clock?: { now: string; frozen: boolean };
}

/** A clock of the customer's own (like Stripe's test clocks): from `start` (the mock clock's instant by default), frozen or running. */
export interface NewCustomerClock {
  start?: string;
  frozen?: boolean;
}

export async function createCustomer(c: ControlContext, name?: string, ownClock?: NewCustomerClock): Promise<NewCustomer> {
  const { store, newId } = c.deps;
  const fixtures = c.fixtures.current;
  const template = fixtures.customers.find((customer) => customer.clientId === TEMPLATE_CLIENT_ID) ?? fixtures.customers[0];
  const customerId = newId();
  let clientId: string;
  do clientId = `client-${randomBytes(4).toString('hex')}`;
  while (await store.get('client', clientId));
  const clientSecret = randomBytes(24).toString('base64url');
  const clock = ownClock
    ? startState(ownClock.start === undefined ? c.deps.clock.now() : Date.parse(ownClock.start), ownClock.frozen ?? false)
    : undefined;
  // Its records are stamped by its own clock from the start.
  const at = new Date(clock ? stateNow(clock) : c.deps.clock.now()).toISOString();

  await store.insert('customer', 'all', customerId, {
    id: customerId,
    name: name ?? `QA customer ${clientId.slice(7)}`,
    clientId,
    clientSecret,
    deleted: false,
    ...(clock && { clock }),
  });
  await store.insert('client', 'all', clientId, { clientId, clientSecret, customerId });

  const templateAccounts = fixtures.accounts.filter((account) => account.customer.id === template?.id);
  const newIds = new Map(templateAccounts.map((account) => [account.id, newId()]));
  for (const account of templateAccounts) {
    const id = newIds.get(account.id) as string;
    for (const balance of fixtures.balances.filter((b) => b.accountId === account.id))
      await store.setBalance(id, balance.asset, balance.value);
    const record: AccountRecord = {
      account: copyAccount(account, id, customerId, newIds, newId, at),
      review: fixtures.accountReview[account.id] ?? 'NOT_SUBMITTED',
    };
    // Through the service, so ACCOUNT_CREATED fires as for any new account.
    await c.services.accounts.create(record);
  }

  const beneficiaries: string[] = [];
  for (const beneficiary of fixtures.beneficiaries.filter((b) => b.customerId === template?.id)) {
    const copy: Beneficiary = {
      ...structuredClone(beneficiary),
      id: newId(),
      customerId,
      paymentInstructions: beneficiary.paymentInstructions.map((instruction) => ({ ...structuredClone(instruction), id: newId() })),
      createdAt: at,
      updatedAt: at,
    };
    await store.insert('beneficiary', customerId, copy.id, copy);
    beneficiaries.push(copy.id);
  }
  const shown = clock && { now: new Date(stateNow(clock)).toISOString(), frozen: clock.frozenAt !== null };
  await rememberOrigin(c, customerId, [...newIds.values()], shown && { start: shown.now, frozen: shown.frozen });
  return { customerId, clientId, clientSecret, accounts: [...newIds.values()], beneficiaries, ...(shown && { clock: shown }) };
}

/** Keeps what the customer was created with, as stored, for its reset (customer-reset.ts). */
async function rememberOrigin(c: ControlContext, customerId: string, accountIds: string[], clock?: CustomerOrigin['clock']): Promise<void> {
  const { store } = c.deps;
  const accounts = (await Promise.all(accountIds.map((id) => store.get('account', id)))).filter((a) => a !== undefined);
  const balances = (
    await Promise.all(
      accountIds.map(async (accountId) =>
        Object.entries(await store.balances(accountId)).map(([asset, value]) => ({ accountId, asset, value })),
      ),
    )
  ).flat();
  const origin: CustomerOrigin = { accounts, balances, beneficiaries: await store.all('beneficiary', customerId), ...(clock && { clock }) };
  await store.update('customer', customerId, (customer) => ({ ...customer, origin }));
}

function copyAccount(
  account: Account,
  id: string,
  customerId: string,
  newIds: Map<string, string>,
  newId: () => string,
  at: string,
): Account {
  const copy = structuredClone(account);
  if (copy.owner.type === 'COMPANY') copy.owner.ubos = copy.owner.ubos.map((ubo) => ({ ...ubo, id: newId() }));
  // A sub-account points at its source account's copy, never at the template's.
  const source = account.sourceAccountId ? (newIds.get(account.sourceAccountId) ?? null) : null;
  return { ...copy, id, customer: { ...copy.customer, id: customerId }, sourceAccountId: source, createdAt: at, updatedAt: at };
}

export function customerHandlers(c: ControlContext) {
  return {
    createCustomer: async ({ body }) => created(await createCustomer(c, body?.name, body?.clock)),
    resetCustomer: async ({ params }) => ok(await resetCustomer(c, params.customerId)),
  } satisfies Partial<ControlHandlers>;
}
