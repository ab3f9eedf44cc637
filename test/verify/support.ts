// Shared steps of the verification and per-customer tests (issue 44): a customer of its own with
// a client holding its token, as a test sharing one mock with others would have.
import { randomUUID } from 'node:crypto';
import type { Authed, Harness } from '../http/harness';
import { control } from '../control/support';

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

export async function newCustomer(h: Harness): Promise<TestCustomer> {
  const made = (await control(h).post('/customers', {}).expect(201)).body as Omit<TestCustomer, 'api' | 'token'>;
  const token = (
    await h.http.post('/api/oauth/client/token').send({ clientId: made.clientId, clientSecret: made.clientSecret }).expect(200)
  ).body.accessToken as string;
  const auth = `Bearer ${token}`;
  const api: Authed = {
    get: (path) => h.http.get(path).set('Authorization', auth),
    post: (path, body, key = randomUUID()) => {
      const req = h.http.post(path).set('Authorization', auth).set('X-Idempotency-Key', key);
      return body === undefined ? req : req.send(body as object);
    },
    patch: (path, body, key = randomUUID()) =>
      h.http
        .patch(path)
        .set('Authorization', auth)
        .set('X-Idempotency-Key', key)
        .send(body as object),
    delete: (path) => h.http.delete(path).set('Authorization', auth),
  };
  return { ...made, token, api };
}

/** A quote of `amount` BRL on the customer's first account. */
export function quoteFor(customer: TestCustomer, amount: string) {
  const accountId = customer.accounts[0] as string;
  return customer.api.post('/v1/quotes', { accountId, sourceAsset: 'BRL', targetAsset: 'BRL', sourceAmount: amount });
}
