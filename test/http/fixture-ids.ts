// Finds demo records by what they are, not by hard-coded ids.
import { demoFixtures } from './harness';

export function demo() {
  const f = demoFixtures();
  const [c1, c2] = f.customers as [(typeof f.customers)[0], (typeof f.customers)[0]];
  const accountsOf = (customerId: string) => f.accounts.filter((a) => a.customer.id === customerId);
  const balance = (accountId: string, asset: string) => f.balances.find((b) => b.accountId === accountId && b.asset === asset)?.value;
  const editable = (customerId: string) => accountsOf(customerId).find((a) => f.accountReview[a.id] === 'NOT_SUBMITTED')!;
  const locked = (customerId: string) => accountsOf(customerId).find((a) => f.accountReview[a.id] === 'SUBMITTED')!;
  /** The customer's account with the most BRL. */
  const funded = (customerId: string) =>
    [...accountsOf(customerId)].sort((a, b) => Number(balance(b.id, 'BRL')) - Number(balance(a.id, 'BRL')))[0]!;
  const beneficiaryOf = (customerId: string) => f.beneficiaries.find((b) => b.customerId === customerId)!;
  return { f, c1, c2, accountsOf, balance, editable, locked, funded, beneficiaryOf };
}
