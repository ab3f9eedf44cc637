// The mock clock through the control API, and what moving it sets off: auto-settlement and
// webhook retries run, and their deliveries are attempted, before the answer. (What a duration
// may be is test/domain/durations.test.ts.)
import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import { CLOCK_START, startMock, type Authed, type Harness } from '../http/harness';
import { startReceiver, type Receiver } from '../../mock/receiver/receiver';
import { control, deposit } from './support';

const iso = (ms: number) => new Date(ms).toISOString();

describe('reading and moving the clock', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startMock();
  });
  afterAll(() => h?.close());

  it('reads the frozen clock, advances it by durations and by ms, and refuses other inputs with 400 VALIDATION_ERROR', async () => {
    expect((await control(h).get('/clock').expect(200)).body).toEqual({ now: iso(CLOCK_START), frozen: true });
    expect((await control(h).post('/clock/advance', { by: '1h30m' }).expect(200)).body).toEqual({
      now: iso(CLOCK_START + 5_400_000),
      frozen: true,
    });
    expect((await control(h).post('/clock/advance', { by: 250 }).expect(200)).body.now).toBe(iso(CLOCK_START + 5_400_250));
    for (const by of ['soon', '1.5h', -5, '5 m']) {
      const res = await control(h).post('/clock/advance', { by }).expect(400);
      expect(res.body).toMatchObject({ code: 'VALIDATION_ERROR', details: { fields: [expect.objectContaining({ field: 'body.by' })] } });
    }
    expect((await control(h).get('/clock').expect(200)).body.now).toBe(iso(CLOCK_START + 5_400_250));
  });

  it('freezes at a given instant, unfreezes, and freezes where it stands', async () => {
    const at = '2027-01-01T00:00:00.000Z';
    expect((await control(h).post('/clock/freeze', { at }).expect(200)).body).toEqual({ now: at, frozen: true });
    const running = (await control(h).post('/clock/unfreeze').expect(200)).body;
    expect(running.frozen).toBe(false);
    expect(Date.parse(running.now)).toBeGreaterThanOrEqual(Date.parse(at));
    const frozen = (await control(h).post('/clock/freeze').expect(200)).body;
    expect(frozen.frozen).toBe(true);
    expect((await control(h).get('/clock').expect(200)).body).toEqual(frozen);
  });
});

describe('time-driven effects', () => {
  let h: Harness;
  let api: Authed;
  let receiver: Receiver;
  beforeAll(async () => {
    h = await startMock({ config: { autoSettleMs: 5000 } });
    api = await h.as();
  });
  afterEach(async () => {
    await h.mock.services.webhooks.idle();
    await receiver?.close();
  });
  afterAll(() => h?.close());

  it('advancing past AUTO_SETTLE_MS settles a deposit, and its OPERATION_COMPLETED has been delivered when the call answers', async () => {
    receiver = await startReceiver();
    await api
      .post('/api/subscriptions', { url: receiver.url, resources: [{ name: 'OPERATION', events: ['OPERATION_COMPLETED'] }] })
      .expect(201);
    const op = await deposit(api);
    await control(h).post('/clock/advance', { by: '4s' }).expect(200);
    expect((await api.get(`/v1/operations/${op.id}`).expect(200)).body.currentState.status).toBe('REQUESTED');
    expect(receiver.received).toHaveLength(0);

    await control(h).post('/clock/advance', { by: '1s' }).expect(200);
    expect((await api.get(`/v1/operations/${op.id}`).expect(200)).body.currentState.status).toBe('COMPLETED');
    expect(receiver.received.map((r) => [r.headers['x-event-type'], JSON.parse(r.body).id])).toEqual([['OPERATION_COMPLETED', op.id]]);
  });

  it('a failed delivery is retried when the clock reaches the retry, with the same message id', async () => {
    receiver = await startReceiver();
    receiver.script({ status: 500 });
    const sub = (
      await api
        .post('/api/subscriptions', {
          url: receiver.url,
          allowRetry: true,
          resources: [{ name: 'OPERATION', events: ['OPERATION_REQUESTED'] }],
        })
        .expect(201)
    ).body;
    await deposit(api);
    await control(h).post('/webhooks/idle').expect(200, { status: 'idle' });
    expect(receiver.received).toHaveLength(1);

    await control(h).post('/clock/advance', { by: '5s' }).expect(200);
    expect(receiver.received).toHaveLength(2);
    expect(receiver.received[1]!.headers['x-message-id']).toBe(receiver.received[0]!.headers['x-message-id']);
    const logs = (await api.get(`/v1/subscriptions/${sub.id}/executionLogs?sortOrder=ASCENDING`).expect(200)).body.data;
    expect(logs.map((l: { status: string; retryAttempts: number }) => [l.status, l.retryAttempts])).toEqual([
      ['FAILED', 0],
      ['SUCCESS', 1],
    ]);
  });

  it('one advance of 2 h runs the whole retry schedule: 6 attempts, the last saying none are left', async () => {
    receiver = await startReceiver({ fallback: { status: 503 } });
    const sub = (
      await api
        .post('/api/subscriptions', {
          url: receiver.url,
          allowRetry: true,
          resources: [{ name: 'OPERATION', events: ['OPERATION_REQUESTED'] }],
        })
        .expect(201)
    ).body;
    await deposit(api);
    await control(h).post('/webhooks/idle').expect(200, { status: 'idle' });
    await control(h).post('/clock/advance', { by: '2h' }).expect(200);
    const logs = (await api.get(`/v1/subscriptions/${sub.id}/executionLogs?limit=100`).expect(200)).body.data;
    expect(logs).toHaveLength(6);
    expect(receiver.received).toHaveLength(6);
    expect(logs[0].error).toMatch(/no retries left after 6 attempts/);
  });
});
