// Every view at a phone's width (390 px), a tablet's (768 px) and a laptop's (1280 px), with data
// in it: the page never scrolls sideways, no text is cut into a character or two a line, nothing
// is drawn over anything else, and axe-core finds no serious violation (a table that scrolls
// sideways is a named region a keyboard can reach). The Requests view with a request opened,
// Clock and faults with its form to add a fault beside the pending jobs. Photographed at 390 px
// (docs/inspector/<view>-390.png with INSPECTOR_SCREENSHOTS=1).
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import type { Locator } from 'playwright-core';
import { describeViolations, screenshot, seriousViolations } from './support/audit';
import { describeWithChromium } from './support/chromium-suite';
import { layoutProblems, overlap } from './support/layout';
import { openSession, openView, requestRow, type Session, TEST_TIMEOUT_MS } from './support/session';

const WIDTHS = [390, 768, 1280];
const HEIGHT = 844;

type ViewName = 'Requests' | 'State' | 'Deliveries' | 'Clock and faults';

describeWithChromium('the inspector at every width', (browser) => {
  let s: Session;
  let invalidId: string;

  /** Each view, showing what it is for: its prepare waits until it does. */
  const views: Array<[ViewName, string, (panel: Locator) => Promise<void>]> = [
    [
      'Requests',
      'requests',
      async (panel) => {
        await requestRow(s.page, invalidId).getByRole('button').click();
        await panel.getByRole('heading', { name: 'Validation failures' }).waitFor();
      },
    ],
    [
      'State',
      'state',
      async (panel) => {
        await panel.getByLabel('Customer').selectOption(s.mock.customerId);
        await panel
          .getByRole('article', { name: /^Deposit / })
          .first()
          .waitFor();
        await panel.getByRole('table', { name: 'Balances and assets' }).first().waitFor();
      },
    ],
    [
      'Deliveries',
      'deliveries',
      async (panel) => {
        await panel.getByRole('row').filter({ hasText: 'FAILED' }).first().waitFor();
        const payload = panel.getByText('Payload').first();
        if ((await payload.locator('..').getAttribute('open')) === null) await payload.click();
        await panel
          .getByRole('region', { name: /^Payload of message / })
          .first()
          .waitFor();
      },
    ],
    [
      'Clock and faults',
      'clock-and-faults',
      async (panel) => {
        await panel.getByRole('row').filter({ hasText: '/v1/operations/*' }).waitFor();
        await panel.getByRole('row').filter({ hasText: 'deliver' }).first().waitFor();
        await panel.getByRole('form', { name: 'Add a fault' }).waitFor();
      },
    ],
  ];

  beforeAll(async () => {
    s = await openSession(browser());
    // Something in every view: a settled deposit and its delivery, a failed delivery waiting
    // for its retry (a pending job), a pending deposit, a fault, and a refused quote.
    const settled = await s.api.deposit(s.accountId, '100.00');
    await s.mock.control.settle(settled.body.id);
    await s.receiver.waitFor(1);
    s.receiver.fallback = 500;
    const failed = await s.api.deposit(s.accountId, '250.00');
    await s.mock.control.settle(failed.body.id);
    await s.receiver.waitFor(2);
    await s.api.deposit(s.accountId, '42.00');
    await s.mock.control.injectFault({ method: 'GET', path: '/v1/operations/*', latencyMs: { min: 50, max: 200 } });
    const invalid = await s.api.call('POST', '/v1/quotes', { accountId: s.accountId, sourceAsset: 'BRL', targetAsset: 'USDT' });
    invalidId = invalid.requestId;
    await s.page.goto(`${s.mock.url}/_mock/inspector`);
    await s.page.getByText('Live updates on').waitFor();
  }, TEST_TIMEOUT_MS);

  afterAll(async () => {
    await s?.close();
  });

  for (const width of WIDTHS) {
    for (const [name, file, prepare] of views) {
      it(
        `${name} at ${width} px: no sideways scroll, no text cut a character a line, nothing covered, no serious axe violation`,
        async () => {
          await s.page.setViewportSize({ width, height: HEIGHT });
          const panel = await openView(s.page, name);
          await prepare(panel);
          expect(await layoutProblems(s.page)).toEqual([]);
          expect(describeViolations(await seriousViolations(s.page))).toEqual([]);
          if (width === 390) await screenshot(s.page, `${file}-${width}`);
        },
        TEST_TIMEOUT_MS,
      );
    }

    it(
      `at ${width} px a request opened is as wide as its text needs, in sight`,
      async () => {
        await s.page.setViewportSize({ width, height: HEIGHT });
        const panel = await openView(s.page, 'Requests');
        await requestRow(s.page, invalidId).getByRole('button').click();
        const detail = panel.getByRole('region', { name: 'POST /v1/quotes' });
        await detail.getByRole('heading', { name: 'Validation failures' }).waitFor();
        const box = await detail.boundingBox();
        expect(box?.width).toBeGreaterThanOrEqual(Math.min(width - 60, 360));
        // Opened below the list on a narrow screen, it is brought up into sight.
        const heading = await detail.getByRole('heading', { name: 'POST /v1/quotes' }).boundingBox();
        expect(heading?.y).toBeGreaterThanOrEqual(0);
        expect(heading?.y).toBeLessThan(HEIGHT / 2);
      },
      TEST_TIMEOUT_MS,
    );

    it(
      `at ${width} px the form that adds a fault covers neither the pending jobs nor the faults`,
      async () => {
        await s.page.setViewportSize({ width, height: HEIGHT });
        const panel = await openView(s.page, 'Clock and faults');
        const form = panel.getByRole('form', { name: 'Add a fault' });
        const jobs = panel.getByRole('table', { name: 'Pending jobs by due time' });
        const faults = panel.getByRole('table', { name: /^Faults/ });
        await jobs.getByRole('row').filter({ hasText: 'deliver' }).first().waitFor();
        expect(await overlap(form, jobs)).toBe(false);
        expect(await overlap(form, faults)).toBe(false);
        expect(await overlap(jobs, faults)).toBe(false);
      },
      TEST_TIMEOUT_MS,
    );
  }
});
