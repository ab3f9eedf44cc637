// A fixture file the mock cannot serve stops start-up naming each bad entry: records that break
// the document, reference data the domain cannot compute with (a rate of zero, below zero or not
// a number; a scale the document's Amount cannot hold), and links to entries that do not exist.
import { describe, expect, it } from '@jest/globals';
import { fixtureProblems } from '../../mock/services/fixture-checks';
import type { DemoFixtures } from '../../fixtures/types';
import { contract, demoFixtures, startMock } from './harness';

const check = (name: string, value: unknown) => contract().checkSchema(name, value);

/** The demo fixtures with one change made to a deep copy. */
function demoWith(change: (f: DemoFixtures) => void): DemoFixtures {
  const f = structuredClone(demoFixtures());
  change(f);
  return f;
}

const problemsOf = (change: (f: DemoFixtures) => void) => fixtureProblems(demoWith(change), check);
const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

describe('checking fixtures before the mock starts on them', () => {
  it('the demo fixtures have no problem', () => {
    expect(fixtureProblems(demoFixtures(), check)).toEqual([]);
  });

  it.each([
    ['zero', '0', 'rates[0].rate 0 must be above zero'],
    ['zero at a scale', '0.000', 'rates[0].rate 0.000 must be above zero'],
    ['negative', '-0.185', 'rates[0].rate must match pattern'],
    ['not a number', 'abc', 'rates[0].rate must match pattern'],
    ['written with an exponent', '1e3', 'rates[0].rate must match pattern'],
    ['a number, not a string', 0.185, 'rates[0].rate must be string'],
  ])('a rate that is %s is refused naming it', (_case, rate, problem) => {
    const problems = problemsOf((f) => (f.rates[0]!.rate = rate as string));
    expect(problems).toHaveLength(1);
    expect(problems[0]).toContain(problem);
  });

  it('subscriptions of no customer of the file, given twice or not valid against the document are refused', () => {
    const subscription = {
      id: '0e4b9c1e-6a1b-4d1e-9a55-3c2f3f1b7a10',
      companyId: demoFixtures().customers[0]!.id,
      url: 'https://hooks.example.com/fos',
      resources: [{ name: 'OPERATION' as const, events: ['OPERATION_COMPLETED' as const] }],
      allowRetry: false,
      createdAt: '2026-01-15T12:00:00.000Z',
      updatedAt: '2026-01-15T12:00:00.000Z',
    };
    expect(problemsOf((f) => (f.subscriptions = [subscription]))).toEqual([]);
    const problems = problemsOf((f) => {
      f.subscriptions = [
        subscription,
        subscription,
        { ...subscription, id: 'a', companyId: 'nobody', allowRetry: 'no' as unknown as boolean },
      ];
    });
    expect(problems).toEqual([
      `subscriptions[1].id ${subscription.id} is an earlier entry's too`,
      'subscriptions[2].id must match format "uuid" (Subscription)',
      'subscriptions[2].allowRetry must be boolean (Subscription)',
      'subscriptions[2].companyId nobody is no customer of the fixtures',
    ]);
  });

  it('an asset the document does not list is refused: no request may name it, and strict answers would not show it', () => {
    const problems = problemsOf((f) => {
      f.assetScales.EUR = 2;
      f.rates.push({ sourceAsset: 'BRL', targetAsset: 'EUR', rate: '0.17' });
    });
    expect(problems).toEqual([
      'assetScales.EUR 2 is not a scale of an Amount (asset is not a known value (BRL, USDT))',
      'rates[2].targetAsset EUR has no usable scale in assetScales',
    ]);
  });

  it('an account holding an asset without a scale, a second balance of one asset and a balance of no named account are refused', () => {
    const problems = problemsOf((f) => {
      f.assetScales = { BRL: 2 };
      f.rates = [];
      f.balances = [
        { accountId: f.accounts[1]!.id, asset: 'BRL', value: '1.00' },
        { accountId: f.accounts[1]!.id, asset: 'BRL', value: '2.00' },
        { accountId: 5 as unknown as string, asset: '', value: '3.00' },
        // Two balances naming no account and no asset are not taken for one balance given twice.
        { accountId: 5 as unknown as string, asset: '', value: '3.00' },
      ];
    });
    const usdtHolders = demoFixtures()
      .accounts.map((a, i) => [i, a.assets.findIndex((asset) => asset.currency === 'USDT')] as const)
      .filter(([, j]) => j >= 0);
    expect(usdtHolders.length).toBeGreaterThan(0);
    expect(problems).toEqual([
      ...usdtHolders.map(([i, j]) => `accounts[${i}].assets[${j}].currency USDT has no usable scale in assetScales`),
      `balances[1]: the balance BRL of ${demoFixtures().accounts[1]!.id} is an earlier entry's too`,
      'balances[2].accountId must be a non-empty string',
      'balances[2].asset must be a non-empty string',
      'balances[3].accountId must be a non-empty string',
      'balances[3].asset must be a non-empty string',
    ]);
  });

  it('a rate without its assets is refused naming them, not as a same-asset rate', () => {
    const problems = problemsOf((f) => {
      f.rates[0] = { rate: '1.5' } as unknown as (typeof f.rates)[number];
      f.rates[1] = { rate: '1.5' } as unknown as (typeof f.rates)[number];
    });
    // Nor are two such rates taken for one pair given twice.
    expect(problems).toEqual([
      'rates[0].sourceAsset must be a non-empty string',
      'rates[0].targetAsset must be a non-empty string',
      'rates[1].sourceAsset must be a non-empty string',
      'rates[1].targetAsset must be a non-empty string',
    ]);
  });

  it('a rate for an asset without a scale, a same-asset rate and a second rate of a pair are refused', () => {
    const problems = problemsOf((f) => {
      f.rates.push({ sourceAsset: 'BRL', targetAsset: 'EUR', rate: '0.17' });
      f.rates.push({ sourceAsset: 'BRL', targetAsset: 'BRL', rate: '1' });
      f.rates.push({ ...f.rates[0]!, rate: '0.2' });
    });
    expect(problems).toEqual([
      'rates[2].targetAsset EUR has no usable scale in assetScales',
      'rates[3] prices BRL in itself: same-asset quotes are 1:1 and take no rate',
      "rates[4]: the pair BRL to USDT is an earlier entry's too",
    ]);
  });

  it.each([
    ['below zero', -1, '-1', 'decimals must be >= 0'],
    ['not whole', 2.5, '2.5', 'decimals must be integer'],
    ['more decimals than an Amount holds', 19, '19', 'value must match pattern'],
    ['not a number', '2', '"2"', 'decimals must be integer'],
  ])('an asset scale %s is refused naming the asset, and what uses it has no usable scale', (_case, scale, written, why) => {
    const problems = problemsOf((f) => (f.assetScales.USDT = scale as number));
    expect(problems[0]).toMatch(new RegExp(`^assetScales\\.USDT ${escape(written)} is not a scale of an Amount \\(${escape(why)}`));
    // Each of the demo's six accounts holds USDT and has a USDT balance; both rates name USDT.
    expect(problems.slice(1)).toHaveLength(14);
    for (const problem of problems.slice(1))
      expect(problem).toMatch(
        /^(accounts\[\d+\]\.assets\[\d+\]\.currency|balances\[\d+\]\.asset|rates\[\d+\]\.(source|target)Asset) USDT has no usable scale/,
      );
  });

  it('an asset scale of 18, the most an Amount holds, is accepted', () => {
    expect(problemsOf((f) => (f.assetScales.USDT = 18))).toEqual([]);
  });

  it('a balance below zero, past its scale or of an unknown account is refused', () => {
    const problems = problemsOf((f) => {
      f.balances[0]!.value = '-1.00';
      f.balances[1]!.value = '1.0000001';
      f.balances[2]!.accountId = '00000000-0000-4000-8000-000000000000';
    });
    expect(problems).toHaveLength(3);
    expect(problems[0]).toMatch(/^balances\[0\]\.value must match pattern/);
    expect(problems[1]).toBe('balances[1].value 1.0000001 has more than 6 decimal places (USDT)');
    expect(problems[2]).toBe('balances[2].accountId 00000000-0000-4000-8000-000000000000 is no account of the fixtures');
  });

  it('an account or beneficiary that breaks the document is refused naming the field', () => {
    const problems = problemsOf((f) => {
      (f.accounts[0] as unknown as Record<string, unknown>).createdAt = 'yesterday';
      delete (f.beneficiaries[0] as unknown as Record<string, unknown>).id;
    });
    expect(problems).toEqual([
      'accounts[0].createdAt must match format "date-time" (Account)',
      "beneficiaries[0].id must have required property 'id' (Beneficiary)",
    ]);
  });

  it('an account of no customer, a customer id or client id twice and a review of no account are refused', () => {
    const problems = problemsOf((f) => {
      f.accounts[0]!.customer.id = '00000000-0000-4000-8000-000000000001';
      f.customers.push({ ...f.customers[0]!, name: 'again' });
      f.accountReview['00000000-0000-4000-8000-000000000002'] = 'SUBMITTED';
    });
    const [first] = demoFixtures().customers;
    expect(problems).toEqual([
      `customers[2].id ${first!.id} is an earlier entry's too`,
      `customers[2].clientId ${first!.clientId} is an earlier entry's too`,
      'accounts[0].customer.id 00000000-0000-4000-8000-000000000001 is no customer of the fixtures',
      'accountReview.00000000-0000-4000-8000-000000000002 is no account of the fixtures',
    ]);
  });

  it('a customer without a name, or with an empty client secret, is refused naming the field', () => {
    const problems = problemsOf((f) => {
      delete (f.customers[0] as unknown as Record<string, unknown>).name;
      f.customers[1]!.clientSecret = '';
    });
    expect(problems).toEqual(['customers[0].name must be a non-empty string', 'customers[1].clientSecret must be a non-empty string']);
  });

  it('customers without ids or client ids are refused naming each, not as one customer given twice', () => {
    const problems = problemsOf((f) => {
      for (const customer of f.customers) Object.assign(customer, { id: '', clientId: 7 });
      f.accounts = [];
      f.accountReview = {};
      f.balances = [];
      f.beneficiaries = [];
    });
    expect(problems).toEqual([
      'customers[0].id must be a non-empty string',
      'customers[0].clientId must be a non-empty string',
      'customers[1].id must be a non-empty string',
      'customers[1].clientId must be a non-empty string',
    ]);
  });

  it('an account holding an asset entry that is not an asset is refused for the document alone, without a TypeError', () => {
    const problems = problemsOf((f) => {
      (f.accounts[0]!.assets as unknown[]).push(null, { currency: 5 });
    });
    expect(problems.length).toBeGreaterThan(0);
    expect(problems.every((problem) => problem.startsWith('accounts[0].assets') && problem.endsWith('(Account)'))).toBe(true);
  });

  it('an unknown asset with a scale below zero is refused for the scale (an error is named before drift)', () => {
    expect(problemsOf((f) => (f.assetScales.EUR = -1))).toEqual(['assetScales.EUR -1 is not a scale of an Amount (decimals must be >= 0)']);
  });

  it('an account without its customer is refused for the document and as no customer, not with a TypeError', () => {
    const problems = problemsOf((f) => delete (f.accounts[0] as unknown as Record<string, unknown>).customer);
    expect(problems).toEqual([
      "accounts[0].customer must have required property 'customer' (Account)",
      'accounts[0].customer.id undefined is no customer of the fixtures',
    ]);
  });

  it('an account or beneficiary id given twice, a review that is neither state and a beneficiary of no customer are refused', () => {
    const problems = problemsOf((f) => {
      f.accounts.push(structuredClone(f.accounts[0]!));
      f.beneficiaries.push(structuredClone(f.beneficiaries[0]!));
      f.beneficiaries[1]!.customerId = '00000000-0000-4000-8000-000000000003';
      f.accountReview[f.accounts[1]!.id] = 'MAYBE' as 'SUBMITTED';
    });
    const { accounts, beneficiaries } = demoFixtures();
    expect(problems).toEqual([
      `accounts[${accounts.length}].id ${accounts[0]!.id} is an earlier entry's too`,
      `accountReview.${accounts[1]!.id} must be NOT_SUBMITTED or SUBMITTED`,
      'beneficiaries[1].customerId 00000000-0000-4000-8000-000000000003 is no customer of the fixtures',
      `beneficiaries[${beneficiaries.length}].id ${beneficiaries[0]!.id} is an earlier entry's too`,
    ]);
  });

  it('a balance of an asset without a scale is refused, and so is its value when it is no decimal', () => {
    const problems = problemsOf((f) => {
      f.balances[0]!.asset = 'EUR';
      f.balances[0]!.value = '1,5';
    });
    expect(problems).toHaveLength(2);
    expect(problems[0]).toBe('balances[0].asset EUR has no usable scale in assetScales');
    expect(problems[1]).toMatch(/^balances\[0\]\.value must match pattern .*\(DecimalString\)$/);
  });

  it('a scale of 0 is accepted, and a scale too large to write out is refused naming it, not with a RangeError', () => {
    expect(problemsOf((f) => (f.assetScales.BRL = 0))).toEqual([]);
    const problems = problemsOf((f) => (f.assetScales.USDT = 2 ** 40));
    expect(problems[0]).toMatch(/^assetScales\.USDT 1099511627776 is not a scale of an Amount \(value must match pattern/);
  });

  it('a collection of the wrong kind, or an entry that is not an object, is refused before any field is read', () => {
    const problems = problemsOf((f) => {
      (f as unknown as Record<string, unknown>).rates = { BRL: '1' };
      (f.balances as unknown[])[3] = null;
      (f.beneficiaries as unknown[])[1] = 'b-2';
      (f as unknown as Record<string, unknown>).assetScales = [2, 6];
    });
    expect(problems).toEqual([
      'balances[3] must be an object',
      'beneficiaries[1] must be an object',
      'rates must be a list',
      'assetScales must be an object',
    ]);
  });

  it('the mock does not start on fixtures with a problem, and names every one', async () => {
    const fixtures = demoWith((f) => {
      f.rates[0]!.rate = 'abc';
      f.rates[1]!.rate = '0';
    });
    const refused = new RegExp(
      [
        '^fos-mock: fixtures \\(given to createApp\\) are not usable:',
        ' {2}rates\\[0\\]\\.rate must match pattern .*',
        ' {2}rates\\[1\\]\\.rate 0 must be above zero$',
      ].join('\n'),
    );
    await expect(startMock({ fixtures })).rejects.toThrow(refused);
  });
});
