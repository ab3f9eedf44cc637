// Typed helpers over a running mock's control API (/_mock, spec/control-openapi.yaml), for a
// team's own tests: `mock.control.settle(id)`, `advanceClock('5m')`, `injectFault({...})`.
// Each helper is one documented control operation; its method and path are read from the
// control document itself (shipped with the package), and its types are the generated ones.
import type { components as Control, operations as ControlOperations } from '../../spec/generated/control-api-types';
import type { components as Service } from '../../spec/generated/api-types';
import { loadDocument } from '../../spec/contract/document';
import type { BodyOf, PathOf } from '../../spec/operation-parts';
import { CONTROL_DOCUMENT_PATH } from '../control/contract';
import { deferred } from '../lazy/deferred';
import { describeError, MockClient } from '../scenarios/http';

type Id = keyof ControlOperations;
type Reason = Service['schemas']['Reason'];
type Operation = Service['schemas']['Operation'];
type Account = Service['schemas']['Account'];
type Beneficiary = Service['schemas']['Beneficiary'];

/** A control call that did not succeed: its status and the Error body the mock answered. */
export class ControlError extends Error {
  constructor(
    readonly operationId: string,
    readonly status: number,
    readonly body: unknown,
  ) {
    // The Error body's code and message, and the fields a refusal names, one a line.
    const detail = describeError(body);
    super(`fos-mock control ${operationId} answered ${status}${detail ? ` ${detail}` : ''}`);
    this.name = 'ControlError';
  }
}

/** Method and path template of every control operation, read from the control document once per process. */
const controlRoutes = deferred((): Map<string, { method: string; path: string }> => {
  const routes = new Map<string, { method: string; path: string }>();
  for (const [path, item] of Object.entries(loadDocument(CONTROL_DOCUMENT_PATH).paths)) {
    for (const [method, operation] of Object.entries(item as Record<string, { operationId?: string }>)) {
      if (operation?.operationId) routes.set(operation.operationId, { method: method.toUpperCase(), path });
    }
  }
  return routes;
});

export class ControlClient {
  private readonly client: MockClient;
  private readonly routes = controlRoutes();

  /** `baseUrl` is the mock's own URL (the control API is under /_mock there). */
  constructor(baseUrl: string) {
    this.client = new MockClient(baseUrl);
  }

