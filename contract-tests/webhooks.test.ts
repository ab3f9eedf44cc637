// Webhooks to a receiver the suite runs: the delivery (headers, payload against the document's
// webhooks section), its execution log, failures of each kind and retries on the mock clock.
// Events are caused by saving a beneficiary with a PIX instruction (BENEFICIARY_INSTRUCTION_CREATED),
// which moves no money; operation events are checked where money may move. Resend and the logs'
// filters and pagination: webhooks-logs.test.ts.
import { randomUUID } from 'node:crypto';
import { expect, it } from '@jest/globals';
import { describeWhen, itWhen } from './support/capabilities';
import { checkDelivery } from './support/deliveries';
import { declaredEvents } from './support/lifecycle';
import { findAccounts } from './support/preconditions';
import { closedPort } from '../mock/receiver/closed-port';
import { person, pixInstruction } from './support/samples';
import { beforeAllWhen, useSession } from './support/session';
import type { Operation, Quote } from './support/types';
import { useWebhookKit } from './support/webhook-kit';

const session = useSession();
const { receiver, subscribe, trigger, logs, logsAtLeast } = useWebhookKit(session);

describeWhen(['webhooks', 'stateful'], 'a healthy receiver', () => {
  it(
    'When a payment instruction is saved, ' +
      'then the subscriber gets a JSON POST matching the document, logged once as SUCCESS [HOOK-DELIVERY, HOOK-PAYLOAD, HOOK-LOG-OUTCOME]',
    async () => {
      const endpoint = receiver().endpoint();
      const sub = await subscribe(endpoint.url);
      const dictKey = `${randomUUID()}@example.com`;
      const beneficiary = await trigger(dictKey);
      const [received] = await endpoint.waitFor(1);
      const delivery = checkDelivery(session(), received!);
      expect([delivery.eventType]).toEqual(declaredEvents('paymentInstruction', 'CREATED'));
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
      const endpoint = receiver().endpoint();
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
      expect(events.map((d) => d.eventType)).toEqual(declaredEvents('operation', 'REQUESTED', 'COMPLETED'));
      expect(new Set(events.map((d) => d.messageId)).size).toBe(2);
    },
  );

  itWhen(
    ['control', 'secondCustomer'],
    'When other events happen, then a subscriber receives only its own customer’s events of the types it named [HOOK-EVENT-SELECTION]',
    async () => {
      const endpoint = receiver().endpoint();
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
      const endpoint = receiver().endpoint();
      await subscribe(endpoint.url, { includeAll: true, resources: undefined });
      const beneficiary = await trigger();
      await session().control!.instruction(beneficiary.id, beneficiary.paymentInstructions[0]!.id, 'approve');
      await session().deliveriesIdle();
      const mine = endpoint.received.map((r) => checkDelivery(session(), r)).filter((d) => d.payload.id === beneficiary.id);
      expect(mine.map((d) => d.eventType)).toEqual(declaredEvents('paymentInstruction', 'CREATED', 'APPROVED'));
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
      const endpoint = receiver().endpoint({ fallback: behaviour });
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
      const elsewhere = receiver().endpoint();
      const endpoint = receiver().endpoint({ fallback: { status: 302, location: elsewhere.url } });
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
      const endpoint = receiver().endpoint({ fallback: { status: 503 } });
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
      const endpoint = receiver().endpoint();
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
    const endpoint = receiver().endpoint({ fallback: { status: 503 } });
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
