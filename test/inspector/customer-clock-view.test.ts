// The inspector's Clock and faults view, filtered by customer: a customer picked shows
// its own clock (moved from the page, no other clock moving), only its pending jobs, and only the
// faults that act on its requests; all customers shows the mock clock and every job and fault.
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import type { components } from '../../spec/generated/api-types';
import { describeWithChromium } from './support/chromium-suite';
import { openSession, openView, ServiceApi, short, type Session, TEST_TIMEOUT_MS } from './support/session';

type Account = components['schemas']['Account'];

describeWithChromium('the inspector’s clock view, customer by customer', (browser) => {
  let s: Session;
  beforeAll(async () => {
    s = await openSession(browser());
  }, TEST_TIMEOUT_MS);
  afterAll(async () => {
    await s?.close();
  });

  it(
    'a customer picked shows its own clock, moved from the page, its jobs only, and the faults that reach it',
    async () => {
      const own = await s.mock.control.newCustomer({ name: 'own-clock tester', clock: { start: '2030-01-01T00:00:00Z', frozen: true } });
      const other = await s.mock.control.newCustomer('someone else');
      const ownApi = await ServiceApi.login(s.mock, own);
      const accounts = await ownApi.call<{ data: Account[] }>('GET', '/api/accounts?limit=100');
      const funded = accounts.body.data.find((a) => a.currentState.status === 'APPROVED' && a.sourceAccountId === null) as Account;
      const ownDeposit = await ownApi.deposit(funded.id, '10.00');
      const sessionDeposit = await s.api.deposit(s.accountId, '10.00');
      const ownFault = await s.mock.control.injectFault({ path: '/v1/quotes', latencyMs: 1, customerId: own.customerId });
      const otherFault = await s.mock.control.injectFault({ path: '/v1/quotes', latencyMs: 2, customerId: other.customerId });
      const everyone = await s.mock.control.injectFault({ path: '/api/accounts', latencyMs: 3 });

      await s.page.goto(`${s.mock.url}/_mock/inspector`);
      const panel = await openView(s.page, 'Clock and faults');
      // All customers: the mock clock, both deposits' settlements, every fault.
      await panel.getByRole('heading', { name: 'Mock clock' }).waitFor();
      await panel.getByText(`operation ${short(sessionDeposit.body.id)}`).waitFor();
      await panel
        .getByRole('row')
        .filter({ hasText: short(otherFault.id) })
        .waitFor();

      await panel.getByLabel('Customer').selectOption(own.customerId);
      await panel.getByRole('heading', { name: `Clock of ${own.clientId} (its own)` }).waitFor();
      await panel.getByText(`operation ${short(ownDeposit.body.id)}`).waitFor();
      await panel.getByText(`operation ${short(sessionDeposit.body.id)}`).waitFor({ state: 'detached' });
      await panel.getByRole('heading', { name: 'Faults (2)' }).waitFor();
      expect(
        await panel
          .getByRole('row')
          .filter({ hasText: short(ownFault.id) })
          .textContent(),
      ).toContain(own.clientId);
      expect(
        await panel
          .getByRole('row')
          .filter({ hasText: short(everyone.id) })
          .textContent(),
      ).toContain('everyone');
      expect(
        await panel
          .getByRole('row')
          .filter({ hasText: short(otherFault.id) })
          .count(),
      ).toBe(0);

      // Advanced from the page: the customer's clock moves (its settlement runs), the mock's does not.
      const mockBefore = (await s.mock.control.clock()).now;
      await panel.getByLabel('Advance by').fill('1h');
      await panel.getByRole('button', { name: 'Advance', exact: true }).click();
      await panel
        .getByRole('status')
        .filter({ hasText: `Advanced by 1h: ${own.clientId}'s time is 2030-01-01T01:00:00.000Z` })
        .waitFor();
      await panel.getByRole('heading', { name: 'Pending jobs (0)' }).waitFor();
      expect((await s.mock.control.customerClock(own.customerId)).now).toBe('2030-01-01T01:00:00.000Z');
      expect((await s.mock.control.clock()).now).toBe(mockBefore);
    },
    TEST_TIMEOUT_MS,
  );
});
