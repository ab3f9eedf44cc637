// What a fixture file must hold before the mock starts on it: the records it serves valid against
// the document, and reference data the domain can compute with. A bad file (a user's own, given
// with --fixtures) stops start-up naming each bad entry; without these checks a rate that is not a
// number failed the first quote with a 500, and a negative rate priced negative amounts.
import { fitsScale, isPositive } from '../domain/money';
import type { DemoFixtures } from '../../fixtures/types';
import type { FieldError } from '../../spec/contract/validators';

/** The document's check of a value against one of its named schemas (Contract.checkSchema). */
export type SchemaCheck = (name: string, value: unknown) => { errors: FieldError[]; drift: FieldError[] };

/** The collections a fixture file holds: lists, or (`accountReview`, `assetScales`) maps by key. */
const LISTS = ['customers', 'accounts', 'balances', 'beneficiaries', 'rates'] as const;
const MAPS = ['accountReview', 'assetScales'] as const;

/** Each problem of the fixtures, one line each, naming the entry (`rates[1].rate`); empty when none. */
export function fixtureProblems(fixtures: DemoFixtures, checkSchema: SchemaCheck): string[] {
  const problems: string[] = [];
  for (const key of LISTS) {
    const list = fixtures[key] as unknown;
    if (!Array.isArray(list)) problems.push(`${key} must be a list`);
    else list.forEach((entry, i) => isRecord(entry) || problems.push(`${key}[${i}] must be an object`));
  }
  for (const key of MAPS) if (!isRecord(fixtures[key])) problems.push(`${key} must be an object`);
  // Optional: the demo data has none.
  if (fixtures.subscriptions !== undefined && !Array.isArray(fixtures.subscriptions)) problems.push('subscriptions must be a list');
  // Entries of the wrong kind are all reported; what follows reads their fields.
  if (problems.length > 0) return problems;

  const check: Check = {
    problems,
    // Drift (a field or an asset code the document does not list) is refused as well: requests
    // are checked strictly (an asset the document does not know is a 400), and strict answers
    // (the default) refuse to show it.
    valid(name, value, where) {
      const found = schemaProblems(checkSchema, name, value);
      for (const error of found) problems.push(`${where}${error.field ? `.${error.field}` : ''} ${error.message} (${name})`);
      return found.length === 0;
    },
    text(value, where): value is string {
      if (typeof value === 'string' && value !== '') return true;
      problems.push(`${where} must be a non-empty string`);
      return false;
    },
    unique(seen, value, where) {
      if (seen.has(value)) problems.push(`${where} ${value} is an earlier entry's too`);
      seen.add(value);
    },
  };
  const scales = scalesOf(fixtures, checkSchema, problems);
  const customers = checkCustomers(fixtures, check);
  const accounts = checkAccounts(fixtures, customers, scales, check);
  checkBalances(fixtures, accounts, scales, check);
  const beneficiaries = new Set<string>();
  fixtures.beneficiaries.forEach((beneficiary, i) => {
    check.valid('Beneficiary', beneficiary, `beneficiaries[${i}]`);
    check.unique(beneficiaries, beneficiary.id, `beneficiaries[${i}].id`);
    if (!customers.has(beneficiary.customerId))
      problems.push(`beneficiaries[${i}].customerId ${beneficiary.customerId} is no customer of the fixtures`);
  });
  checkSubscriptions(fixtures, customers, check);
  checkRates(fixtures, scales, check);
  return problems;
}

/** Throws, naming the source and every problem, when the fixtures have any. */
export function checkFixtures(fixtures: DemoFixtures, checkSchema: SchemaCheck, source: string): void {
  const problems = fixtureProblems(fixtures, checkSchema);
  if (problems.length > 0) throw new Error(`fos-mock: fixtures ${source} are not usable:\n  ${problems.join('\n  ')}`);
}

/** The checks an entry's fields go through; each notes its problem at `where` and answers whether there was none. */
interface Check {
  problems: string[];
  /** Valid against the document's schema `name`, drift included. */
  valid(name: string, value: unknown, where: string): boolean;
  /** A non-empty string (an id, an asset code a field of ours holds). */
  text(value: unknown, where: string): value is string;
  /** Notes `value` as seen; a problem when an earlier entry had it (the store keeps one record per id). */
  unique(seen: Set<string>, value: string, where: string): void;
}

