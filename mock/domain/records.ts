// What the store keeps. Resources the API returns as they are stored are the document's own
// types (generated); the others carry the internal facts the API does not show.
import type { components } from '../../spec/generated/api-types';
import type { ClockState } from '../clock';

export type Schemas = components['schemas'];
export type Account = Schemas['Account'];
export type Operation = Schemas['Operation'];
export type Beneficiary = Schemas['Beneficiary'];
export type PaymentInstruction = Schemas['PaymentInstruction'];
export type Subscription = Schemas['Subscription'];
export type ExecutionLog = Schemas['ExecutionLog'];
export type Quote = Schemas['Quote'];
export type Tag = Schemas['Tag'];
export type Amount = Schemas['Amount'];
export type EventType = Schemas['EventType'];
export type ResourceName = Schemas['ResourceName'];

export interface CustomerRecord {
  id: string;
  name: string;
  clientId: string;
  clientSecret: string;
  /** A deleted customer's tokens stop working at once. */
  deleted: boolean;
  /**
   * The customer's own clock (POST /_mock/customers {clock}), kept with the customer so every
   * replica reads the same one; absent when it follows the mock's clock.
   */
  clock?: ClockState;
  /**
   * What a customer made by POST /_mock/customers was created with, kept so that its reset
   * (POST /_mock/customers/{id}/reset) puts the same records back under the same ids. A fixture
   * customer has none: its reset reads the fixtures.
   */
  origin?: CustomerOrigin;
}

/** A customer's records as created: its accounts, their balances, its beneficiaries. */
export interface CustomerOrigin {
  accounts: AccountRecord[];
  balances: Array<{ accountId: string; asset: string; value: string }>;
  beneficiaries: Beneficiary[];
  /** Its own clock as created (an instant, frozen or not); a reset sets it back there. */
  clock?: { start: string; frozen: boolean };
}

/** Client credentials, keyed by clientId, pointing at their customer. */
export interface ClientRecord {
  clientId: string;
  clientSecret: string;
  customerId: string;
}

/** Review is not a field of the Account resource: the seed only says PATCH stops after submission. */
export type ReviewStatus = 'NOT_SUBMITTED' | 'SUBMITTED';

export interface AccountRecord {
  account: Account;
  review: ReviewStatus;
}

export interface QuoteRecord {
  id: string;
  customerId: string;
  accountId: string;
  sourceAsset: string;
  targetAsset: string;
  /** Decimal strings at the asset's scale. */
  sourceAmount: string;
  targetAmount: string;
  rate: string;
  createdAt: string;
  expiresAt: string;
  /** The operation that consumed it; set once, atomically with the operation's insertion (store.insertConsumingQuote). */
  operationId: string | null;
  /** Made by the mock for a transfer (seed: "a 1:1 quote is generated internally"). */
  internal: boolean;
}

export interface SubscriptionRecord {
  /** As returned, without the signing secret (shown only when signing is on). */
  subscription: Subscription;
  includeAll: boolean;
  /** Standard Webhooks secret (`whsec_…`), made for every subscription so signing can be switched on later. */
  signingSecret: string;
}

/** One state an operation entered, recorded from its OPERATION_* event (the inspector's timeline). */
export interface TimelineEntry {
  eventType: EventType;
  at: string;
  status: string;
  reason?: Schemas['Reason'];
}

/**
 * An operation's timeline: the states it entered, in order. One record per operation (id = the
 * operation's), scoped by its customer: a record per state with a list per operation was about
 * 120 bytes more per stored operation (README, scaling).
 */
export interface TimelineRecord {
  id: string;
  entries: TimelineEntry[];
}

/** How long one delivery attempt took in real time (the inspector's deliveries view); id = the execution log's. */
export interface DeliveryTiming {
  id: string;
  durationMs: number;
}

export interface RecordTypes {
  customer: CustomerRecord;
  client: ClientRecord;
  account: AccountRecord;
  quote: QuoteRecord;
  operation: Operation;
  beneficiary: Beneficiary;
  subscription: SubscriptionRecord;
  executionLog: ExecutionLog;
  /** Id = the operation's; scoped by its customer. */
  timeline: TimelineRecord;
  /** Scoped by subscription id, like the execution logs. */
  deliveryTiming: DeliveryTiming;
}