  /** Calls one control operation by its operationId; throws a ControlError unless it succeeds. */
  async call<K extends Id>(
    operationId: K,
    params: PathOf<ControlOperations[K]>,
    body?: BodyOf<ControlOperations[K]>,
    /** Query parameters; those undefined are left out. */
    query?: Record<string, string | number | undefined>,
  ): Promise<unknown> {
    const route = this.routes.get(operationId);
    if (!route) throw new Error(`fos-mock: the control document has no operation ${operationId}`);
    const path = route.path.replace(/\{([^}]+)\}/g, (_, name: string) =>
      encodeURIComponent(String((params as Record<string, unknown>)[name])),
    );
    const search = new URLSearchParams();
    for (const [name, value] of Object.entries(query ?? {})) if (value !== undefined) search.set(name, String(value));
    const answer = await this.client.send(route.method, search.size > 0 ? `${path}?${search.toString()}` : path, { body });
    if (answer.status < 200 || answer.status > 299) throw new ControlError(operationId, answer.status, answer.body);
    return answer.body;
  }

  health = async () => (await this.call('getHealth', {})) as Control['schemas']['Health'];
  /** Back to the fixtures: every record, balance, key, fault and the journal; the clock keeps its time. */
  reset = async () => (await this.call('resetState', {})) as Control['schemas']['ResetResult'];
  snapshot = async () => (await this.call('getSnapshot', {})) as Control['schemas']['Snapshot'];
  restore = async (snapshot: Control['schemas']['Snapshot']) =>
    (await this.call('restoreSnapshot', {}, snapshot)) as Control['schemas']['RestoreResult'];
  /**
   * A customer of its own (copies of demo-client's accounts and beneficiaries), with credentials;
   * a name, or `{ name?, clock?: { start?, frozen? } }` to give it a clock of its own.
   */
  newCustomer = async (options?: string | Control['schemas']['CustomerCreate']) =>
    (await this.call(
      'createCustomer',
      {},
      typeof options === 'string' ? { name: options } : (options ?? {}),
    )) as Control['schemas']['CustomerCreated'];

  clock = async () => (await this.call('getClock', {})) as Control['schemas']['ClockState'];
  /** Moves the mock clock (`'250ms'`, `'30s'`, `'5m'`, `'1h30m'`, or milliseconds); what falls due runs first. */
  advanceClock = async (by: string | number) => (await this.call('advanceClock', {}, { by })) as Control['schemas']['ClockState'];
  freezeClock = async (at?: string) =>
    (await this.call('freezeClock', {}, at === undefined ? {} : { at })) as Control['schemas']['ClockState'];
  unfreezeClock = async () => (await this.call('unfreezeClock', {})) as Control['schemas']['ClockState'];

  /** A customer's clock: its own (`own: true`), or the mock's that it follows. */
  customerClock = async (customerId: string) =>
    (await this.call('getCustomerClock', { customerId })) as Control['schemas']['CustomerClockState'];
  /** Moves a customer's own clock; only its jobs run, no other clock moves. */
  advanceCustomerClock = async (customerId: string, by: string | number) =>
    (await this.call('advanceCustomerClock', { customerId }, { by })) as Control['schemas']['CustomerClockState'];
  freezeCustomerClock = async (customerId: string, at?: string) =>
    (await this.call('freezeCustomerClock', { customerId }, at === undefined ? {} : { at })) as Control['schemas']['CustomerClockState'];
  unfreezeCustomerClock = async (customerId: string) =>
    (await this.call('unfreezeCustomerClock', { customerId })) as Control['schemas']['CustomerClockState'];

  /** Completes an operation (a deposit, as if its payment arrived). */
  settle = async (operationId: string) => (await this.call('settleOperation', { operationId })) as Operation;
  /** Pays a deposit's PIX charge (refused once the charge expired). */
  pay = async (operationId: string) => (await this.call('payOperation', { operationId })) as Operation;
  fail = async (operationId: string, reason: Reason) => (await this.call('failOperation', { operationId }, { reason })) as Operation;
  requireAction = async (operationId: string, reason: Reason) =>
    (await this.call('requireOperationAction', { operationId }, { reason })) as Operation;

  submitAccount = async (accountId: string) => (await this.call('submitAccountForReview', { accountId })) as Account;
  approveAccount = async (accountId: string) => (await this.call('approveAccount', { accountId })) as Account;
  rejectAccount = async (accountId: string, reason: Reason) => (await this.call('rejectAccount', { accountId }, { reason })) as Account;
  activateAsset = async (accountId: string, currency: string) =>
    (await this.call('activateAccountAsset', { accountId, currency })) as Account;
  failAsset = async (accountId: string, currency: string) => (await this.call('failAccountAsset', { accountId, currency })) as Account;
  balances = async (accountId: string) => (await this.call('getAccountBalances', { accountId })) as Control['schemas']['Balances'];
  /** Sets balances of an account, asset to decimal string at the asset's scale. */
  setBalances = async (accountId: string, balances: Record<string, string>) =>
    (await this.call('setAccountBalances', { accountId }, balances)) as Control['schemas']['Balances'];

  approveInstruction = async (beneficiaryId: string, instructionId: string) =>
    (await this.call('approvePaymentInstruction', { beneficiaryId, instructionId })) as Beneficiary;
  rejectInstruction = async (beneficiaryId: string, instructionId: string, reason: Reason) =>
    (await this.call('rejectPaymentInstruction', { beneficiaryId, instructionId }, { reason })) as Beneficiary;

  /** A fault on the service API: latency, an error answer or a dropped connection, for some or all matching requests. */
  injectFault = async (fault: Control['schemas']['FaultCreate']) =>
    (await this.call('createFault', {}, fault)) as Control['schemas']['Fault'];
  faults = async () => ((await this.call('listFaults', {})) as Control['schemas']['FaultList']).data;
  removeFault = async (faultId: string) => void (await this.call('deleteFault', { faultId }));
  clearFaults = async () => void (await this.call('deleteAllFaults', {}));
  journal = async (limit?: number) => ((await this.call('getJournal', {})) as Control['schemas']['Journal']).data.slice(0, limit);

  /** Resolves when every queued webhook delivery has been attempted (retries not yet due excepted). */
  webhooksIdle = async () => (await this.call('waitForWebhooks', {})) as Control['schemas']['IdleResult'];
  /** The pending jobs (settlements, deliveries, retries) by due time, of every customer or of one; the first 500 and the total. */
  jobs = async (customerId?: string) => (await this.call('listJobs', {}, undefined, { customerId })) as Control['schemas']['JobList'];

  // Verification: the journal filtered, and the requests or deliveries a pattern finds checked against a count.
  /** The journal filtered (customer, method, path template or pattern, status or `4xx`, mock-time range), newest first. */
  journalWhere = async (filter: JournalFilter) =>
    ((await this.call('getJournal', {}, undefined, filter)) as Control['schemas']['Journal']).data;
  /** Whether `count` requests matched the pattern, which, and the near misses when too few did. */
  verifyRequests = async (verification: RequestVerification) =>
    (await this.call('verifyRequests', {}, { nearMisses: 3, ...verification })) as RequestVerdict;
  /** The same for webhook messages (event type, subscription, customer, status, attempts, payload). */
  verifyDeliveries = async (verification: DeliveryVerification) =>
    (await this.call('verifyDeliveries', {}, { nearMisses: 3, ...verification })) as DeliveryVerdict;
  /** One customer back to the data it was created with; no one else touched. */
  resetCustomer = async (customerId: string) =>
    (await this.call('resetCustomer', { customerId })) as Control['schemas']['CustomerResetResult'];
  /** A customer of its own for one test, with helpers scoped to it (faults, verify, deliveries, reset). */
  /** A fresh customer as a per-test handle; `{ clock: { start?, frozen? } }` gives it a clock of its own (`handle.clock`). */
  customer = async (options?: string | Control['schemas']['CustomerCreate']) => new CustomerHandle(this, await this.newCustomer(options));

  async close(): Promise<void> {
    await this.client.close();
  }
}

