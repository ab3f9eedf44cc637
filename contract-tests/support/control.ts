// The control API under /_mock (no bearer token, no idempotency key), for what a client cannot
// drive: fresh customers, the mock clock, settlement, reviews, balances, delivery idleness.
// Its own document is not the public one, so its answers are checked only for what both share:
// an X-Request-Id and the Error body on failure.
import type { Operation } from './types';
import { send, type RawResponse } from './client';
import { field } from './json';

export interface ControlCustomer {
  customerId: string;
  clientId: string;
  clientSecret: string;
  accounts: string[];
  beneficiaries: string[];
  /** The customer's own clock, when the mock gave it one. */
  clock?: ClockState;
}

export interface ClockState {
  now: string;
  frozen: boolean;
}

export type Reason = { code: string; message: string };

export class ControlError extends Error {
  override name = 'ControlError';
  constructor(
    readonly status: number,
    readonly body: unknown,
    message: string,
  ) {
    super(message);
  }
}

export class Control {
  /**
   * @param clockOf a customer with a clock of its own: `clock()` and `advance()` read and move
   * that clock (GET/POST /_mock/customers/{id}/clock...), so test files sharing one mock never move
   * each other's time; without it, the mock's clock.
   */
  constructor(
    private readonly baseUrl: string,
    readonly clockOf?: string,
  ) {}

  /** The same control API, its clock calls on `customer`'s own clock. */
  onClockOf(customer: ControlCustomer): Control {
    return customer.clock ? new Control(this.baseUrl, customer.customerId) : this;
  }

  /** 200 when the control API is served; anything else means it is absent. */
  static async detect(baseUrl: string): Promise<Control | undefined> {
    const res = await send(`${baseUrl}/_mock/health`, 'GET', { accept: 'application/json' }).catch(() => undefined);
    return res?.status === 200 && field(res.body, 'status') === 'ok' ? new Control(baseUrl) : undefined;
  }

  private async call<T>(method: string, path: string, body?: unknown): Promise<T> {
    const headers: Record<string, string> = { accept: 'application/json' };
    if (body !== undefined) headers['content-type'] = 'application/json';
    const res: RawResponse = await send(
      `${this.baseUrl}/_mock${path}`,
      method,
      headers,
      body === undefined ? undefined : JSON.stringify(body),
    );
    if (!res.headers['x-request-id']) throw new ControlError(res.status, res.body, `control ${method} ${path}: no X-Request-Id`);
    if (res.status >= 300)
      throw new ControlError(res.status, res.body, `control ${method} ${path} answered ${res.status}: ${res.text.slice(0, 300)}`);
    return res.body as T;
  }

  health() {
    return this.call<ClockState & { status: string }>('GET', '/health');
  }
  createCustomer(name?: string) {
    return this.call<ControlCustomer>('POST', '/customers', name ? { name } : {});
  }
  /**
   * A fresh customer with a clock of its own, starting at the mock clock's instant and running or
   * frozen as it is; a mock without clocks per customer (400 naming body.clock) gives one on the
   * mock's clock instead.
   */
  async createCustomerWithClock(name: string): Promise<ControlCustomer> {
    const { frozen } = await this.health();
    try {
      return await this.call<ControlCustomer>('POST', '/customers', { name, clock: { frozen } });
    } catch (error) {
      if (error instanceof ControlError && error.status === 400 && JSON.stringify(error.body).includes('body.clock')) {
        return this.createCustomer(name);
      }
      throw error;
    }
  }
  /** The running configuration (the retry schedule, the auto-settle delay). */
  config() {
    return this.call<{ retryScheduleMs: number[]; autoSettleMs: number | null; quoteLifetimeMs: number }>('GET', '/config');
  }
  clock() {
    return this.call<ClockState>('GET', `${this.clockPath()}`);
  }
  /** Moves the clock (the customer's own, or the mock's); its due jobs (auto-settlement, webhook retries) run before the answer. */
  advance(by: string | number) {
    return this.call<ClockState>('POST', `${this.clockPath()}/advance`, { by });
  }
  private clockPath(): string {
    return this.clockOf ? `/customers/${this.clockOf}/clock` : '/clock';
  }
  settle(operationId: string) {
    return this.call<Operation>('POST', `/operations/${operationId}/settle`);
  }
  fail(operationId: string, reason: Reason) {
    return this.call<Operation>('POST', `/operations/${operationId}/fail`, { reason });
  }
  submitReview(accountId: string) {
    return this.call<unknown>('POST', `/accounts/${accountId}/submit-review`);
  }
  requireAction(accountId: string, reason: Reason) {
    return this.call<unknown>('POST', `/accounts/${accountId}/require-action`, { reason });
  }
  balances(accountId: string) {
    return this.call<{ accountId: string; balances: Record<string, string> }>('GET', `/accounts/${accountId}/balances`);
  }
  setBalances(accountId: string, balances: Record<string, string>) {
    return this.call<{ accountId: string; balances: Record<string, string> }>('PUT', `/accounts/${accountId}/balances`, balances);
  }
  instruction(beneficiaryId: string, instructionId: string, action: 'approve' | 'reject' | 'require-action', reason?: Reason) {
    return this.call<unknown>(
      'POST',
      `/beneficiaries/${beneficiaryId}/payment-instructions/${instructionId}/${action}`,
      reason ? { reason } : undefined,
    );
  }
  /** Resolves once every queued webhook delivery has been attempted. */
  idle() {
    return this.call<{ status: string }>('POST', '/webhooks/idle');
  }
}
