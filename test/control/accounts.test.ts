// Account actions of the control API: review transitions, asset onboarding and balances.
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from '@jest/globals';
import type { Authed, Harness } from '../http/harness';
import type { Receiver } from '../../mock/receiver/receiver';
import { useSubscribedMock } from '../http/subscribed-mock';
import { control, d, funded } from './support';

let h: Harness;
let api: Authed;
let receiver: Receiver;
const editable = d.editable(d.c1.id);
const owner = {
  type: 'COMPANY',
  legalName: 'Nova Ltda',
  identificationDocument: { value: '11222333000181', type: 'CNPJ' },
  address: editable.owner.address,
};
const documentRejected = { code: 'DOCUMENT_REJECTED', message: 'The articles of association are illegible.' };

const env = useSubscribedMock({
  resources: [{ name: 'ACCOUNT', events: ['ACCOUNT_ACTION_REQUIRED', 'ACCOUNT_ASSET_ACTIVATED', 'ACCOUNT_ASSET_FAILED'] }],
});
beforeAll(() => {
  ({ h, api, receiver } = env);
});

const events = () => receiver.received.map((r) => r.headers['x-event-type']);

describe('review', () => {
  it('an account submitted for review is UNDER_REVIEW and its owner can no longer be replaced (409)', async () => {
    const res = await control(h).post(`/accounts/${editable.id}/submit-review`).expect(200);
    expect(res.body.currentState.status).toBe('UNDER_REVIEW');
    expect((await api.patch(`/v1/accounts/${editable.id}`, { owner }).expect(409)).body.code).toBe('ACCOUNT_NOT_EDITABLE');
  });

  it('review asking for action fires ACCOUNT_ACTION_REQUIRED with the reason and makes the owner editable again', async () => {
    const res = await control(h).post(`/accounts/${editable.id}/require-action`, { reason: documentRejected }).expect(200);
    expect(res.body.currentState).toMatchObject({ status: 'ACTION_REQUIRED', reason: documentRejected });
    await control(h).post('/webhooks/idle').expect(200);
    expect(events()).toEqual(['ACCOUNT_ACTION_REQUIRED']);
    await api.patch(`/v1/accounts/${editable.id}`, { owner }).expect(200);
  });

  it('approval and rejection follow the review state machine, without events of their own', async () => {
    expect((await control(h).post(`/accounts/${editable.id}/approve`).expect(409)).body.code).toBe('INVALID_STATE_TRANSITION');
    await control(h).post(`/accounts/${editable.id}/submit-review`).expect(200);
    expect((await control(h).post(`/accounts/${editable.id}/approve`).expect(200)).body.currentState.status).toBe('APPROVED');
    const second = d.editable(d.c2.id);
    await control(h).post(`/accounts/${second.id}/submit-review`).expect(200);
    const rejected = await control(h)
      .post(`/accounts/${second.id}/reject`, { reason: { code: 'COMPLIANCE_REJECTED', message: 'Sanctioned.' } })
      .expect(200);
    expect(rejected.body.currentState).toMatchObject({ status: 'REJECTED', reason: { code: 'COMPLIANCE_REJECTED' } });
    await control(h).post('/webhooks/idle').expect(200);
    expect(events()).toEqual([]);
  });

  it('an unknown account is 404 RESOURCE_NOT_FOUND', async () => {
    expect((await control(h).post(`/accounts/${randomUUID()}/submit-review`).expect(404)).body.code).toBe('RESOURCE_NOT_FOUND');
  });
});

describe('asset onboarding', () => {
  const onboarding = d.accountsOf(d.c1.id).find((a) => a.assets.filter((x) => x.status === 'ONBOARDING').length >= 2)!;

  it('activating an ONBOARDING asset fires ACCOUNT_ASSET_ACTIVATED, failing one ACCOUNT_ASSET_FAILED; a finished one is 409', async () => {
    const [first, second] = onboarding.assets.filter((x) => x.status === 'ONBOARDING');
    const activated = await control(h).post(`/accounts/${onboarding.id}/assets/${first!.currency}/activate`).expect(200);
    expect(activated.body.assets.find((a: { currency: string }) => a.currency === first!.currency).status).toBe('ACTIVE');
    await control(h).post(`/accounts/${onboarding.id}/assets/${second!.currency}/fail`).expect(200);
    expect((await control(h).post(`/accounts/${onboarding.id}/assets/${first!.currency}/fail`).expect(409)).body.code).toBe(
      'INVALID_STATE_TRANSITION',
    );
    await control(h).post('/webhooks/idle').expect(200);
    expect(events()).toEqual(['ACCOUNT_ASSET_ACTIVATED', 'ACCOUNT_ASSET_FAILED']);
  });

  it('an asset the account does not have is 404', async () => {
    expect((await control(h).post(`/accounts/${onboarding.id}/assets/EUR/activate`).expect(404)).body.code).toBe('RESOURCE_NOT_FOUND');
  });
});

describe('balances', () => {
  it('reads every asset of the account at its scale', async () => {
    const res = await control(h).get(`/accounts/${funded.id}/balances`).expect(200);
    expect(res.body).toEqual({ accountId: funded.id, balances: { BRL: d.balance(funded.id, 'BRL'), USDT: d.balance(funded.id, 'USDT') } });
  });

  it('sets the assets named and leaves the others; the new balance decides settlement', async () => {
    const res = await control(h).put(`/accounts/${funded.id}/balances`, { BRL: '1.5' }).expect(200);
    expect(res.body.balances).toEqual({ BRL: '1.50', USDT: d.balance(funded.id, 'USDT') });
    const q = (
      await api.post('/v1/quotes', { accountId: funded.id, sourceAsset: 'BRL', targetAsset: 'USDT', sourceAmount: '2.00' }).expect(201)
    ).body;
    const op = (await api.post('/v1/operations/swaps', { accountId: funded.id, quoteId: q.id }).expect(201)).body;
    expect((await control(h).post(`/operations/${op.id}/settle`).expect(200)).body.currentState.reason.code).toBe('INSUFFICIENT_BALANCE');
  });

  it('refuses more decimals than the asset’s scale, an unknown asset, negative values and an empty body, changing nothing', async () => {
    const before = (await control(h).get(`/accounts/${funded.id}/balances`).expect(200)).body;
    const res = await control(h).put(`/accounts/${funded.id}/balances`, { BRL: '1.001', XYZ: '1' }).expect(400);
    expect(res.body.details.fields.map((f: { field: string }) => f.field)).toEqual(['body.BRL', 'body.XYZ']);
    await control(h).put(`/accounts/${funded.id}/balances`, { BRL: '-1.00' }).expect(400);
    await control(h).put(`/accounts/${funded.id}/balances`, {}).expect(400);
    expect((await control(h).get(`/accounts/${funded.id}/balances`).expect(200)).body).toEqual(before);
  });

  it('an unknown account is 404', async () => {
    await control(h).get(`/accounts/${randomUUID()}/balances`).expect(404);
    await control(h).put(`/accounts/${randomUUID()}/balances`, { BRL: '1.00' }).expect(404);
  });
});
