// Tenancy, reading. Customer 2, holding a perfectly valid token, gets 404 for every one of
// customer 1's ids on every operation that takes one (exactly as for an id nobody has, with none
// of customer 1's data in the answer), cannot use customer 1's cursors, never sees customer 1's
// ids in its lists or execution logs, and never receives customer 1's webhooks.
import { describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import type { ExecutionLog, Subscription } from '../../mock/domain/records';
import { createQuote, expectStatus, walkAll } from './support/api';
import { answerProblems } from './support/checks';
import { as2, BODIES, c1, c2, d, errors, h, leaks, mine, one, r1, r2, stats, tenancyFile, two, twoTenants } from './support/tenancy';

tenancyFile('tenancy-reads.test.ts');

describe('tenancy', () => {
  twoTenants();

  it(
    "for every operation with a path id, customer 2's token on customer 1's ids is 404, " +
      "exactly as for an unknown id, with none of customer 1's data",
    async () => {
      const before = {
        account: (await one.get(`/api/accounts/${mine.accountId}`)).body,
        beneficiary: (await one.get(`/v1/beneficiaries/${mine.beneficiaryId}`)).body,
        subscription: (await one.get(`/v1/subscriptions/${mine.subscriptionId}`)).body,
      };
      const withIds = h.mock.contract.operations.filter((op) => op.pathParams.length > 0);
      expect(withIds.length).toBeGreaterThanOrEqual(11);
      for (const op of withIds) {
        for (const name of op.pathParams)
          if (!mine[name])
            throw new Error(`${op.operationId}: no customer-1 id known for path parameter ${name}; teach this test about it`);
        if (op.hasBody && op.bodyRequired && !(op.operationId in BODIES))
          throw new Error(`${op.operationId}: no valid body known; teach this test about it`);
        const ids = op.pathParams.map((name) => mine[name]!);
        const unknown = op.pathParams.map(() => randomUUID());
        const fill = (values: string[]) => op.pathParams.reduce((p, name, i) => p.replace(`{${name}}`, values[i]!), op.path);
        const theirs = await as2(op, fill(ids));
        if (theirs.status !== 404 || theirs.body?.code !== 'RESOURCE_NOT_FOUND')
          throw new Error(`${op.operationId}: customer 2 on customer 1's ids got ${theirs.status} ${theirs.text.slice(0, 300)}`);
        expect(answerProblems(h.mock.contract, op, theirs)).toEqual([]);
        expect(leaks(theirs.text, ids)).toEqual([]);
        // Exactly like an id nobody has: the same answer with the ids swapped.
        const nobody = await as2(op, fill(unknown));
        expect(nobody.status).toBe(404);
        const normalised = ids.reduce((text, id, i) => text.split(id).join(unknown[i]), theirs.text);
        expect(normalised).toBe(nobody.text);
      }
      // Nothing of customer 1 changed (PATCH, DELETE and POST were all refused).
      expect((await one.get(`/api/accounts/${mine.accountId}`)).body).toEqual(before.account);
      expect((await one.get(`/v1/beneficiaries/${mine.beneficiaryId}`)).body).toEqual(before.beneficiary);
      expect((await one.get(`/v1/subscriptions/${mine.subscriptionId}`)).body).toEqual(before.subscription);
    },
  );

  it("customer 2's own subscription with customer 1's execution log id is 404 too", async () => {
    const own = (await walkAll<Subscription>(two, '/v1/subscriptions'))[0]!.id;
    const answer = await two.post(`/v1/subscriptions/${own}/executionLogs/${mine.executionLogId}/resend`);
    stats.crossTenantRequests++;
    expect(answer.status).toBe(404);
    expect(leaks(answer.text, [mine.executionLogId!])).toEqual([]);
  });

  it("a cursor of customer 1's list is refused for customer 2 (400 INVALID_CURSOR), never a page of customer 1's data", async () => {
    for (const path of ['/v1/operations', '/api/accounts', '/v1/beneficiaries', '/v1/subscriptions']) {
      const page = expectStatus(await one.get(`${path}?limit=1`), 200, `c1 ${path}`);
      const cursor = page.body.meta.nextCursor ?? page.body.meta.previousCursor;
      if (!cursor) continue;
      const answer = await two.get(`${path}?cursor=${encodeURIComponent(cursor)}`);
      stats.crossTenantRequests++;
      expect(answer.status).toBe(400);
      expect(answer.body.code).toBe('INVALID_CURSOR');
      expect(leaks(answer.text, [])).toEqual([]);
    }
  });

  it("customer 2's lists and execution logs, walked in both orders, never contain customer 1's ids", async () => {
    const subscriptions = await walkAll<Subscription>(two, '/v1/subscriptions');
    const lists = [
      '/api/accounts',
      '/v1/operations',
      '/v1/beneficiaries',
      '/v1/subscriptions',
      ...subscriptions.map((s) => `/v1/subscriptions/${s.id}/executionLogs`),
    ];
    for (const list of lists) {
      for (const order of ['DESCENDING', 'ASCENDING']) {
        const items = await walkAll(two, `${list}?sortOrder=${order}`);
        stats.listsWalked++;
        expect(items.length).toBeGreaterThan(0);
        expect(leaks(JSON.stringify(items), [])).toEqual([]);
      }
    }
  });

  it("customer 1's webhooks never reach customer 2's subscription", async () => {
    // More events of both, after the lists above.
    const q = await createQuote(one, { accountId: d.funded(c1).id, sourceAsset: 'BRL', targetAsset: 'BRL', sourceAmount: '1.00' });
    expectStatus(
      await one.post('/v1/operations/deposits', { accountId: d.funded(c1).id, quoteId: q.id, fundingInstruction: { rail: 'PIX' } }),
      201,
      'c1 deposit',
    );
    await h.mock.services.webhooks.idle();
    expect(r1.received.length).toBeGreaterThan(0);
    expect(r2.received.length).toBeGreaterThan(0);
    for (const delivery of r2.received) {
      const body = JSON.parse(delivery.body);
      expect(body.customerId).toBe(c2);
      expect(leaks(delivery.body, [])).toEqual([]);
      stats.webhooksChecked++;
    }
    for (const delivery of r1.received) {
      expect(JSON.parse(delivery.body).customerId).toBe(c1);
      stats.webhooksChecked++;
    }
    // And the logs agree: customer 2's subscription logged only customer 2's messages.
    const own = (await walkAll<Subscription>(two, '/v1/subscriptions'))[0]!.id;
    const logs = await walkAll<ExecutionLog>(two, `/v1/subscriptions/${own}/executionLogs`);
    expect(logs.length).toBe(r2.received.length);
    for (const log of logs) expect(JSON.parse(log.payload).customerId).toBe(c2);
  });
});

describe('the mock itself', () => {
  it('logged no internal error through all of the above', () => {
    expect(errors.describe()).toEqual([]);
  });
});
