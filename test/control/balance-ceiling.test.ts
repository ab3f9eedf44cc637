// A balance never outgrows the document: DecimalString has at most 20 integer digits, so a
// settlement that would take a balance to 10^20 or more fails the operation with
// BALANCE_LIMIT_EXCEEDED and moves nothing, and the control API's views of every tenant still answer.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startMock, type Authed, type Harness } from '../http/harness';
import { control, d, deposit, funded } from './support';

/** The largest amount the document's DecimalString allows at BRL's scale. */
const LARGEST = '99999999999999999999.99';

let h: Harness;
let api: Authed;

beforeAll(async () => {
  h = await startMock();
  api = await h.as();
});
afterAll(() => h?.close());

describe('a deposit that would take a balance past 20 integer digits', () => {
  it('fails with BALANCE_LIMIT_EXCEEDED at settlement, and the balance stays as it was', async () => {
    const before = (await control(h).get(`/accounts/${funded.id}/balances`).expect(200)).body.balances.BRL as string;
    expect(Number(before)).toBeGreaterThan(0);
    const operation = await deposit(api, LARGEST);

    const settled = (await control(h).post(`/operations/${operation.id}/settle`).expect(200)).body;

    expect(settled.currentState.status).toBe('FAILED');
    expect(settled.currentState.reason).toMatchObject({
      code: 'BALANCE_LIMIT_EXCEEDED',
      details: { accountId: funded.id, asset: 'BRL', balance: before },
    });
    expect((await control(h).get(`/accounts/${funded.id}/balances`).expect(200)).body.balances.BRL).toBe(before);
    expect((await api.get(`/v1/operations/${operation.id}`).expect(200)).body.currentState.status).toBe('FAILED');
  });

  it('leaves the snapshot, the customer state and the balances readable (strict answers, no 500)', async () => {
    await control(h).get('/snapshot').expect(200);
    await control(h).get(`/state/${d.c1.id}`).expect(200);
    await control(h).get(`/accounts/${funded.id}/balances`).expect(200);
  });

  it('a deposit that reaches just below 10^20 settles like any other', async () => {
    await control(h).put(`/accounts/${funded.id}/balances`, { BRL: '1.00' }).expect(200);
    const operation = await deposit(api, '99999999999999999998.99');
    expect((await control(h).post(`/operations/${operation.id}/settle`).expect(200)).body.currentState.status).toBe('COMPLETED');
    expect((await control(h).get(`/accounts/${funded.id}/balances`).expect(200)).body.balances.BRL).toBe(LARGEST);
    await control(h).get('/snapshot').expect(200);
  });
});
