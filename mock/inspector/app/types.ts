// The page's types: the control document's schemas (spec/generated/control-api-types.ts) with the
// service records it embeds (`x-public-schema`, typed there as opaque objects) put back from the
// service document's schemas (spec/generated/api-types.ts). Nothing here restates a schema.
import type { components as ControlComponents } from '../../../spec/generated/control-api-types';
import type { components as ServiceComponents } from '../../../spec/generated/api-types';

type C = ControlComponents['schemas'];
type S = ServiceComponents['schemas'];

export type ErrorBody = C['Error'];
export type ClockState = C['ClockState'];
export type Fault = C['Fault'];
export type FaultCreate = C['FaultCreate'];
export type FaultList = C['FaultList'];
export type JournalEntry = C['JournalEntry'];
export type Journal = C['Journal'];
/** One entry whole: `request` and `response` are absent when the replica that answered it is gone. */
export type JournalDetail = C['JournalDetail'];
export type HeaderMap = C['HeaderMap'];
export type CustomerSummary = C['CustomerSummary'];
export type CustomerSummaryList = C['CustomerSummaryList'];
export type PendingJob = C['PendingJob'];
export type JobList = C['JobList'];
export type TimelineEntry = C['TimelineEntry'];
export type ReasonBody = C['ReasonBody'];

export type Account = S['Account'];
export type Operation = S['Operation'];
export type Quote = S['Quote'];
export type Beneficiary = S['Beneficiary'];
export type PaymentInstruction = S['PaymentInstruction'];
export type Subscription = S['Subscription'];
export type ExecutionLog = S['ExecutionLog'];
export type Amount = S['Amount'];
export type Reason = S['Reason'];

export type AccountView = Omit<C['AccountView'], 'account'> & { account: Account };
export type QuoteView = Omit<C['QuoteView'], 'quote'> & { quote: Quote };
export type OperationView = Omit<C['OperationView'], 'operation'> & { operation: Operation };
export type CustomerState = Omit<C['CustomerState'], 'accounts' | 'quotes' | 'operations' | 'beneficiaries' | 'subscriptions'> & {
  accounts: AccountView[];
  quotes: QuoteView[];
  operations: OperationView[];
  beneficiaries: Beneficiary[];
  subscriptions: Subscription[];
};
export type DeliveryMessage = Omit<C['DeliveryMessage'], 'attempts'> & { attempts: ExecutionLog[] };
export type SubscriptionDeliveries = Omit<C['SubscriptionDeliveries'], 'subscription' | 'messages'> & {
  subscription: Subscription;
  messages: DeliveryMessage[];
};
export type DeliveryList = { data: SubscriptionDeliveries[] };

/** What a `change` event of GET /_mock/live names (the document's LiveTopic). */
export type Topic = C['LiveTopic'];
/** Every topic, once: the compiler refuses a list that misses one of the document's or names another. */
const ALL: Record<Topic, true> = { requests: true, state: true, deliveries: true, jobs: true, clock: true, faults: true };
export const TOPICS = Object.keys(ALL) as readonly Topic[];
