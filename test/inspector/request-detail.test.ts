// The Requests view in a real browser: a row opened from the keyboard shows the request whole
// (headers, bodies, a VALIDATION_ERROR's failures field by field), "Copy as curl" puts a command
// on the clipboard that a shell reads back as the request, and the filters narrow the journal.
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { execFileSync } from 'node:child_process';
import type { Locator } from 'playwright-core';
import { describeWithChromium } from './support/chromium-suite';
import { openSession, requestRow, waitForCount, type ApiAnswer, type Session, TEST_TIMEOUT_MS } from './support/session';

/** The words a POSIX shell makes of a command line, the command's name replaced. */
function shellWords(command: string): string[] {
  const script = `set -- ${command.replace(/^curl /, '')}\nprintf '%s\\0' "$@"`;
  return execFileSync('sh', ['-c', script], { encoding: 'utf8' }).split('\0').slice(0, -1);
}

describeWithChromium('the inspector, a request opened', (browser) => {
  let s: Session;
  let invalid: ApiAnswer;
  let accounts: ApiAnswer;
  const invalidBody = () => ({ accountId: s.accountId, sourceAsset: 'BRL', note: "it's" });
  let detail: Locator;

  beforeAll(async () => {
    s = await openSession(browser());
    accounts = await s.api.call('GET', '/api/accounts?limit=2');
    invalid = await s.api.call('POST', '/v1/quotes?dryRun=yes', invalidBody());
    await s.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: s.mock.url });
    await s.page.goto(`${s.mock.url}/_mock/inspector`);
  }, TEST_TIMEOUT_MS);

  afterAll(async () => {
    await s?.close();
  });

  it(
    'opens a row with Enter: headers, bodies and the validation failures field by field',
    async () => {
      expect(invalid.status).toBe(400);
      const row = requestRow(s.page, invalid.requestId);
      await row.getByRole('button').focus();
      await s.page.keyboard.press('Enter');
      detail = s.page.getByRole('region', { name: 'POST /v1/quotes' });
      await detail.getByRole('heading', { name: 'Validation failures' }).waitFor();
      const failures = await detail.getByRole('table', { name: 'Validation failures, field by field' }).textContent();
      expect(failures).toContain('body.note');
      expect(failures).toMatch(/body\.sourceAmount|body\.targetAmount/);
      const sent = await detail.getByRole('table', { name: 'Request headers' }).textContent();
      expect(sent).toContain('x-idempotency-key');
      expect(await detail.getByRole('table', { name: 'Response headers' }).textContent()).toContain(invalid.requestId);
      expect(await detail.getByRole('region', { name: 'Request body' }).textContent()).toContain('"sourceAsset": "BRL"');
      expect(await detail.getByRole('region', { name: 'Response body' }).textContent()).toContain('"code": "VALIDATION_ERROR"');
      expect(await detail.textContent()).toContain('?dryRun=yes');
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'copies the request as a curl command that a shell reads back as the same request',
    async () => {
      await detail.getByRole('button', { name: 'Copy as curl' }).click();
      await detail.getByRole('status').filter({ hasText: 'Copied the curl command.' }).waitFor();
      const command = await s.page.evaluate(() =>
        (globalThis as unknown as { navigator: { clipboard: { readText(): Promise<string> } } }).navigator.clipboard.readText(),
      );
      expect(command).toBe(await detail.getByRole('region', { name: 'curl command' }).textContent());
      const words = shellWords(command);
      expect(words.slice(0, 3)).toEqual(['-X', 'POST', `${s.mock.url}/v1/quotes?dryRun=yes`]);
      const headers = words.filter((_word, index) => words[index - 1] === '-H').map((header) => header.split(':')[0]);
      expect(headers).toEqual(expect.arrayContaining(['authorization', 'content-type', 'x-idempotency-key']));
      expect(headers).not.toContain('host');
      expect(headers).not.toContain('content-length');
      // The journal keeps no token: the command leaves it to the shell, as $TOKEN.
      expect(command).toContain('-H "authorization: Bearer $TOKEN"');
      expect(command).not.toContain('***');
      expect(JSON.parse(words[words.indexOf('--data-raw') + 1] ?? '')).toEqual(invalidBody());
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'filters the journal by status class, path and customer',
    async () => {
      await detail.getByRole('button', { name: 'Close details' }).click();
      const okRow = requestRow(s.page, accounts.requestId);
      const badRow = requestRow(s.page, invalid.requestId);
      await okRow.waitFor();
      const filters = s.page.getByRole('search', { name: 'Filter requests' });

      await filters.getByLabel('Status', { exact: true }).selectOption('4xx');
      await okRow.waitFor({ state: 'detached' });
      await badRow.waitFor();
      await filters.getByLabel('Status', { exact: true }).selectOption('');

      await filters.getByLabel('Path contains').fill('/api/accounts');
      await badRow.waitFor({ state: 'detached' });
      await okRow.waitFor();
      await filters.getByLabel('Path contains').fill('');

      // The token call carries no bearer token: it belongs to no customer.
      await filters.getByLabel('Customer').selectOption('none');
      await waitForCount(s.page.getByRole('row').filter({ hasText: '/api/oauth/client/token' }), 1);
      await okRow.waitFor({ state: 'detached' });
      await filters.getByLabel('Customer').selectOption(s.mock.customerId);
      await okRow.waitFor();
      expect(await s.page.getByRole('row').filter({ hasText: '/api/oauth/client/token' }).count()).toBe(0);
    },
    TEST_TIMEOUT_MS,
  );

  it(
    'moves between rows with the arrow keys',
    async () => {
      const buttons = s.page.getByRole('region', { name: 'Requests list' }).getByRole('button');
      await buttons.first().focus();
      await s.page.keyboard.press('ArrowDown');
      expect(await buttons.nth(1).evaluate((element) => element === element.ownerDocument.activeElement)).toBe(true);
      await s.page.keyboard.press('ArrowUp');
      expect(await buttons.nth(0).evaluate((element) => element === element.ownerDocument.activeElement)).toBe(true);
    },
    TEST_TIMEOUT_MS,
  );
});
