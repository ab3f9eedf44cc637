// Operation actions of the control API: each goes through the service, so the operation event
// follows exactly as for the real transition.
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from '@jest/globals';
import type { Authed, Harness } from '../http/harness';
import type { Receiver } from '../../mock/receiver/receiver';
import { useSubscribedMock } from '../http/subscribed-mock';
import { control, d, deposit, funded, reason, withdrawal } from './support';

let h: Harness;
let api: Authed;
let receiver: Receiver;

const env = useSubscribedMock({ includeAll: true });
beforeAll(() => {
  ({ h, api, receiver } = env);
});

const events = () => receiver.received.map((r) => [r.headers['x-event-type'], JSON.parse(r.body).id as string]);

describe('settle', () => {
  it('a deposit settled through the control API fires OPERATION_COMPLETED and credits the account', async () => {
    const before = (await control(h).get(`/accounts/${funded.id}/balances`).expect(200)).body.balances.BRL;
    const op = await deposit(api, '12.34');
    const res = await control(h).post(`/operations/${op.id}/settle`).expect(200);
    expect(res.body).toMatchObject({
      id: op.id,
      currentState: { status: 'COMPLETED' },
      transactions: [expect.objectContaining({ rail: 'PIX', direction: 'CREDIT', status: 'CONFIRMED' })],
    });
    await control(h).post('/webhooks/idle').expect(200);
    expect(events()).toEqual([
      ['OPERATION_REQUESTED', op.id],
      ['OPERATION_COMPLETED', op.id],
    ]);
    const after = (await control(h).get(`/accounts/${funded.id}/balances`).expect(200)).body.balances.BRL;
    expect((Number(after) - Number(before)).toFixed(2)).toBe('12.34');
  });

  it('a withdrawal short of funds settles as FAILED with INSUFFICIENT_BALANCE', async () => {
    const poor = d.accountsOf(d.c1.id).find((a) => d.balance(a.id, 'BRL') === '0.00')!;
    const op = await withdrawal(api, '5.00', poor.id);
    const res = await control(h).post(`/operations/${op.id}/settle`).expect(200);
    expect(res.body.currentState).toMatchObject({ status: 'FAILED', reason: { code: 'INSUFFICIENT_BALANCE' } });
  });

  it('a finished operation cannot be settled again: 409 INVALID_STATE_TRANSITION; an unknown one is 404', async () => {
    const op = await deposit(api);
    await control(h).post(`/operations/${op.id}/settle`).expect(200);
    expect((await control(h).post(`/operations/${op.id}/settle`).expect(409)).body.code).toBe('INVALID_STATE_TRANSITION');
    expect((await control(h).post(`/operations/${randomUUID()}/settle`).expect(404)).body.code).toBe('RESOURCE_NOT_FOUND');
  });

  it('finds the operation of any customer without a token', async () => {
    const other = await h.as('customer2');
    const account = d.funded(d.c2.id);
    const op = await deposit(other, '1.00', account.id);
    expect((await control(h).post(`/operations/${op.id}/settle`).expect(200)).body.customer.id).toBe(d.c2.id);
  });
});

describe('pay', () => {
  it('paying a deposit’s PIX charge settles it', async () => {
    const op = await deposit(api);
    expect((await control(h).post(`/operations/${op.id}/pay`).expect(200)).body.currentState.status).toBe('COMPLETED');
  });

  it('only a deposit can be paid: a withdrawal is 409 INVALID_STATE_TRANSITION', async () => {
    const op = await withdrawal(api);
    expect((await control(h).post(`/operations/${op.id}/pay`).expect(409)).body.code).toBe('INVALID_STATE_TRANSITION');
    expect((await api.get(`/v1/operations/${op.id}`).expect(200)).body.currentState.status).toBe('REQUESTED');
  });

  it('an expired PIX charge cannot be paid any more', async () => {
    const op = await deposit(api);
    await control(h).post('/clock/advance', { by: '1h' }).expect(200);
    const res = await control(h).post(`/operations/${op.id}/pay`).expect(409);
    expect(res.body).toMatchObject({ code: 'INVALID_STATE_TRANSITION', details: { expiresAt: op.intent.fundingInstruction.expiresAt } });
  });
});

describe('fail and action-required', () => {
  it('failing an operation records the reason and fires OPERATION_FAILED', async () => {
    const op = await deposit(api);
    const failure = { code: 'PAYMENT_NOT_RECEIVED', message: 'The PIX charge was not paid.' };
    const res = await control(h).post(`/operations/${op.id}/fail`, { reason: failure }).expect(200);
    expect(res.body.currentState).toMatchObject({ status: 'FAILED', reason: failure });
    await control(h).post('/webhooks/idle').expect(200);
    expect(events()).toContainEqual(['OPERATION_FAILED', op.id]);
    expect((await control(h).post(`/operations/${op.id}/fail`, { reason: failure }).expect(409)).body.code).toBe(
      'INVALID_STATE_TRANSITION',
    );
  });

  it('a flagged operation fires OPERATION_ACTION_REQUIRED, and can still be settled', async () => {
    const op = await deposit(api);
    const flagged = await control(h).post(`/operations/${op.id}/action-required`, { reason }).expect(200);
    expect(flagged.body.currentState).toMatchObject({ status: 'ACTION_REQUIRED', reason });
    expect((await control(h).post(`/operations/${op.id}/settle`).expect(200)).body.currentState.status).toBe('COMPLETED');
    await control(h).post('/webhooks/idle').expect(200);
    expect(
      events()
        .filter(([, id]) => id === op.id)
        .map(([type]) => type),
    ).toEqual(['OPERATION_REQUESTED', 'OPERATION_ACTION_REQUIRED', 'OPERATION_COMPLETED']);
  });

  it('a reason the service document does not know, or none, is 400 VALIDATION_ERROR and nothing moves', async () => {
    const op = await deposit(api);
    const res = await control(h)
      .post(`/operations/${op.id}/fail`, { reason: { code: 'MADE_UP', message: 'x' } })
      .expect(400);
    expect(res.body.details.fields[0].field).toBe('body.reason.code');
    await control(h).post(`/operations/${op.id}/fail`, {}).expect(400);
    await control(h).post(`/operations/${op.id}/fail`).expect(400);
    expect((await api.get(`/v1/operations/${op.id}`).expect(200)).body.currentState.status).toBe('REQUESTED');
  });
});
