// One inspector session for a test file: a mock started in-process (its own port, an isolated
// customer, the clock frozen so only the page moves it, auto-settlement an hour away so a click
// is what settles), the scripted webhook receiver subscribed to operation events, a browser page
// of 1280x800 on GET /_mock/inspector, and a client of the service API for the test's own calls.
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { startMock, type RunningMock } from '../../../mock/package';
import { startReceiver, type Receiver } from '../../../mock/receiver/receiver';
import type { components } from '../../../spec/generated/api-types';
import { HANG_GUARD_MS } from '../../support/waits';

type Account = components['schemas']['Account'];
type Operation = components['schemas']['Operation'];

/** A hang guard for one wait of the page (a locator waited for): a change arrives within milliseconds; only a hang takes this long. */
export const UI_TIMEOUT_MS = HANG_GUARD_MS;
/** A hang guard for a test or hook of several such waits (their jest time-out). */
export const TEST_TIMEOUT_MS = 3 * UI_TIMEOUT_MS;
export const VIEWPORT = { width: 1280, height: 800 };

export interface ApiAnswer<T = unknown> {
  status: number;
  body: T;
  requestId: string;
}

export interface Session {
  mock: RunningMock;
  receiver: Receiver;
  context: BrowserContext;
  page: Page;
  /** The customer's funded account (BRL and USDT, approved). */
  accountId: string;
  api: ServiceApi;
  close(): Promise<void>;
}

export class ServiceApi {
  private constructor(
    private readonly baseUrl: string,
    private readonly token: string,
  ) {}

  /** As the mock's own customer, or as the customer of `credentials`. */
  static async login(mock: RunningMock, credentials: { clientId: string; clientSecret: string } = mock): Promise<ServiceApi> {
    const res = await fetch(`${mock.url}/api/oauth/client/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ clientId: credentials.clientId, clientSecret: credentials.clientSecret }),
    });
    const { accessToken } = (await res.json()) as { accessToken: string };
    return new ServiceApi(mock.url, accessToken);
  }

  async call<T>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<ApiAnswer<T>> {
    const headers: Record<string, string> = { authorization: `Bearer ${this.token}` };
    if (method === 'POST') Object.assign(headers, { 'content-type': 'application/json', 'x-idempotency-key': crypto.randomUUID() });
    const res = await fetch(`${this.baseUrl}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    const text = await res.text();
    return { status: res.status, body: (text ? JSON.parse(text) : undefined) as T, requestId: res.headers.get('x-request-id') ?? '' };
  }

  /** A quote of `amount` BRL into USDT and a PIX deposit with it (REQUESTED). */
  async deposit(accountId: string, amount: string): Promise<ApiAnswer<Operation>> {
    const quote = await this.call<{ id: string }>('POST', '/v1/quotes', {
      accountId,
      sourceAsset: 'BRL',
      targetAsset: 'USDT',
      sourceAmount: amount,
    });
    if (quote.status !== 201) throw new Error(`quote refused: ${quote.status} ${JSON.stringify(quote.body)}`);
    const deposit = await this.call<Operation>('POST', '/v1/operations/deposits', {
      accountId,
      quoteId: quote.body.id,
      fundingInstruction: { rail: 'PIX' },
    });
    if (deposit.status !== 201) throw new Error(`deposit refused: ${deposit.status} ${JSON.stringify(deposit.body)}`);
    return deposit;
  }
}

export async function openSession(browser: Browser): Promise<Session> {
  const mock = await startMock({ autoSettleMs: 3_600_000, clockStart: '2026-11-21T12:00:00Z' });
  const receiver = await startReceiver();
  let context: BrowserContext | undefined;
  try {
    await mock.control.freezeClock();
    const api = await ServiceApi.login(mock);
    const accounts = await api.call<{ data: Account[] }>('GET', '/api/accounts?limit=100');
    const funded = accounts.body.data.find((a) => a.currentState.status === 'APPROVED' && a.sourceAccountId === null);
    if (!funded) throw new Error('the isolated customer has no approved account');
    const subscription = await api.call('POST', '/api/subscriptions', {
      url: receiver.url,
      allowRetry: true,
      resources: [{ name: 'OPERATION', events: ['OPERATION_COMPLETED'] }],
    });
    if (subscription.status !== 201) throw new Error(`subscription refused: ${subscription.status} ${JSON.stringify(subscription.body)}`);
    context = await browser.newContext({ viewport: VIEWPORT });
    context.setDefaultTimeout(UI_TIMEOUT_MS);
    const page = await context.newPage();
    const opened = context;
    return {
      mock,
      receiver,
      context,
      page,
      accountId: funded.id,
      api,
      close: async () => {
        await opened.close().catch(() => undefined);
        await mock.close();
        await receiver.close();
      },
    };
  } catch (error) {
    await context?.close().catch(() => undefined);
    await mock.close();
    await receiver.close();
    throw error;
  }
}

/** The first block of a uuid, as the page shows ids. */
export const short = (id: string) => id.slice(0, 8);

/** Selects a view by its tab and waits until its panel is shown. */
export async function openView(page: Page, name: 'Requests' | 'State' | 'Deliveries' | 'Clock and faults'): Promise<Locator> {
  await page.getByRole('tab', { name }).click();
  const panel = page.getByRole('tabpanel', { name });
  await panel.waitFor();
  return panel;
}

/** The journal row of one request (by its request id). */
export function requestRow(page: Page, requestId: string): Locator {
  return page.getByRole('row').filter({ hasText: short(requestId) });
}

/** Waits until `locator` matches exactly `count` elements (Playwright polls; no fixed sleep). */
export async function waitForCount(locator: Locator, count: number): Promise<void> {
  if (count > 0) await locator.nth(count - 1).waitFor();
  await locator.nth(count).waitFor({ state: 'detached' });
}
