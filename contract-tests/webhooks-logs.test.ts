// Webhook execution logs: resend (a new attempt, the same message id, idempotent), the logs'
// filters and pagination, and the logs of an unknown subscription. Deliveries themselves:
// webhooks.test.ts.
import { randomUUID } from 'node:crypto';
import { expect, it } from '@jest/globals';
import { describeWhen } from './support/capabilities';
import { checkDelivery } from './support/deliveries';
import type { Endpoint } from '../mock/receiver/receiver';
import { beforeAllWhen, useSession } from './support/session';
import type { ExecutionLog, Subscription } from './support/types';
import { useWebhookKit } from './support/webhook-kit';

const session = useSession();
const { receiver, subscribe, trigger, logs, logsAtLeast } = useWebhookKit(session);

describeWhen(['webhooks', 'stateful'], 'resend', () => {
  it(
    'When a failed message is resent, ' +
      'then it is delivered again at once with the same message id, as a new logged attempt [HOOK-RESEND, HOOK-MESSAGE-ID-STABLE]',
    async () => {
      const endpoint = receiver().endpoint({ fallback: { status: 500 } });
      const sub = await subscribe(endpoint.url);
      await trigger();
      const [failed] = (await logsAtLeast(sub.id, 1)).data;
      endpoint.fallback = { status: 204 };
      const res = await session().api.post<ExecutionLog>(`/v1/subscriptions/${sub.id}/executionLogs/${failed!.id}/resend`);
      expect(res.status).toBe(202);
      expect(res.body).toMatchObject({
        subscriptionId: sub.id,
        messageId: failed!.messageId,
        eventType: failed!.eventType,
        payload: failed!.payload,
      });
      expect(res.body.id).not.toBe(failed!.id);
      const received = await endpoint.waitFor(2);
      expect(received.map((r) => checkDelivery(session(), r).messageId)).toEqual([failed!.messageId, failed!.messageId]);
      const after = await logsAtLeast(sub.id, 2);
      expect(after.data.map((l) => l.id)).toContain(res.body.id);
    },
  );

  it(
    'When a resend is repeated with its key while the first is still delivering, ' +
      'then it answers 409 IDEMPOTENCY_REQUEST_IN_PROGRESS, and later replays [IDEM-REPLAY, IDEM-IN-PROGRESS]',
    async () => {
      const endpoint = receiver().endpoint({ fallback: { status: 500 } });
      const sub = await subscribe(endpoint.url);
      await trigger();
      const [failed] = (await logsAtLeast(sub.id, 1)).data;
      const path = `/v1/subscriptions/${sub.id}/executionLogs/${failed!.id}/resend`;
      const key = randomUUID();
      endpoint.fallback = 'hang';
      const first = session().api.post<ExecutionLog>(path, undefined, { idempotencyKey: key });
      // Awaited below; if the test fails before that, its rejection (the file's connections closed) is no unhandled one.
      first.catch(() => undefined);
      // The receiver leaves the first resend's delivery hanging: the first request is provably still running.
      await endpoint.waitFor(2);
      const duplicate = await session().api.post(path, undefined, { idempotencyKey: key });
      endpoint.fallback = { status: 200 };
      endpoint.release();
      expect(duplicate.status).toBe(409);
      expect(duplicate.body.code).toBe('IDEMPOTENCY_REQUEST_IN_PROGRESS');
      const original = await first;
      expect(original.status).toBe(202);
      const replay = await session().api.post<ExecutionLog>(path, undefined, { idempotencyKey: key });
      expect(replay.replayed).toBe(true);
      expect(replay.body).toEqual(original.body);
      expect(endpoint.received).toHaveLength(2);
    },
  );

  it('When an unknown log is resent, then it answers 404 [NOT-FOUND-404]', async () => {
    const sub = await subscribe('https://hooks.example.com/resend');
    const res = await session().api.post(`/v1/subscriptions/${sub.id}/executionLogs/${randomUUID()}/resend`);
    expect(res.status).toBe(404);
    expect(res.body.code).toBe('RESOURCE_NOT_FOUND');
  });
});

