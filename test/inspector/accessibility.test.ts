// Every view of the inspector, with data in it, audited by axe-core in a real browser (no serious
// or critical violation) and photographed at 1280x800 (docs/inspector/<view>.png with
// INSPECTOR_SCREENSHOTS=1); and the tabs driven from the keyboard alone.
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import type { Locator, Page } from 'playwright-core';
import { describeViolations, screenshot, seriousViolations } from './support/audit';
import { describeWithChromium } from './support/chromium-suite';
import { openSession, openView, requestRow, type Session, TEST_TIMEOUT_MS } from './support/session';

type ViewName = 'Requests' | 'State' | 'Deliveries' | 'Clock and faults';

/** Each view, made to show what it is for before it is audited. */
const VIEWS: Array<[ViewName, string, (panel: Locator, s: Session) => Promise<void>]> = [
  [
    'Requests',
    'requests',
    async (panel, s) => {
      const invalid = await s.api.call('POST', '/v1/quotes', { accountId: s.accountId, sourceAsset: 'BRL', targetAsset: 'USDT' });
      await requestRow(s.page, invalid.requestId).getByRole('button').click();
      await panel.getByRole('heading', { name: 'Validation failures' }).waitFor();
    },
  ],
  [
    'State',
    'state',
    async (panel, s) => {
      await panel.getByLabel('Customer').selectOption(s.mock.customerId);
      await panel.getByRole('heading', { name: /^Operations \(\d+\)$/ }).waitFor();
      await panel
        .getByRole('article', { name: /^Deposit / })
        .first()
        .waitFor();
    },
  ],
  [
    'Deliveries',
    'deliveries',
    async (panel) => {
      await panel.getByRole('row').filter({ hasText: 'FAILED' }).first().waitFor();
      await panel.getByText('Payload').first().click();
    },
  ],
  [
    'Clock and faults',
    'clock-and-faults',
    async (panel) => {
      await panel.getByRole('row').filter({ hasText: '/v1/operations/*' }).waitFor();
      await panel.getByRole('row').filter({ hasText: 'deliver' }).first().waitFor();
    },
  ],
];

const isFocused = (page: Page, name: string) =>
  page
    .getByRole('tab', { name })
    .evaluate((element) => element === element.ownerDocument.activeElement && element.matches(':focus-visible'));

describeWithChromium('the inspector, audited', (browser) => {
  let s: Session;

  beforeAll(async () => {
    s = await openSession(browser());
    // Something in every view: settled and pending deposits, a failed delivery waiting for its
    // retry, a latency fault.
    const settled = await s.api.deposit(s.accountId, '100.00');
    await s.mock.control.settle(settled.body.id);
    await s.receiver.waitFor(1);
    s.receiver.fallback = 500;
    const failed = await s.api.deposit(s.accountId, '250.00');
    await s.mock.control.settle(failed.body.id);
    await s.receiver.waitFor(2);
    await s.api.deposit(s.accountId, '42.00');
    await s.mock.control.injectFault({ method: 'GET', path: '/v1/operations/*', latencyMs: { min: 50, max: 200 } });
    await s.page.goto(`${s.mock.url}/_mock/inspector`);
    await s.page.getByText('Live updates on').waitFor();
  }, TEST_TIMEOUT_MS);

  afterAll(async () => {
    await s?.close();
  });

  it(
    'is operable from the keyboard: arrow keys, Home and End move between the tabs, with a visible focus',
    async () => {
      await s.page.getByRole('tab', { name: 'Requests' }).focus();
      await s.page.keyboard.press('ArrowRight');
      expect(await s.page.getByRole('tab', { name: 'State' }).getAttribute('aria-selected')).toBe('true');
      await s.page.getByRole('tabpanel', { name: 'State' }).waitFor();
      expect(await isFocused(s.page, 'State')).toBe(true);
      await s.page.keyboard.press('End');
      expect(await isFocused(s.page, 'Clock and faults')).toBe(true);
      await s.page.keyboard.press('ArrowRight');
      expect(await isFocused(s.page, 'Requests')).toBe(true);
      await s.page.keyboard.press('ArrowLeft');
      expect(await isFocused(s.page, 'Clock and faults')).toBe(true);
      await s.page.keyboard.press('Home');
      expect(await s.page.getByRole('tab', { name: 'Requests' }).getAttribute('aria-selected')).toBe('true');
      const outline = await s.page
        .getByRole('tab', { name: 'Requests' })
        .evaluate((element) => element.ownerDocument.defaultView?.getComputedStyle(element).outlineStyle);
      expect(outline).not.toBe('none');
      // The view is kept in the address. Read in the page: Playwright's page.url() learns of a
      // replaceState from the browser after the key's handler has run, and was seen still at #requests.
      await s.page.keyboard.press('ArrowRight');
      expect(await s.page.evaluate<string>('location.hash')).toBe('#state');
    },
    TEST_TIMEOUT_MS,
  );

  for (const [name, file, prepare] of VIEWS) {
    it(
      `finds no serious or critical accessibility violation on the ${name} view`,
      async () => {
        const panel = await openView(s.page, name);
        await prepare(panel, s);
        const violations = await seriousViolations(s.page);
        expect(describeViolations(violations)).toEqual([]);
        await s.page.getByRole('banner').scrollIntoViewIfNeeded();
        await screenshot(s.page, file);
      },
      TEST_TIMEOUT_MS,
    );
  }

  it(
    'shows a control API refusal as its Error body says it',
    async () => {
      const panel = await openView(s.page, 'Clock and faults');
      await panel.getByLabel('Advance by').fill('soon');
      await panel.getByRole('button', { name: 'Advance', exact: true }).click();
      await panel
        .getByRole('status')
        .filter({ hasText: /^Failed: 400 VALIDATION_ERROR: .+/ })
        .waitFor();
    },
    TEST_TIMEOUT_MS,
  );
});
