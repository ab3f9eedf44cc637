// Loads a fixture file (the demo data by default) into a store. Fixtures are data: a missing or
// malformed file stops start-up here, and one the mock could not serve stops it in
// fixture-checks.ts (the demo data is also checked against the document by a test).
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { DemoFixtures } from '../../fixtures/types';
import { ServiceError } from '../errors/catalogue';
import type { ReferenceData } from './deps';
import type { Store } from '../store';

export function readFixtures(path: string): DemoFixtures {
  let parsed: DemoFixtures;
  try {
    parsed = JSON.parse(readFileSync(path, 'utf8')) as DemoFixtures;
  } catch (error) {
    throw new Error(`fos-mock: cannot read fixtures ${path}: ${(error as Error).message}`, { cause: error });
  }
  // `null`, a list or a number is valid JSON too: named here, not a TypeError on its first field.
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    const held = parsed === null ? 'null' : Array.isArray(parsed) ? 'a list' : typeof parsed;
    throw new Error(`fos-mock: fixtures ${path} must hold a JSON object, not ${held}`);
  }
  for (const key of ['customers', 'accounts', 'accountReview', 'balances', 'beneficiaries', 'rates', 'assetScales'] as const) {
    if (parsed[key] === undefined) throw new Error(`fos-mock: fixtures ${path} lack "${key}"`);
  }
  return parsed;
}

export function referenceData(fixtures: DemoFixtures): ReferenceData {
  return { rates: fixtures.rates, scales: fixtures.assetScales };
}

export async function loadFixtures(store: Store, fixtures: DemoFixtures): Promise<void> {
  for (const customer of fixtures.customers) {
    await store.insert('customer', 'all', customer.id, { ...customer, deleted: false });
    await store.insert('client', 'all', customer.clientId, {
      clientId: customer.clientId,
      clientSecret: customer.clientSecret,
      customerId: customer.id,
    });
  }
  for (const account of fixtures.accounts) {
    await store.insert('account', account.customer.id, account.id, {
      account,
      review: fixtures.accountReview[account.id] ?? 'NOT_SUBMITTED',
    });
  }
  for (const balance of fixtures.balances) await store.setBalance(balance.accountId, balance.asset, balance.value);
  for (const beneficiary of fixtures.beneficiaries) {
    await store.insert('beneficiary', beneficiary.customerId, beneficiary.id, beneficiary);
  }
  // A fixture file holds no signing secret (fixtures pull leaves the target's out): each gets its
  // own, as a subscription created through the API does.
  for (const subscription of fixtures.subscriptions ?? []) {
    await store.insert('subscription', subscription.companyId, subscription.id, {
      subscription,
      includeAll: false,
      signingSecret: `whsec_${randomBytes(24).toString('base64')}`,
    });
  }
}

/**
 * The fixtures the mock loads at start-up and on every reset. Read from their file again on a
 * reset (`reload`), so an edited file takes effect without a restart; fixtures given in code
 * (createApp's `fixtures`) have no file and stay as given.
 */
export class FixtureSource {
  constructor(
    private data: DemoFixtures,
    /** The file they came from; undefined for fixtures given in code. */
    private readonly file: string | undefined,
    /** What the mock could not serve in a set of fixtures (fixture-checks.ts), each named. */
    private readonly problemsOf: (fixtures: DemoFixtures) => string[],
    /** Told of every set taken, the first one included. */
    private readonly onLoad: (fixtures: DemoFixtures) => void,
  ) {
    onLoad(data);
  }

  get current(): DemoFixtures {
    return this.data;
  }

  /**
   * Reads and checks the file again and takes it; a file that cannot be read or served is refused
   * with 422 FIXTURES_INVALID naming each problem, and the fixtures from before are kept.
   */
  reload(): DemoFixtures {
    if (this.file === undefined) return this.data;
    let next: DemoFixtures;
    try {
      next = readFixtures(this.file);
    } catch (error) {
      throw fixturesInvalid(this.file, [(error as Error).message.replace(/^fos-mock: /, '')]);
    }
    const problems = this.problemsOf(next);
    if (problems.length > 0) throw fixturesInvalid(this.file, problems);
    this.data = next;
    this.onLoad(next);
    return next;
  }
}

function fixturesInvalid(file: string, problems: string[]): ServiceError {
  const message = `The fixtures file ${file} cannot be loaded; the data from before is kept.`;
  return new ServiceError('FIXTURES_INVALID', { file, problems }, message);
}
