// Webhooks to a receiver the suite runs: the delivery (headers, payload against the document's
// webhooks section), its execution log, failures of each kind, retries on the mock clock,
// resend, and the log filters and pagination. Events are caused by saving a beneficiary with a
// PIX instruction (BENEFICIARY_INSTRUCTION_CREATED), which moves no money; operation events
// are checked where money may move.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from '@jest/globals';
import { capabilities, describeWhen, itWhen } from './support/capabilities';
import { checkDelivery, startSuiteReceiver } from './support/deliveries';
import { eventually } from './support/eventually';
import { findAccounts } from './support/preconditions';
import { closedPort } from '../mock/receiver/closed-port';
import type { Endpoint, Receiver } from '../mock/receiver/receiver';
import { person, pixInstruction } from './support/samples';
import { beforeAllWhen, useSession } from './support/session';
import type { Beneficiary, ExecutionLog, Operation, Page, Quote, Subscription } from './support/types';

const session = useSession();
let receiver: Receiver;
const INSTRUCTION_CREATED = [{ name: 'BENEFICIARY', events: ['BENEFICIARY_INSTRUCTION_CREATED'] }];

beforeAll(async () => {
  if (!capabilities().webhooks) return;
  receiver = await startSuiteReceiver();
});
// Its own afterAll, not session().onClose: that throws when the session did not open
// (a target that breaks the control API), and the receiver would keep jest from exiting.
afterAll(async () => {
  await receiver?.close();
});

async function subscribe(url: string, extra: Record<string, unknown> = {}): Promise<Subscription> {
  const { api, onClose } = session();
  const res = await api.post<Subscription>('/api/subscriptions', { url, resources: INSTRUCTION_CREATED, ...extra });
  expect(res.status).toBe(201);
  onClose(() => api.delete(`/v1/subscriptions/${res.body.id}`));
  return res.body;
}

/** Saves a beneficiary with one PIX instruction: one BENEFICIARY_INSTRUCTION_CREATED event. */
async function trigger(dictKey = `${randomUUID()}@example.com`): Promise<Beneficiary> {
  const res = await session().api.post<Beneficiary>('/v1/beneficiaries', {
    entity: person,
    relationshipType: 'THIRD_PARTY',
    paymentInstructions: [pixInstruction(dictKey)],
  });
  expect(res.status).toBe(201);
  await session().deliveriesIdle();
  return res.body;
}

async function logs(subscriptionId: string, query: Record<string, string | number> = {}): Promise<Page<ExecutionLog>> {
  const res = await session().api.get<Page<ExecutionLog>>(`/v1/subscriptions/${subscriptionId}/executionLogs`, { query });
  expect(res.status).toBe(200);
  return res.body;
}

/** The subscription's logs once there are at least `count` (deliveries are asynchronous). */
const logsAtLeast = (subscriptionId: string, count: number, query: Record<string, string | number> = {}) =>
  eventually(
    () => logs(subscriptionId, { limit: 100, ...query }),
    (page) => page.data.length >= count,
    `${count} execution logs`,
  );

