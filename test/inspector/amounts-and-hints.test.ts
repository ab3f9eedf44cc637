// Money as money and views that say what to do: balances and amounts read exactly as the API
// gives them (scale kept: 25020.00, not 25020), deliveries filtered by status and by customer, and a mock with
// nothing in it whose views name the first call to make.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { BrowserContext, Locator, Page } from 'playwright-core';
import { startMock, type RunningMock } from '../../mock/package';
import { describeWithChromium } from './support/chromium-suite';
import {
  openSession,
  openView,
  requestRow,
  ServiceApi,
  short,
  TEST_TIMEOUT_MS,
  UI_TIMEOUT_MS,
  VIEWPORT,
  type Session,
} from './support/session';

/** The status of each message listed: its latest attempt's (the last row of its attempts). */
async function latestStatuses(panel: Locator): Promise<string[]> {
  const messages = await panel.getByRole('article').all();
  return Promise.all(
    messages.map(async (message) => {
      const last = message.getByRole('table', { name: 'Attempts, oldest first' }).getByRole('row').last();
      return (await last.getByRole('cell').nth(2).textContent()) ?? '';
    }),
  );
}

describeWithChromium('the inspector, money and first steps', (browser) => {
  describe('with data', () => {
    let s: Session;

    beforeAll(async () => {
      s = await openSession(browser());
      await s.page.goto(`${s.mock.url}/_mock/inspector`);
      await s.page.getByText('Live updates on').waitFor();
    }, TEST_TIMEOUT_MS);

    afterAll(async () => {
      await s?.close();
    });

    it(
      'shows balances exactly as the control API gives them: 25020.00 BRL and 0.100000 USDT',
      async () => {
        const set = await s.mock.control.setBalances(s.accountId, { BRL: '25020.00', USDT: '0.100000' });
        expect(set.balances).toMatchObject({ BRL: '25020.00', USDT: '0.100000' });
        const panel = await openView(s.page, 'State');
        await panel.getByLabel('Customer').selectOption(s.mock.customerId);
        const card = panel.getByRole('article', { name: new RegExp(`account ${short(s.accountId)}$`) });
        const balances = card.getByRole('table', { name: 'Balances and assets' });
        const balance = (asset: string) =>
          balances
            .getByRole('row', { name: new RegExp(`^${asset} `) })
            .getByRole('cell')
            .first();
        await balance('BRL').filter({ hasText: /\d/ }).waitFor();
        const read = (await s.mock.control.balances(s.accountId)).balances;
        expect(await balance('BRL').textContent()).toBe(read.BRL);
        expect(await balance('USDT').textContent()).toBe(read.USDT);
        expect([read.BRL, read.USDT]).toEqual(['25020.00', '0.100000']);
      },
      TEST_TIMEOUT_MS,
    );

    it(
      "shows an operation's amounts exactly as the service API gives them",
      async () => {
        const deposit = await s.api.deposit(s.accountId, '100.00');
        const { sourceAmount, targetAmount } = deposit.body;
        const panel = s.page.getByRole('tabpanel', { name: 'State' });
        const card = panel.getByRole('article', { name: `Deposit ${short(deposit.body.id)}` });
        await card.waitFor();
        const line = `${sourceAmount.value} ${sourceAmount.asset} → ${targetAmount.value} ${targetAmount.asset}`;
        await card.getByText(line).waitFor();
        expect(sourceAmount.value).toBe('100.00');
      },
      TEST_TIMEOUT_MS,
    );

    it(
      'filters deliveries by status: FAILED shows only failed messages, SUCCESS only delivered ones',
      async () => {
        const delivered = await s.api.deposit(s.accountId, '10.00');
        await s.mock.control.settle(delivered.body.id);
        const [ok] = await s.receiver.waitFor(1);
        s.receiver.fallback = 500;
        const failing = await s.api.deposit(s.accountId, '20.00');
        await s.mock.control.settle(failing.body.id);
        const [, bad] = await s.receiver.waitFor(2);
        const message = (delivery: typeof ok) => `OPERATION_COMPLETED message ${short(String(delivery?.headers['x-message-id']))}`;

        const panel = await openView(s.page, 'Deliveries');
        const okCard = panel.getByRole('article', { name: message(ok) });
        const badCard = panel.getByRole('article', { name: message(bad) });
        await badCard.getByRole('row').filter({ hasText: 'FAILED' }).waitFor();
        await okCard.waitFor();

        await panel.getByLabel('Status', { exact: true }).selectOption('FAILED');
        await okCard.waitFor({ state: 'detached' });
        await badCard.waitFor();
        expect(new Set(await latestStatuses(panel))).toEqual(new Set(['FAILED']));

        await panel.getByLabel('Status', { exact: true }).selectOption('SUCCESS');
        await badCard.waitFor({ state: 'detached' });
        await okCard.waitFor();
        expect(new Set(await latestStatuses(panel))).toEqual(new Set(['SUCCESS']));

        await panel.getByLabel('Status', { exact: true }).selectOption('');
        await badCard.waitFor();
        await okCard.waitFor();
      },
      TEST_TIMEOUT_MS,
    );

    it(
      "filters deliveries by customer: another customer's subscription goes when this one is picked, and comes back",
      async () => {
        const other = await s.mock.control.newCustomer('inspector other customer');
        const api = await ServiceApi.login(s.mock, other);
        const subscribed = await api.call<{ id: string }>('POST', '/api/subscriptions', {
          url: s.receiver.url,
          resources: [{ name: 'OPERATION', events: ['OPERATION_COMPLETED'] }],
        });
        expect(subscribed.status).toBe(201);
        const panel = await openView(s.page, 'Deliveries');
        const group = (id: string) => panel.getByRole('heading', { name: new RegExp(`^Subscription ${short(id)} `) });
        const others = group(subscribed.body.id);
        await others.waitFor();
        const mine = panel.getByRole('heading', { name: /^Subscription / }).filter({ hasNot: others });

        await panel.getByLabel('Customer', { exact: true }).selectOption(s.mock.customerId);
        await others.waitFor({ state: 'detached' });
        expect(await mine.count()).toBeGreaterThan(0);

        await panel.getByLabel('Customer', { exact: true }).selectOption(other.customerId);
        await others.waitFor();
        expect(await panel.getByRole('heading', { name: /^Subscription / }).count()).toBe(1);

        await panel.getByLabel('Customer', { exact: true }).selectOption('');
        await others.waitFor();
      },
      TEST_TIMEOUT_MS,
    );
  });

  describe('on a mock with nothing done yet', () => {
    let mock: RunningMock;
    let context: BrowserContext;
    let page: Page;

    beforeAll(async () => {
      mock = await startMock({ isolatedCustomer: false });
      context = await browser().newContext({ viewport: VIEWPORT });
      context.setDefaultTimeout(UI_TIMEOUT_MS);
      page = await context.newPage();
      await page.goto(`${mock.url}/_mock/inspector`);
      await page.getByText('Live updates on').waitFor();
    }, TEST_TIMEOUT_MS);

    afterAll(async () => {
      await context?.close().catch(() => undefined);
      await mock?.close();
    });

    it(
      'the Requests view names the first call, the token, and gives way to the requests once made',
      async () => {
        const panel = await openView(page, 'Requests');
        const hint = panel.getByText('No call to the service API yet.');
        await hint.waitFor();
        expect(await hint.textContent()).toContain('POST /api/oauth/client/token');
        const res = await fetch(`${mock.url}/api/oauth/client/token`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ clientId: mock.clientId, clientSecret: mock.clientSecret }),
        });
        expect(res.status).toBe(200);
        await requestRow(page, res.headers.get('x-request-id') ?? '').waitFor();
        await hint.waitFor({ state: 'detached' });
      },
      TEST_TIMEOUT_MS,
    );

    it(
      'the State view names the calls that make the first operation',
      async () => {
        const panel = await openView(page, 'State');
        const hint = panel.getByText('No operation yet.');
        await hint.waitFor();
        expect(await hint.textContent()).toContain('POST /v1/quotes');
        expect(await hint.textContent()).toContain('POST /v1/operations/deposits');
      },
      TEST_TIMEOUT_MS,
    );

    it(
      'the Deliveries view names the call that subscribes to webhooks',
      async () => {
        const panel = await openView(page, 'Deliveries');
        const hint = panel.getByText('No subscription yet.');
        await hint.waitFor();
        expect(await hint.textContent()).toContain('POST /api/subscriptions');
      },
      TEST_TIMEOUT_MS,
    );

    it(
      'the Clock and faults view says what a job and a fault are while there is none',
      async () => {
        const panel = await openView(page, 'Clock and faults');
        await panel.getByText(/^No job pending\. .*auto-settlement.*webhook/).waitFor();
        await panel.getByText('No fault: every service request is answered normally.').waitFor();
      },
      TEST_TIMEOUT_MS,
    );
  });
});