describeWhen(['webhooks', 'stateful'], 'listing and filtering logs', () => {
  let sub: Subscription;
  let endpoint: Endpoint;
  let all: ExecutionLog[];

  beforeAllWhen([], async () => {
    endpoint = receiver().endpoint();
    endpoint.script({ status: 500 });
    sub = await subscribe(endpoint.url);
    await trigger();
    await logsAtLeast(sub.id, 1);
    await trigger();
    all = (await logsAtLeast(sub.id, 2)).data;
  });

  const filtered = async (filters: string) => (await logs(sub.id, { filters, limit: 100 })).data.map((l) => l.id).sort();
  const ids = (pick: (l: ExecutionLog) => boolean) =>
    all
      .filter(pick)
      .map((l) => l.id)
      .sort();

  it('When logs are listed, then the most recent comes first and each is the subscription’s [PAGE-SORT]', () => {
    expect(all).toHaveLength(2);
    expect(Date.parse(all[0]!.createdAt)).toBeGreaterThanOrEqual(Date.parse(all[1]!.createdAt));
    expect(all.every((l) => l.subscriptionId === sub.id)).toBe(true);
  });

  it('When logs are walked one at a time, then each appears once and PREVIOUS returns the first page [PAGE-WALK]', async () => {
    const first = await logs(sub.id, { limit: 1 });
    expect(first.meta.previousCursor).toBeNull();
    const second = await logs(sub.id, { limit: 1, cursor: first.meta.nextCursor!, direction: 'NEXT' });
    expect(second.data[0]!.id).not.toBe(first.data[0]!.id);
    expect(second.meta.nextCursor).toBeNull();
    const back = await logs(sub.id, { limit: 1, cursor: second.meta.previousCursor!, direction: 'PREVIOUS' });
    expect(back.data.map((l) => l.id)).toEqual(first.data.map((l) => l.id));
  });

  it.each<[string, (l: ExecutionLog) => string, (l: ExecutionLog) => boolean]>([
    ['a status', () => 'status[eq]=FAILED', (l) => l.status === 'FAILED'],
    ['a numeric comparison', () => 'httpStatus[gte]=500', (l) => l.httpStatus >= 500],
    ['ne', () => 'status[ne]=FAILED', (l) => l.status !== 'FAILED'],
    ['an in list', () => 'eventType[in]=BENEFICIARY_INSTRUCTION_CREATED|OPERATION_FAILED', () => true],
    ['eq on the event type', () => 'eventType[eq]=OPERATION_FAILED', () => false],
    ['or()', () => 'or(httpStatus[gte]=500,status[eq]=SUCCESS)', () => true],
    ['and()', () => 'and(status[eq]=SUCCESS,httpStatus[lt]=300)', (l) => l.status === 'SUCCESS'],
    ['; as AND', () => 'status[eq]=SUCCESS;retryAttempts[eq]=0', (l) => l.status === 'SUCCESS'],
    ['a quoted message id', (l) => `messageId[eq]="${l.messageId}"`, (l) => l === all[0]],
    ['a nested expression', () => 'or(and(status[eq]=FAILED,httpStatus[eq]=500),and(status[eq]=SUCCESS,httpStatus[eq]=200))', () => true],
  ])('When logs are filtered by %s, then only the matching ones come back [FILTER-SELECTS]', async (_name, expression, holds) => {
    const expr = expression(all[0]!);
    expect(await filtered(expr)).toEqual(ids(holds));
  });

  it('When logs are filtered by creation time, then the instants compare as instants [FILTER-SELECTS]', async () => {
    const oldest = all[all.length - 1]!;
    expect(await filtered(`createdAt[gte]=${oldest.createdAt}`)).toEqual(ids(() => true));
    expect(await filtered(`createdAt[lt]=${oldest.createdAt}`)).toEqual([]);
  });

  it.each([['status[like]=FAILED'], ['colour[eq]=red'], ['status[eq]=FAILED)'], ['or(status[eq]=FAILED'], ['httpStatus[gt]=']])(
    'When the filter is %s, then it answers 400 INVALID_FILTER with the position of the problem [FILTER-INVALID]',
    async (filters) => {
      const res = await session().api.get(`/v1/subscriptions/${sub.id}/executionLogs`, { query: { filters } });
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('INVALID_FILTER');
      expect(Number.isInteger(res.body.details?.position)).toBe(true);
    },
  );
});

describeWhen(['stateful'], 'execution logs of an unknown subscription', () => {
  it(
    'When the logs of a subscription nobody has are listed, ' + 'then it answers 404 RESOURCE_NOT_FOUND (seed) [NOT-FOUND-404, ERROR-BODY]',
    async () => {
      const res = await session().api.get(`/v1/subscriptions/${randomUUID()}/executionLogs`);
      expect(res.status).toBe(404);
      expect(res.body.code).toBe('RESOURCE_NOT_FOUND');
    },
  );
});
