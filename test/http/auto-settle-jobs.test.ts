// Auto-settlement (AUTO_SETTLE_MS): each REQUESTED operation has one settlement job, due that
// long after its creation, in its customer's group; the job settles only what is still REQUESTED.
// A settlement and its event are one write (the outbox), so a job run again after its replica died
// finds the operation settled with its event kept, and publishes nothing again.
import { afterEach, describe, expect, it } from '@jest/globals';
import { MemoryStore } from '../../mock/store';
import type { DomainEvent } from '../../mock/events/event-bus';
import type { JobHandler } from '../../mock/jobs/scheduler';
import { OperationService } from '../../mock/services/operation-service';
import { startMock, type Authed, type Harness } from './harness';
import { demo } from './fixture-ids';

const d = demo();
const funded = d.funded(d.c1.id);
const beneficiary = d.beneficiaryOf(d.c1.id);
const poor = d.accountsOf(d.c1.id).find((a) => d.balance(a.id, 'BRL') === '0.00')!;

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

async function start(autoSettleMs: number | null, store?: MemoryStore) {
  h = await startMock({ config: { autoSettleMs }, ...(store ? { store } : {}) });
  const api = await h.as();
  const events: DomainEvent[] = [];
  h.mock.deps.events.subscribe((event) => {
    if (event.resource === 'OPERATION') events.push(event);
    return Promise.resolve();
  });
  return { h, api, events };
}

async function deposit(api: Authed, sourceAmount = '10.00', accountId = funded.id) {
  const q = (await api.post('/v1/quotes', { accountId, sourceAsset: 'BRL', targetAsset: 'BRL', sourceAmount }).expect(201)).body;
  return (await api.post('/v1/operations/deposits', { accountId, quoteId: q.id, fundingInstruction: { rail: 'PIX' } }).expect(201)).body;
}

async function withdrawal(api: Authed, sourceAmount: string, accountId: string) {
  const q = (await api.post('/v1/quotes', { accountId, sourceAsset: 'BRL', targetAsset: 'BRL', sourceAmount }).expect(201)).body;
  return (
    await api
      .post('/v1/operations/withdrawals', { accountId, quoteId: q.id, beneficiary: { mode: 'REFERENCE', id: beneficiary.id } })
      .expect(201)
  ).body;
}

const status = async (api: Authed, id: string) => (await api.get(`/v1/operations/${id}`).expect(200)).body.currentState.status;
const pending = async (harness: Harness) => (await harness.mock.deps.scheduler.list(100)).jobs;

describe('the settlement job of an operation', () => {
  it('is one job per REQUESTED operation, in its customer’s group, due AUTO_SETTLE_MS after creation', async () => {
    const { h, api } = await start(5_000);
    const op = await deposit(api);
    expect(await pending(h)).toEqual([
      expect.objectContaining({
        kind: 'auto-settle',
        group: `settle:${d.c1.id}`,
        dueAt: Date.parse(op.createdAt) + 5_000,
        data: { customerId: d.c1.id, operationId: op.id },
      }),
    ]);
  });

  it('is not made for a deposit paid at once (777.77), nor when auto-settlement is off', async () => {
    const on = await start(5_000);
    const instant = await deposit(on.api, '777.77');
    expect(instant.currentState.status).toBe('COMPLETED');
    expect(await pending(on.h)).toEqual([]);
    await on.h.close();

    const off = await start(null);
    await deposit(off.api);
    expect(await pending(off.h)).toEqual([]);
  });

  it('with AUTO_SETTLE_MS 0 settles the operation as soon as it is stored', async () => {
    const { h, api } = await start(0);
    const op = await deposit(api);
    await h.mock.deps.scheduler.drain();
    expect(await status(api, op.id)).toBe('COMPLETED');
  });

  it('is kept before the operation: an operation stored by a request that then failed is still settled', async () => {
    const store = new MemoryStore();
    const insert = store.insertConsumingQuote.bind(store);
    let dies = false;
    store.insertConsumingQuote = async (...args: Parameters<typeof insert>) => {
      const stored = await insert(...args);
      if (dies) throw new Error('the replica died after storing the operation');
      return stored;
    };
    const { h, api } = await start(5_000, store);
    const q = (
      await api.post('/v1/quotes', { accountId: funded.id, sourceAsset: 'BRL', targetAsset: 'BRL', sourceAmount: '3.00' }).expect(201)
    ).body;
    dies = true;
    await api.post('/v1/operations/deposits', { accountId: funded.id, quoteId: q.id, fundingInstruction: { rail: 'PIX' } }).expect(500);
    dies = false;
    const operationId = (await api.get(`/v1/quotes/${q.id}`).expect(200)).body.operationId as string;
    expect(await status(api, operationId)).toBe('REQUESTED');
    h.mock.deps.clock.advance(5_000);
    await h.mock.deps.scheduler.drain();
    expect(await status(api, operationId)).toBe('COMPLETED');
  });

  it('publishes each event under its outbox entry’s origin, and leaves the outbox empty', async () => {
    const { h, api, events } = await start(5_000);
    const op = await deposit(api);
    h.mock.deps.clock.advance(5_000);
    await h.mock.deps.scheduler.drain();
    expect(events.map((e) => e.eventType)).toEqual(['OPERATION_REQUESTED', 'OPERATION_COMPLETED']);
    const origins = events.map((e) => e.origin);
    expect(origins).toEqual([expect.any(String), expect.any(String)]);
    expect(origins[0]).not.toBe(origins[1]);
    expect(await pending(h)).toEqual([]);
    expect(await h.mock.deps.store.takeOutbox(0, 10)).toEqual([]);
    expect(await status(api, op.id)).toBe('COMPLETED');
  });

  it('does nothing to an operation settled before it ran, and emits nothing', async () => {
    const { h, api, events } = await start(5_000);
    const op = await deposit(api);
    await h.mock.services.operations.settle(d.c1.id, op.id);
    h.mock.deps.clock.advance(5_000);
    await h.mock.deps.scheduler.drain();
    expect(events.map((e) => e.eventType)).toEqual(['OPERATION_REQUESTED', 'OPERATION_COMPLETED']);
    expect(await pending(h)).toEqual([]);
  });

  it('leaves an operation flagged ACTION_REQUIRED as it is', async () => {
    const { h, api } = await start(5_000);
    const op = await deposit(api);
    await h.mock.services.operations.move(d.c1.id, op.id, 'ACTION_REQUIRED', { code: 'MANUAL_REVIEW', message: 'Held.' });
    h.mock.deps.clock.advance(5_000);
    await h.mock.deps.scheduler.drain();
    expect(await status(api, op.id)).toBe('ACTION_REQUIRED');
  });
});