describeWhen(['webhooks', 'stateful'], 'a healthy receiver', () => {
  it(
    'When a payment instruction is saved, ' +
      'then the subscriber gets a JSON POST matching the document, logged once as SUCCESS [HOOK-DELIVERY, HOOK-PAYLOAD, HOOK-LOG-OUTCOME]',
    async () => {
      const endpoint = receiver.endpoint();
      const sub = await subscribe(endpoint.url);
      const dictKey = `${randomUUID()}@example.com`;
      const beneficiary = await trigger(dictKey);
      const [received] = await endpoint.waitFor(1);
      const delivery = checkDelivery(session(), received!);
      expect(delivery.eventType).toBe('BENEFICIARY_INSTRUCTION_CREATED');
      expect(delivery.payload).toMatchObject({
        id: beneficiary.id,
        customerId: beneficiary.customerId,
        instruction: { asset: 'BRL', address: { rail: 'PIX_KEY', key: dictKey } },
      });
      const [log] = (await logsAtLeast(sub.id, 1)).data;
      expect(log).toMatchObject({
        subscriptionId: sub.id,
        messageId: delivery.messageId,
        eventType: delivery.eventType,
        url: endpoint.url,
        payload: received!.body,
        httpStatus: 200,
        status: 'SUCCESS',
        retryAttempts: 0,
      });
      expect(log!.error ?? null).toBeNull();
    },
  );

  itWhen(
    ['writes'],
    'When an operation is requested (and, with the control API, settled), ' +
      'then its OPERATION_* events arrive in order [HOOK-EVENT-SELECTION, HOOK-DELIVERY]',
    async () => {
      const { api, control } = session();
      const endpoint = receiver.endpoint();
      await subscribe(endpoint.url, { resources: [{ name: 'OPERATION', events: ['OPERATION_REQUESTED', 'OPERATION_COMPLETED'] }] });
      const { funded } = await findAccounts(session());
      const q = (
        await api.post<Quote>('/v1/quotes', { accountId: funded.id, sourceAsset: 'BRL', targetAsset: 'BRL', sourceAmount: '1.00' })
      ).body;
      const op = (
        await api.post<Operation>('/v1/operations/deposits', { accountId: funded.id, quoteId: q.id, fundingInstruction: { rail: 'PIX' } })
      ).body;
      const [requested] = await endpoint.waitFor(1);
      expect(checkDelivery(session(), requested!)).toMatchObject({
        eventType: 'OPERATION_REQUESTED',
        payload: { id: op.id, data: { id: op.id } },
      });
      if (!control) return;
      await control.settle(op.id).catch(() => undefined); // already settled by the mock's own timer: the event is there anyway
      await session().deliveriesIdle();
      const events = endpoint.received.map((r) => checkDelivery(session(), r)).filter((d) => d.payload.id === op.id);
      expect(events.map((d) => d.eventType)).toEqual(['OPERATION_REQUESTED', 'OPERATION_COMPLETED']);
      expect(new Set(events.map((d) => d.messageId)).size).toBe(2);
    },
  );

  itWhen(
    ['control', 'secondCustomer'],
    'When other events happen, then a subscriber receives only its own customer’s events of the types it named [HOOK-EVENT-SELECTION]',
    async () => {
      const endpoint = receiver.endpoint();
      await subscribe(endpoint.url);
      const beneficiary = await trigger();
      // BENEFICIARY_INSTRUCTION_APPROVED: not subscribed.
      await session().control!.instruction(beneficiary.id, beneficiary.paymentInstructions[0]!.id, 'approve');
      const other = await session().otherCustomer();
      expect(
        (
          await other.post('/v1/beneficiaries', {
            entity: person,
            relationshipType: 'THIRD_PARTY',
            paymentInstructions: [pixInstruction()],
          })
        ).status,
      ).toBe(201);
      await session().deliveriesIdle();
      expect(endpoint.received.map((r) => checkDelivery(session(), r)).map((d) => [d.eventType, d.payload.id])).toEqual([
        ['BENEFICIARY_INSTRUCTION_CREATED', beneficiary.id],
      ]);
    },
  );

  itWhen(
    ['control'],
    'When a subscription has includeAll, then it receives every event of its customer, in the order they happened [HOOK-EVENT-SELECTION]',
    async () => {
      const endpoint = receiver.endpoint();
      await subscribe(endpoint.url, { includeAll: true, resources: undefined });
      const beneficiary = await trigger();
      await session().control!.instruction(beneficiary.id, beneficiary.paymentInstructions[0]!.id, 'approve');
      await session().deliveriesIdle();
      const mine = endpoint.received.map((r) => checkDelivery(session(), r)).filter((d) => d.payload.id === beneficiary.id);
      expect(mine.map((d) => d.eventType)).toEqual(['BENEFICIARY_INSTRUCTION_CREATED', 'BENEFICIARY_INSTRUCTION_APPROVED']);
      expect(Date.parse(mine[1]!.payload.atTime)).toBeGreaterThanOrEqual(Date.parse(mine[0]!.payload.atTime));
    },
  );
});

