// A mock shared by many tests runs on one thread: a verification whose pattern a backtracking
// engine could never finish would hold every other request behind it. Here the mock is a process
// of its own (`fos-mock serve`), so a frozen mock would show as answers that never come (this
// test failing at Jest's hang guard), not as the test runner itself stuck.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { serviceClient, startReplicas, type Replicas, type ServiceClient } from '../support/replicas';

let mock: Replicas | undefined;
let client: ServiceClient | undefined;
beforeAll(async () => {
  mock = await startReplicas(1, { redisUrl: undefined, env: { AUTO_SETTLE_MS: 'off' } });
  client = serviceClient(mock.urls[0]!);
});
afterAll(async () => {
  client?.close();
  await mock?.stopAll();
});

describe('a catastrophic pattern on a shared mock', () => {
  it('^(a+)+$ over 5,000 a’s and a ! is answered, and so is another request sent beside it', async () => {
    const customer = await client!.customer();
    const api = client!.as(await client!.token(customer.clientId, customer.clientSecret));
    const text = `${'a'.repeat(5_000)}!`;
    const quote = await api.post('/v1/quotes', {
      accountId: customer.accounts[0],
      sourceAsset: text,
      targetAsset: 'BRL',
      sourceAmount: '1.00',
    });
    expect(quote.status).toBe(400);
    const pattern = {
      request: {
        method: 'POST',
        path: '/v1/quotes',
        customerId: customer.customerId,
        body: [{ path: '$.sourceAsset', matches: '^(a+)+$' }],
      },
      count: { atLeast: 1 },
    };
    const [verdict, other] = await Promise.all([client!.call('POST', '/_mock/journal/verify', {}, pattern), api.get('/api/accounts')]);
    expect(verdict.status).toBe(200);
    expect(verdict.body).toMatchObject({ ok: false, count: 0, searched: 1 });
    expect(other.status).toBe(200);
  });
});