describe('a settlement job run again after its replica died', () => {
  /** The service with its job handler in hand, on the mock's store and event bus. */
  async function rerunnable() {
    const { h, api, events } = await start(null);
    let handler: JobHandler | undefined;
    const scheduler = { handle: (_kind: string, run: JobHandler) => (handler = run) };
    const service = new OperationService({ ...h.mock.deps, scheduler } as never, h.mock.services.quotes);
    const run = (operationId: string, runs: number) => {
      if (!handler) throw new Error('the service registered no auto-settle handler');
      return handler({
        id: 'job-1',
        claim: 'claim-1',
        runs,
        kind: 'auto-settle',
        group: `settle:${d.c1.id}`,
        dueAt: 0,
        data: { customerId: d.c1.id, operationId },
      });
    };
    return { h, api, events, service, run };
  }

  it('finding the operation settled, publishes nothing: its COMPLETED event was kept with the settlement', async () => {
    const { h, api, events, run } = await rerunnable();
    const op = await deposit(api);
    await h.mock.services.operations.settle(d.c1.id, op.id);
    await run(op.id, 2);
    expect(events.map((e) => e.eventType)).toEqual(['OPERATION_REQUESTED', 'OPERATION_COMPLETED']);
  });

  it('finding the operation failed, publishes nothing again', async () => {
    const { h, api, events, run } = await rerunnable();
    const op = await withdrawal(api, '5.00', poor.id);
    await h.mock.services.operations.settle(d.c1.id, op.id);
    await run(op.id, 2);
    expect(events.map((e) => e.eventType)).toEqual(['OPERATION_REQUESTED', 'OPERATION_FAILED']);
  });

  it('finding the operation still REQUESTED, settles it once', async () => {
    const { api, events, run } = await rerunnable();
    const op = await deposit(api);
    await run(op.id, 2);
    expect(events.map((e) => e.eventType)).toEqual(['OPERATION_REQUESTED', 'OPERATION_COMPLETED']);
    expect(await status(api, op.id)).toBe('COMPLETED');
  });

  it('finding the operation flagged, or gone, does nothing', async () => {
    const { h, api, events, run } = await rerunnable();
    const op = await deposit(api);
    await h.mock.services.operations.move(d.c1.id, op.id, 'ACTION_REQUIRED', { code: 'MANUAL_REVIEW', message: 'Held.' });
    await expect(run(op.id, 2)).resolves.toBeUndefined();
    await expect(run('00000000-0000-4000-8000-000000000000', 2)).resolves.toBeUndefined();
    expect(events.map((e) => e.eventType)).toEqual(['OPERATION_REQUESTED', 'OPERATION_ACTION_REQUIRED']);
    expect(await status(api, op.id)).toBe('ACTION_REQUIRED');
  });

  it('a failure other than a settlement race is not swallowed', async () => {
    const { h, api, run } = await rerunnable();
    const op = await deposit(api);
    const store = h.mock.deps.store;
    const original = store.updateWithBalances.bind(store);
    store.updateWithBalances = () => Promise.reject(new Error('the store is away'));
    try {
      await expect(run(op.id, 1)).rejects.toThrow('the store is away');
    } finally {
      store.updateWithBalances = original;
    }
  });

  it('losing a settlement race to another replica is no failure', async () => {
    const { h, api, run } = await rerunnable();
    const op = await deposit(api);
    const store = h.mock.deps.store;
    const original = store.updateWithBalances.bind(store);
    // Another replica settles it between the job's read and its own settlement.
    store.updateWithBalances = (async (...args: Parameters<typeof original>) => {
      store.updateWithBalances = original;
      await h.mock.services.operations.settle(d.c1.id, op.id);
      return original(...args);
    }) as typeof store.updateWithBalances;
    await expect(run(op.id, 1)).resolves.toBeUndefined();
    expect(await status(api, op.id)).toBe('COMPLETED');
  });
});