describeWhen(['webhooks', 'stateful'], 'failed deliveries', () => {
  it.each([
    ['answers 500', { status: 500 } as const, 500],
    ['answers 404', { status: 404 } as const, 404],
    ['resets the connection', 'reset' as const, 0],
  ])(
    'When the receiver %s, then the attempt is logged FAILED with that httpStatus and an error [HOOK-LOG-OUTCOME]',
    async (_name, behaviour, httpStatus) => {
      const endpoint = receiver.endpoint({ fallback: behaviour });
      const sub = await subscribe(endpoint.url);
      await trigger();
      const [log] = (await logsAtLeast(sub.id, 1)).data;
      expect(log).toMatchObject({ status: 'FAILED', httpStatus, retryAttempts: 0 });
      expect(log!.error).toEqual(expect.any(String));
    },
  );

  itWhen(
    ['loopbackReceiver'],
    'When nothing listens at the URL, then the attempt is logged FAILED with httpStatus 0 [HOOK-LOG-OUTCOME]',
    async () => {
      const sub = await subscribe(`http://127.0.0.1:${await closedPort()}/hooks`);
      await trigger();
      const [log] = (await logsAtLeast(sub.id, 1)).data;
      expect(log).toMatchObject({ status: 'FAILED', httpStatus: 0 });
      expect(log!.error).toEqual(expect.any(String));
    },
  );

  itWhen(
    ['control'],
    'When the receiver redirects, then the redirect is not followed and the attempt is FAILED [HOOK-LOG-OUTCOME]',
    async () => {
      const elsewhere = receiver.endpoint();
      const endpoint = receiver.endpoint({ fallback: { status: 302, location: elsewhere.url } });
      const sub = await subscribe(endpoint.url);
      await trigger();
      const [log] = (await logsAtLeast(sub.id, 1)).data;
      expect(log).toMatchObject({ status: 'FAILED', httpStatus: 302 });
      expect(elsewhere.received).toEqual([]);
    },
  );

  itWhen(
    ['control'],
    'When retries are off, then a failed delivery is attempted once, however long the clock runs [HOOK-RETRY]',
    async () => {
      const endpoint = receiver.endpoint({ fallback: { status: 503 } });
      const sub = await subscribe(endpoint.url, { allowRetry: false });
      await trigger();
      await session().control!.advance('2h');
      await session().deliveriesIdle();
      expect((await logs(sub.id)).data).toHaveLength(1);
      expect(endpoint.received).toHaveLength(1);
    },
  );
});

describeWhen(['webhooks', 'control', 'stateful'], 'retries (control clock)', () => {
  let schedule: number[];
  beforeAllWhen([], async () => {
    schedule = (await session().control!.config()).retryScheduleMs;
  });

  async function advance(ms: number) {
    await session().control!.advance(ms);
    await session().deliveriesIdle();
  }

  it(
    'When a receiver fails once and then recovers, ' +
      'then the same message is retried when due and logged SUCCESS with retryAttempts 1 [HOOK-RETRY, HOOK-MESSAGE-ID-STABLE]',
    async () => {
      const endpoint = receiver.endpoint();
      endpoint.script({ status: 500 });
      const sub = await subscribe(endpoint.url, { allowRetry: true });
      await trigger();
      await advance(schedule[0]!);
      const received = await endpoint.waitFor(2);
      expect(new Set(received.map((r) => checkDelivery(session(), r).messageId)).size).toBe(1);
      const attempts = (await logs(sub.id, { sortOrder: 'ASCENDING' })).data;
      expect(attempts.map((l) => [l.status, l.retryAttempts, l.httpStatus])).toEqual([
        ['FAILED', 0, 500],
        ['SUCCESS', 1, 200],
      ]);
      expect(new Set(attempts.map((l) => l.messageId)).size).toBe(1);
    },
  );

  it('When a receiver never recovers, then the retries stop at the end of the schedule [HOOK-RETRY]', async () => {
    const endpoint = receiver.endpoint({ fallback: { status: 503 } });
    const sub = await subscribe(endpoint.url, { allowRetry: true });
    await trigger();
    for (const step of schedule) await advance(step);
    await advance(2 * 3_600_000);
    const all = (await logs(sub.id, { limit: 100, sortOrder: 'ASCENDING' })).data;
    expect(all).toHaveLength(schedule.length + 1);
    expect(all.map((l) => l.retryAttempts)).toEqual(all.map((_l, i) => i));
    expect(all.every((l) => l.status === 'FAILED' && l.httpStatus === 503)).toBe(true);
    expect(endpoint.received).toHaveLength(all.length);
  });
});

describeWhen(['webhooks', 'stateful'], 'resend', () => {
  it(
    'When a failed message is resent, ' +
      'then it is delivered again at once with the same message id, as a new logged attempt [HOOK-RESEND, HOOK-MESSAGE-ID-STABLE]',
    async () => {
      const endpoint = receiver.endpoint({ fallback: { status: 500 } });
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
      const endpoint = receiver.endpoint({ fallback: { status: 500 } });
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
    endpoint = receiver.endpoint();
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
