// Magic values: documented inputs of the service API that force an outcome without the control
// API (mock/domain/magic-values.ts; docs/control-api.md, "Magic values").
import { beforeAll, describe, expect, it } from '@jest/globals';
import { MAGIC_VALUES } from '../../mock/domain/magic-values';
import type { Authed, Harness } from '../http/harness';
import type { Receiver } from '../../mock/receiver/receiver';
import { useSubscribedMock } from '../http/subscribed-mock';
import { control, deposit, funded, withdrawal } from './support';

let h: Harness;
let api: Authed;
let receiver: Receiver;

const env = useSubscribedMock({ includeAll: true }, { config: { autoSettleMs: 5000 } });
beforeAll(() => {
  ({ h, api, receiver } = env);
});

const events = () => receiver.received.map((r) => r.headers['x-event-type']);

describe('a withdrawal of 666.66', () => {
  it('is created REQUESTED, then fails at settlement with INSUFFICIENT_BALANCE however large the balance', async () => {
    const before = (await control(h).get(`/accounts/${funded.id}/balances`).expect(200)).body.balances.BRL;
    expect(Number(before)).toBeGreaterThan(666.66);
    const op = await withdrawal(api, MAGIC_VALUES.failingWithdrawalAmount);
    expect(op.currentState.status).toBe('REQUESTED');
    await control(h).post('/clock/advance', { by: '5s' }).expect(200);
    const settled = (await api.get(`/v1/operations/${op.id}`).expect(200)).body;
    expect(settled.currentState).toMatchObject({ status: 'FAILED', reason: { code: 'INSUFFICIENT_BALANCE' } });
    expect(settled.transactions).toEqual([]);
    expect((await control(h).get(`/accounts/${funded.id}/balances`).expect(200)).body.balances.BRL).toBe(before);
    expect(events()).toEqual(['OPERATION_REQUESTED', 'OPERATION_FAILED']);
  });

  it('written with a trailing zero it is the same amount', async () => {
    const op = await withdrawal(api, '666.660');
    expect((await control(h).post(`/operations/${op.id}/settle`).expect(200)).body.currentState.status).toBe('FAILED');
  });

  it('only withdrawals: a deposit of 666.66 completes', async () => {
    const op = await deposit(api, '666.66');
    expect((await control(h).post(`/operations/${op.id}/settle`).expect(200)).body.currentState.status).toBe('COMPLETED');
  });
});

describe('a deposit of 777.77', () => {
  it('settles at once: the creation answers COMPLETED and OPERATION_REQUESTED is followed by OPERATION_COMPLETED', async () => {
    const op = await deposit(api, MAGIC_VALUES.instantDepositAmount);
    expect(op.currentState.status).toBe('COMPLETED');
    expect(op.transactions).toEqual([expect.objectContaining({ rail: 'PIX', direction: 'CREDIT', status: 'CONFIRMED' })]);
    await control(h).post('/webhooks/idle').expect(200);
    expect(events()).toEqual(['OPERATION_REQUESTED', 'OPERATION_COMPLETED']);
    expect((await api.get(`/v1/operations/${op.id}`).expect(200)).body).toEqual(op);
  });
});

describe('the PIX key reject@fos-mock.test', () => {
  const person = {
    type: 'INDIVIDUAL',
    firstName: 'Rita',
    lastName: 'Lima',
    identificationDocument: { type: 'CPF', value: '52998224725', country: 'BR' },
    birthDate: '1985-02-01',
    address: { addressLine1: 'Rua A, 1', addressLine2: null, city: 'Recife', state: 'PE', country: 'BR', postalCode: '50000-000' },
  };
  const magic = { asset: 'BRL', address: { rail: 'PIX_KEY', dictKey: MAGIC_VALUES.rejectedPixKey } };

  it('on a new beneficiary, its instruction is REJECTED at once: _CREATED then _REJECTED', async () => {
    const res = await api
      .post('/v1/beneficiaries', { entity: person, relationshipType: 'THIRD_PARTY', paymentInstructions: [magic] })
      .expect(201);
    expect(res.body.paymentInstructions[0].currentState).toMatchObject({ status: 'REJECTED', reason: { code: 'BENEFICIARY_REJECTED' } });
    await control(h).post('/webhooks/idle').expect(200);
    expect(events()).toEqual(['BENEFICIARY_INSTRUCTION_CREATED', 'BENEFICIARY_INSTRUCTION_REJECTED']);
    // A rejected instruction cannot receive a withdrawal.
    const q = (
      await api.post('/v1/quotes', { accountId: funded.id, sourceAsset: 'BRL', targetAsset: 'BRL', sourceAmount: '1.00' }).expect(201)
    ).body;
    await api
      .post('/v1/operations/withdrawals', { accountId: funded.id, quoteId: q.id, beneficiary: { mode: 'REFERENCE', id: res.body.id } })
      .expect(400);
  });

  it('added to a saved beneficiary (any letter case), only that instruction is rejected', async () => {
    const saved = (
      await api
        .post('/v1/beneficiaries', {
          entity: person,
          relationshipType: 'THIRD_PARTY',
          paymentInstructions: [{ asset: 'BRL', address: { rail: 'PIX_KEY', dictKey: 'rita@example.com' } }],
        })
        .expect(201)
    ).body;
    const res = await api
      .post(`/v1/beneficiaries/${saved.id}/paymentInstructions`, {
        ...magic,
        address: { rail: 'PIX_KEY', dictKey: 'Reject@FOS-mock.test' },
      })
      .expect(201);
    expect(res.body.paymentInstructions.map((pi: { currentState: { status: string } }) => pi.currentState.status)).toEqual([
      'CREATED',
      'REJECTED',
    ]);
  });
});
