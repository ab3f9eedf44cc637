// Shared steps of the verification and per-customer tests: a customer of its own with
// a client holding its token, as a test sharing one mock with others would have.
import { authedWith, type Authed, type Harness } from '../http/harness';
import { control, d, funded } from '../control/support';

/** Where the template's funded account is among a new customer's account copies (they keep the fixtures' order). */
const FUNDED_AT = d.accountsOf(d.c1.id).findIndex((account) => account.id === funded.id);

export interface TestCustomer {
  customerId: string;
  clientId: string;
  clientSecret: string;
  accounts: string[];
  beneficiaries: string[];
  /** Its access token, as sent in `Authorization: Bearer …`. */
  token: string;
  api: Authed;
}

/** A new customer; `body` may give it a clock of its own (`{ clock: { frozen: true } }`). */
export async function newCustomer(h: Harness, body: object = {}): Promise<TestCustomer> {
  const made = (await control(h).post('/customers', body).expect(201)).body as Omit<TestCustomer, 'api' | 'token'>;
  const token = (
    await h.http.post('/api/oauth/client/token').send({ clientId: made.clientId, clientSecret: made.clientSecret }).expect(200)
  ).body.accessToken as string;
  const api = authedWith(h.http, token);
  return { ...made, token, api };
}

/** The customer's copy of demo-client's funded account. */
export const fundedOf = (customer: TestCustomer) => customer.accounts[FUNDED_AT] as string;

/** A quote of `amount` BRL on the customer's funded account. */
export function quoteFor(customer: TestCustomer, amount: string) {
  const accountId = fundedOf(customer);
  return customer.api.post('/v1/quotes', { accountId, sourceAsset: 'BRL', targetAsset: 'BRL', sourceAmount: amount });
}

/** A deposit of `amount` BRL on the customer's funded account (REQUESTED). */
export async function depositFor(customer: TestCustomer, amount: string) {
  const quote = (await quoteFor(customer, amount).expect(201)).body as { id: string };
  const body = { accountId: fundedOf(customer), quoteId: quote.id, fundingInstruction: { rail: 'PIX' } };
  return (await customer.api.post('/v1/operations/deposits', body).expect(201)).body as { id: string };
}