// Verification's types, and per-customer handles.

export type JournalFilter = NonNullable<ControlOperations['getJournal']['parameters']['query']>;
/** `nearMisses` defaults to 3. */
export type RequestVerification = Omit<Control['schemas']['RequestVerification'], 'nearMisses'> & { nearMisses?: number };
export type DeliveryVerification = Omit<Control['schemas']['DeliveryVerification'], 'nearMisses'> & { nearMisses?: number };
export type RequestVerdict = Control['schemas']['RequestVerificationResult'];
export type DeliveryVerdict = Control['schemas']['DeliveryVerificationResult'];
export type CountExpectation = Control['schemas']['CountExpectation'];
export type RequestPattern = Control['schemas']['RequestPattern'];
export type DeliveryPattern = Control['schemas']['DeliveryPattern'];

/**
 * One test's customer on a shared mock: its credentials, and the control helpers scoped to it, so
 * tests running at once against one mock neither see nor disturb each other.
 */
export class CustomerHandle {
  readonly customerId: string;
  readonly clientId: string;
  readonly clientSecret: string;
  /** Its accounts (copies of demo-client's, in the fixtures' order) and beneficiaries. */
  readonly accounts: string[];
  readonly beneficiaries: string[];

  constructor(
    private readonly control: ControlClient,
    created: Control['schemas']['CustomerCreated'],
  ) {
    ({
      customerId: this.customerId,
      clientId: this.clientId,
      clientSecret: this.clientSecret,
      accounts: this.accounts,
      beneficiaries: this.beneficiaries,
    } = created);
  }

  /**
   * This customer's own clock (made with `customer({ clock: … })`): only its quotes, tokens, keys,
   * settlements and retries run on it, and moving it moves no one else's time. A customer without
   * one is refused 409 by every call but `read`.
   */
  readonly clock = {
    read: async () => this.control.customerClock(this.customerId),
    advance: async (by: string | number) => this.control.advanceCustomerClock(this.customerId, by),
    freeze: async (at?: string) => this.control.freezeCustomerClock(this.customerId, at),
    unfreeze: async () => this.control.unfreezeCustomerClock(this.customerId),
  };

  /** Faults that act only on requests with this customer's token. */
  readonly faults = {
    add: async (fault: Omit<Control['schemas']['FaultCreate'], 'customerId'>) =>
      this.control.injectFault({ ...fault, customerId: this.customerId }),
    list: async () =>
      ((await this.control.call('listFaults', {}, undefined, { customerId: this.customerId })) as Control['schemas']['FaultList']).data,
    clear: async () => void (await this.control.call('deleteAllFaults', {}, undefined, { customerId: this.customerId })),
  };

  /** This customer's own journal, filtered; other customers' traffic never pushes it out. */
  journal = async (filter: Omit<JournalFilter, 'customerId'> = {}) => this.control.journalWhere({ ...filter, customerId: this.customerId });

  /** Verifies this customer's requests (at least one when `count` is absent); resolves with the verdict, ok or not. */
  verify = async (request: Omit<RequestPattern, 'customerId'>, count?: CountExpectation, nearMisses?: number) =>
    this.control.verifyRequests({
      request: { ...request, customerId: this.customerId },
      ...(count ? { count } : {}),
      ...(nearMisses === undefined ? {} : { nearMisses }),
    });

  /** This customer's webhook messages. */
  readonly deliveries = {
    verify: async (delivery: Omit<DeliveryPattern, 'customerId'>, count?: CountExpectation, nearMisses?: number) =>
      this.control.verifyDeliveries({
        delivery: { ...delivery, customerId: this.customerId },
        ...(count ? { count } : {}),
        ...(nearMisses === undefined ? {} : { nearMisses }),
      }),
    /** Resolves when every queued delivery (of every customer) has been attempted; retries not yet due excepted. */
    idle: async () => this.control.webhooksIdle(),
  };

  /** This customer's pending jobs (its settlements and its subscriptions' deliveries), due by its clock when it has one. */
  jobs = async () => this.control.jobs(this.customerId);

  /** Back to the data it was created with (records, balances, keys, faults, journal); credentials kept. */
  reset = async () => this.control.resetCustomer(this.customerId);
}
