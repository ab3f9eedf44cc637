// `fos-mock fixtures pull`: the customer's accounts, beneficiaries and subscriptions read through
// the service API (every page), written as a fixtures file `serve --fixtures` loads as it is. The
// API shows no balances, rates or asset scales: balances get --balance (stated, to edit in the
// file), rates and scales are the demo data's. No credential is written: the customer logs in to
// the mock with LOCAL_SECRET, and subscriptions carry no signing secret.
import { readFileSync, writeFileSync } from 'node:fs';
import type { AccountReview, Balance, DemoFixtures } from '../../fixtures/types';
import type { components } from '../../spec/generated/api-types';
import { projectPath } from '../../spec/project-root';
import { UserError } from '../scenarios/errors';
import { describeAnswer, MockClient } from '../scenarios/http';
import { LOCAL_SECRET } from '../scenarios/setup';
import { maskRecord, masker } from './fixtures-mask';

type Account = components['schemas']['Account'];
type Beneficiary = components['schemas']['Beneficiary'];
type Subscription = components['schemas']['Subscription'];

export interface PullFlags {
  url: string;
  clientId: string;
  clientSecret: string;
  out: string;
  mask?: boolean;
  maskKey: string;
  balance: string;
}

export interface Pulled {
  fixtures: DemoFixtures;
  counts: { accounts: number; beneficiaries: number; subscriptions: number };
}

/** Every record of a listing, page after page (meta.nextCursor until it is null). */
async function everyPage<T>(client: MockClient, path: string, token: string, pageSize: number): Promise<T[]> {
  const records: T[] = [];
  let cursor: string | null = null;
  do {
    const query: string = `limit=${pageSize}&sortOrder=ASCENDING${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
    const answer = await client.send('GET', `${path}?${query}`, { headers: { authorization: `Bearer ${token}` } });
    if (answer.status !== 200) throw new UserError(`GET ${path} answered ${describeAnswer(answer)}`);
    const page = answer.body as { data: T[]; meta?: { nextCursor?: string | null } };
    records.push(...page.data);
    cursor = page.meta?.nextCursor ?? null;
  } while (cursor);
  return records;
}

/** NOT_SUBMITTED while the owner may still be replaced: ACTION_REQUIRED and never submitted for review. */
function reviewOf(account: Account): AccountReview {
  const submitted = account.states?.some((s) => s.status !== 'ACTION_REQUIRED') ?? account.currentState.status !== 'ACTION_REQUIRED';
  return account.currentState.status === 'ACTION_REQUIRED' && !submitted ? 'NOT_SUBMITTED' : 'SUBMITTED';
}

function amount(value: string, scale: number): string {
  const [whole = '0', fraction = ''] = value.split('.');
  return scale === 0 ? whole : `${whole}.${fraction.padEnd(scale, '0').slice(0, scale)}`;
}

/** `pageSize`: the `limit` of each listing (small in tests, so that cursors are followed). */
export async function pullFixtures(flags: PullFlags, pageSize = 100): Promise<Pulled> {
  if (!/^(0|[1-9][0-9]*)(\.[0-9]+)?$/.test(flags.balance)) throw new UserError(`--balance ${flags.balance} is not a decimal amount`);
  const client = new MockClient(flags.url, { kind: 'target', flag: '--url' });
  try {
    const login = await client.send('POST', '/api/oauth/client/token', {
      body: { clientId: flags.clientId, clientSecret: flags.clientSecret },
    });
    if (login.status !== 200) throw new UserError(`the target refused the credentials of ${flags.clientId} (${describeAnswer(login)})`);
    const token = (login.body as { accessToken: string }).accessToken;
    const accounts = await everyPage<Account>(client, '/api/accounts', token, pageSize);
    const beneficiaries = await everyPage<Beneficiary>(client, '/v1/beneficiaries', token, pageSize);
    const subscriptions = await everyPage<Subscription & { signingSecret?: string }>(client, '/v1/subscriptions', token, pageSize);
    const demo = JSON.parse(readFileSync(projectPath('fixtures', 'demo.json'), 'utf8')) as DemoFixtures;
    const customerId = accounts[0]?.customer.id ?? beneficiaries[0]?.customerId ?? subscriptions[0]?.companyId;
    if (!customerId) throw new UserError(`${flags.clientId} has no account, beneficiary or subscription there: nothing to pull`);
    const mask = flags.mask ? masker(flags.maskKey) : undefined;
    const masked = <T>(record: T): T => (mask ? maskRecord(record, mask) : record);
    const balances: Balance[] = accounts.flatMap((a) =>
      a.assets.map((asset) => ({
        accountId: a.id,
        asset: asset.currency,
        value: amount(flags.balance, demo.assetScales[asset.currency] ?? 2),
      })),
    );
    const fixtures: DemoFixtures = {
      customers: [
        {
          id: customerId,
          name: `${flags.clientId} (pulled from ${new URL(client.baseUrl).host})`,
          clientId: flags.clientId,
          clientSecret: LOCAL_SECRET,
        },
      ],
      accounts: accounts.map(masked),
      accountReview: Object.fromEntries(accounts.map((a) => [a.id, reviewOf(a)])),
      balances,
      beneficiaries: beneficiaries.map(masked),
      // The signing secret is the target's: left out; the mock makes its own for each subscription.
      subscriptions: subscriptions.map(({ signingSecret: _, ...s }) => s),
      rates: demo.rates,
      assetScales: demo.assetScales,
    };
    writeFileSync(flags.out, `${JSON.stringify(fixtures, null, 2)}\n`);
    return { fixtures, counts: { accounts: accounts.length, beneficiaries: beneficiaries.length, subscriptions: subscriptions.length } };
  } finally {
    await client.close();
  }
}
