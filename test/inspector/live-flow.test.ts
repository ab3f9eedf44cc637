// The inspector in a real browser, following one QA session: requests appear as they are made,
// a click settles a deposit and its webhook attempt shows, a failing subscriber's retry follows
// the clock moved from the page, a resend adds an attempt, and a fault added from the page acts
// on the next request. Every wait is Playwright's (a locator waited for), none is a sleep.
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { describeWithChromium } from './support/chromium-suite';
import { openSession, openView, requestRow, short, waitForCount, type Session, TEST_TIMEOUT_MS } from './support/session';

describeWithChromium('the inspector, in a browser', (browser) => {
  let s: Session;
  let depositId: string;

  beforeAll(async () => {
    s = await openSession(browser());
  }, TEST_TIMEOUT_MS);

  afterAll(async () => {
    await s?.close();
  });

  it(
    'opens on the Requests view, with the mock time and live updates on',
    async () => {
      await s.page.goto(`${s.mock.url}/_mock/inspector`);
      expect(await s.page.title()).toBe('fos-mock inspector');
      expect(await s.page.getByRole('tab', { name: 'Requests' }).getAttribute('aria-selected')).toBe('true');
      await s.page.getByRole('heading', { name: 'Requests', level: 2 }).waitFor();
      await s.page.getByText('Live updates on').waitFor();
      // The clock is frozen: the header shows its instant to the second, in UTC.
      const now = (await s.mock.control.clock()).now;
      const header = s.page.getByRole('banner');
      await header.getByText(`${now.slice(0, 10)} ${now.slice(11, 19)}`).waitFor();
      expect(await header.textContent()).toContain('(frozen)');
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'a deposit made through the API appears in the requests view without a reload',
    async () => {
      await s.page.evaluate(() => Object.assign(globalThis, { stillTheSamePage: true }));
      const deposit = await s.api.deposit(s.accountId, '100.00');
      depositId = deposit.body.id;
      const row = requestRow(s.page, deposit.requestId);
      await row.waitFor();
      expect(await row.textContent()).toContain('/v1/operations/deposits');
      expect(await row.textContent()).toContain('201');
      expect(await row.textContent()).toContain(s.mock.clientId);
      expect(await s.page.evaluate(() => (globalThis as { stillTheSamePage?: boolean }).stillTheSamePage)).toBe(true);
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'settles the deposit with a click: the operation is COMPLETED and its webhook attempt is listed',
    async () => {
      const panel = await openView(s.page, 'State');
      await panel.getByLabel('Customer').selectOption(s.mock.customerId);
      const card = panel.getByRole('article', { name: `Deposit ${short(depositId)}` });
      await card.getByText('REQUESTED').first().waitFor();
      await card.getByRole('button', { name: 'Settle' }).click();
      await card
        .getByRole('status')
        .filter({ hasText: `Deposit ${short(depositId)} is now COMPLETED.` })
        .waitFor();
      await card.getByRole('listitem').filter({ hasText: 'OPERATION_COMPLETED' }).waitFor();
      expect(await card.getByRole('button', { name: 'Settle' }).count()).toBe(0);

      const [delivery] = await s.receiver.waitFor(1);
      const messageId = String(delivery?.headers['x-message-id']);
      const deliveries = await openView(s.page, 'Deliveries');
      const message = deliveries.getByRole('article', { name: `OPERATION_COMPLETED message ${short(messageId)}` });
      await message.getByRole('row').filter({ hasText: 'SUCCESS' }).filter({ hasText: '200' }).waitFor();
      expect(await message.textContent()).toContain('No retry pending.');
    },
    TEST_TIMEOUT_MS,
  );

  let failing: string;

  it(
    'shows a failed delivery, and its retry once the clock is advanced from the page',
    async () => {
      s.receiver.fallback = 500;
      const second = await s.api.deposit(s.accountId, '200.00');
      await s.mock.control.settle(second.body.id);
      const received = await s.receiver.waitFor(2);
      failing = String(received[1]?.headers['x-message-id']);
      const message = s.page.getByRole('article', { name: `OPERATION_COMPLETED message ${short(failing)}` });
      await message.getByRole('row').filter({ hasText: 'FAILED' }).filter({ hasText: '500' }).waitFor();
      await message.getByText('Next retry at 2026-11-21').waitFor();

      s.receiver.fallback = 200;
      const clock = await openView(s.page, 'Clock and faults');
      await clock.getByLabel('Advance by').fill('30s');
      await clock.getByRole('button', { name: 'Advance', exact: true }).click();
      await clock.getByRole('status').filter({ hasText: 'Advanced by 30s' }).waitFor();

      await openView(s.page, 'Deliveries');
      const attempts = message.locator('tbody tr');
      await waitForCount(attempts, 2);
      expect(await attempts.nth(0).textContent()).toContain('FAILED');
      expect(await attempts.nth(1).textContent()).toContain('SUCCESS');
      await message.getByText('No retry pending.').waitFor();
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'resends a message from the page and shows the new attempt',
    async () => {
      const message = s.page.getByRole('article', { name: `OPERATION_COMPLETED message ${short(failing)}` });
      const before = s.receiver.received.length;
      await message.getByRole('button', { name: 'Resend' }).click();
      await message.getByRole('status').filter({ hasText: 'Resent: the new attempt is SUCCESS (HTTP 200).' }).waitFor();
      await waitForCount(message.locator('tbody tr'), 3);
      expect(s.receiver.received.length).toBe(before + 1);
      expect(s.receiver.received[before]?.headers['x-message-id']).toBe(failing);
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'adds a fault from the page, and the next request carries it in its journal row',
    async () => {
      const panel = await openView(s.page, 'Clock and faults');
      await panel.getByLabel('Method').selectOption('GET');
      await panel.getByLabel('Path', { exact: true }).fill('/api/accounts');
      await panel.getByLabel('Error status').fill('503');
      await panel.getByLabel('Times (optional)').fill('1');
      await panel.getByRole('button', { name: 'Add fault' }).click();
      await panel.getByRole('status').filter({ hasText: 'Added fault' }).waitFor();
      const faultRow = panel.getByRole('row').filter({ hasText: '/api/accounts' });
      await faultRow.waitFor();
      expect(await faultRow.textContent()).toContain('error 503 INJECTED_FAULT');

      const answer = await s.api.call('GET', '/api/accounts');
      expect(answer.status).toBe(503);
      await openView(s.page, 'Requests');
      const row = requestRow(s.page, answer.requestId);
      await row.getByText(/^Fault [0-9a-f]{8}: error 503$/).waitFor();
      // The fault was used up (times: 1): the page's list follows.
      await openView(s.page, 'Clock and faults');
      await s.page.getByText('No fault: every service request is answered normally.').waitFor();
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'removes a fault with its Remove button',
    async () => {
      const fault = await s.mock.control.injectFault({ path: '/v1/quotes', latencyMs: 5 });
      const panel = s.page.getByRole('tabpanel', { name: 'Clock and faults' });
      await panel.getByRole('button', { name: `Remove fault ${short(fault.id)}` }).click();
      await panel
        .getByRole('status')
        .filter({ hasText: `Removed fault ${short(fault.id)}.` })
        .waitFor();
      await panel.getByRole('button', { name: `Remove fault ${short(fault.id)}` }).waitFor({ state: 'detached' });
      expect(await s.mock.control.faults()).toEqual([]);
    },
    TEST_TIMEOUT_MS,
  );
});