/** A value's errors and drift against a schema of the document: fixtures answer for both (see `valid`). */
function schemaProblems(checkSchema: SchemaCheck, name: string, value: unknown): FieldError[] {
  const { errors, drift } = checkSchema(name, value);
  return [...errors, ...drift];
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The scales that make a valid Amount: checked as the zero amount at that scale, so that the
 * document's Amount decides (`decimals` a whole number from 0, a value of at most 18 decimals).
 */
function scalesOf(fixtures: DemoFixtures, checkSchema: SchemaCheck, problems: string[]): Map<string, number> {
  const scales = new Map<string, number>();
  for (const [asset, decimals] of Object.entries(fixtures.assetScales)) {
    // Amount checks `decimals` itself, and the zero's text has that many decimals: at most 1,000,
    // so a huge scale makes no huge text (the document allows far fewer, so the verdict is the same).
    const zero = Number.isInteger(decimals) && decimals > 0 ? `0.${'0'.repeat(Math.min(decimals, 1000))}` : '0';
    const found = schemaProblems(checkSchema, 'Amount', { value: zero, asset, decimals });
    if (found.length === 0) scales.set(asset, decimals);
    else {
      const why = found.map((error) => `${error.field} ${error.message}`).join('; ');
      problems.push(`assetScales.${asset} ${JSON.stringify(decimals)} is not a scale of an Amount (${why})`);
    }
  }
  return scales;
}

/** Customer ids and client ids, each given once, none empty; answers the customer ids. */
function checkCustomers(fixtures: DemoFixtures, check: Check): Set<string> {
  const customers = new Set<string>();
  const clients = new Set<string>();
  fixtures.customers.forEach((customer, i) => {
    for (const field of ['name', 'clientSecret'] as const) check.text(customer[field], `customers[${i}].${field}`);
    if (check.text(customer.id, `customers[${i}].id`)) check.unique(customers, customer.id, `customers[${i}].id`);
    if (check.text(customer.clientId, `customers[${i}].clientId`)) check.unique(clients, customer.clientId, `customers[${i}].clientId`);
  });
  return customers;
}

/** Accounts valid, of a customer of the file, in assets that have a scale; their reviews of them. Answers the account ids. */
function checkAccounts(fixtures: DemoFixtures, customers: Set<string>, scales: Map<string, number>, check: Check): Set<string> {
  const accounts = new Set<string>();
  fixtures.accounts.forEach((account, i) => {
    check.valid('Account', account, `accounts[${i}]`);
    const owner = (account.customer as { id?: unknown } | undefined)?.id;
    if (!customers.has(owner as string)) check.problems.push(`accounts[${i}].customer.id ${String(owner)} is no customer of the fixtures`);
    check.unique(accounts, account.id, `accounts[${i}].id`);
    // An asset an account holds is quoted and moved at its scale (money.ts scaleOf).
    const held = Array.isArray(account.assets) ? account.assets : [];
    held.forEach((asset, j) => {
      const currency = (asset as { currency?: unknown } | null)?.currency;
      if (typeof currency === 'string' && !scales.has(currency))
        check.problems.push(`accounts[${i}].assets[${j}].currency ${currency} has no usable scale in assetScales`);
    });
  });
  for (const [id, review] of Object.entries(fixtures.accountReview)) {
    if (!accounts.has(id)) check.problems.push(`accountReview.${id} is no account of the fixtures`);
    if (review !== 'NOT_SUBMITTED' && review !== 'SUBMITTED') check.problems.push(`accountReview.${id} must be NOT_SUBMITTED or SUBMITTED`);
  }
  return accounts;
}

/** One balance per account and asset, of an account of the file, a DecimalString within the asset's scale. */
function checkBalances(fixtures: DemoFixtures, accounts: Set<string>, scales: Map<string, number>, check: Check): void {
  const held = new Set<string>();
  fixtures.balances.forEach((balance, i) => {
    const where = `balances[${i}]`;
    const accountId = check.text(balance.accountId, `${where}.accountId`);
    if (accountId && !accounts.has(balance.accountId))
      check.problems.push(`${where}.accountId ${balance.accountId} is no account of the fixtures`);
    const asset = check.text(balance.asset, `${where}.asset`);
    const scale = scales.get(balance.asset);
    if (asset && scale === undefined) check.problems.push(`${where}.asset ${balance.asset} has no usable scale in assetScales`);
    if (accountId && asset) check.unique(held, `${balance.asset} of ${balance.accountId}`, `${where}: the balance`);
    // A balance is never negative (Store.moveBalance): DecimalString has no sign.
    if (check.valid('DecimalString', balance.value, `${where}.value`) && scale !== undefined && !fitsScale(balance.value, scale))
      check.problems.push(`${where}.value ${balance.value} has more than ${scale} decimal places (${balance.asset})`);
  });
}

/** Seed: a quote fixes "the rate (1:1 for same-asset)": one rate per pair of different assets, above zero. */
function checkRates(fixtures: DemoFixtures, scales: Map<string, number>, check: Check): void {
  const pairs = new Set<string>();
  fixtures.rates.forEach((rate, i) => {
    const where = `rates[${i}]`;
    let named = true;
    for (const side of ['sourceAsset', 'targetAsset'] as const) {
      if (!check.text(rate[side], `${where}.${side}`)) named = false;
      else if (!scales.has(rate[side])) check.problems.push(`${where}.${side} ${rate[side]} has no usable scale in assetScales`);
    }
    if (named && rate.sourceAsset === rate.targetAsset)
      check.problems.push(`${where} prices ${rate.sourceAsset} in itself: same-asset quotes are 1:1 and take no rate`);
    if (named) check.unique(pairs, `${rate.sourceAsset} to ${rate.targetAsset}`, `${where}: the pair`);
    if (check.valid('DecimalString', rate.rate, `${where}.rate`) && !isPositive(rate.rate))
      check.problems.push(`${where}.rate ${rate.rate} must be above zero`);
  });
}

function checkSubscriptions(fixtures: DemoFixtures, customers: Set<string>, check: Check): void {
  const ids = new Set<string>();
  (fixtures.subscriptions ?? []).forEach((subscription, i) => {
    if (!isRecord(subscription)) return check.problems.push(`subscriptions[${i}] must be an object`);
    check.valid('Subscription', subscription, `subscriptions[${i}]`);
    check.unique(ids, subscription.id, `subscriptions[${i}].id`);
    if (!customers.has(subscription.companyId))
      check.problems.push(`subscriptions[${i}].companyId ${subscription.companyId} is no customer of the fixtures`);
    return undefined;
  });
}
