// The State view's actions in a real browser: each button calls the control API, the outcome is
// shown on its card, and the record as the service API reads it has moved - an operation flagged
// then failed with the reason chosen on the page, a deposit paid, an account submitted and
// approved, a payment instruction rejected.
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import type { Locator } from 'playwright-core';
import type { components } from '../../spec/generated/api-types';
import { describeWithChromium } from './support/chromium-suite';
import { openSession, openView, short, type Session, TEST_TIMEOUT_MS } from './support/session';

type Beneficiary = components['schemas']['Beneficiary'];
type Operation = components['schemas']['Operation'];

describeWithChromium('the inspector, acting on state', (browser) => {
  let s: Session;
  let panel: Locator;

  beforeAll(async () => {
    s = await openSession(browser());
    await s.page.goto(`${s.mock.url}/_mock/inspector#state`);
    panel = await openView(s.page, 'State');
    await panel.getByLabel('Customer').selectOption(s.mock.customerId);
  }, TEST_TIMEOUT_MS);

  afterAll(async () => {
    await s?.close();
  });

  it(
    'flags a deposit with the reason chosen on the page, then fails it: both are in its timeline',
    async () => {
      const deposit = await s.api.deposit(s.accountId, '10.00');
      const card = panel.getByRole('article', { name: `Deposit ${short(deposit.body.id)}` });
      await panel.getByLabel('Reason code').selectOption('MANUAL_REVIEW');
      await panel.getByLabel('Reason message').fill('Held for a look.');
      await card.getByRole('button', { name: 'Flag' }).click();
      await card.getByRole('status').filter({ hasText: 'is now ACTION_REQUIRED.' }).waitFor();
      await card.getByRole('listitem').filter({ hasText: 'OPERATION_ACTION_REQUIRED' }).filter({ hasText: 'Held for a look.' }).waitFor();
      await card.getByRole('button', { name: 'Flag' }).waitFor({ state: 'detached' });

      await panel.getByLabel('Reason code').selectOption('PAYMENT_NOT_RECEIVED');
      await card.getByRole('button', { name: 'Fail' }).click();
      await card.getByRole('status').filter({ hasText: 'is now FAILED.' }).waitFor();
      await card.getByRole('listitem').filter({ hasText: 'OPERATION_FAILED' }).filter({ hasText: 'PAYMENT_NOT_RECEIVED' }).waitFor();
      const read = await s.api.call<Operation>('GET', `/v1/operations/${deposit.body.id}`);
      expect(read.body.currentState).toMatchObject({ status: 'FAILED', reason: { code: 'PAYMENT_NOT_RECEIVED' } });
    },
    TEST_TIMEOUT_MS,
  );

  it(
    "pays a deposit's PIX charge with a click",
    async () => {
      const deposit = await s.api.deposit(s.accountId, '20.00');
      const card = panel.getByRole('article', { name: `Deposit ${short(deposit.body.id)}` });
      await card.getByRole('button', { name: 'Pay' }).click();
      await card.getByRole('status').filter({ hasText: 'is now COMPLETED.' }).waitFor();
      await card.getByRole('table', { name: 'Transactions (confirmed)' }).waitFor();
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'submits an account for review, then approves it',
    async () => {
      const card = panel.getByRole('article', { name: /^Macedo LTDA account / });
      await card.getByRole('button', { name: 'Submit for review' }).click();
      await card.getByRole('status').filter({ hasText: 'is now UNDER_REVIEW.' }).waitFor();
      await card.getByRole('button', { name: 'Approve' }).click();
      await card.getByRole('status').filter({ hasText: 'is now APPROVED.' }).waitFor();
      const history = card.getByRole('list').getByRole('listitem');
      await history.filter({ hasText: 'APPROVED' }).waitFor();
      expect(await history.allTextContents()).toEqual([
        expect.stringContaining('ACTION_REQUIRED'),
        expect.stringContaining('UNDER_REVIEW'),
        expect.stringContaining('APPROVED'),
      ]);
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'rejects a new payment instruction',
    async () => {
      const list = await s.api.call<{ data: Beneficiary[] }>('GET', '/v1/beneficiaries');
      const beneficiary = list.body.data[0]!;
      const added = await s.api.call<Beneficiary>('POST', `/v1/beneficiaries/${beneficiary.id}/paymentInstructions`, {
        asset: 'BRL',
        address: { rail: 'PIX_KEY', dictKey: 'qa-inspector@example.com' },
      });
      expect(added.status).toBe(201);
      const instruction = added.body.paymentInstructions.find((one) => one.address.dictKey === 'qa-inspector@example.com')!;
      const card = panel.getByRole('article', { name: new RegExp(`beneficiary ${short(beneficiary.id)}$`) });
      await card.getByRole('button', { name: `Reject instruction ${short(instruction.id)}` }).click();
      await card
        .getByRole('status')
        .filter({ hasText: `Payment instruction ${short(instruction.id)} is now REJECTED.` })
        .waitFor();
      await card.getByRole('row').filter({ hasText: 'qa-inspector@example.com' }).filter({ hasText: 'REJECTED' }).waitFor();
    },
    TEST_TIMEOUT_MS,
  );
});
