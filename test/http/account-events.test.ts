// Account transitions (driven through the services until the control API exposes them) and the
// ACCOUNT_* events they emit.
import { beforeAll, describe, expect, it } from '@jest/globals';
import type { Authed, Harness } from './harness';
import { demo } from './fixture-ids';
import type { Receiver } from '../../mock/receiver/receiver';
import { useSubscribedMock } from './subscribed-mock';

const d = demo();
let h: Harness;
let api: Authed;
let receiver: Receiver;

const env = useSubscribedMock({
  resources: [
    { name: 'ACCOUNT', events: ['ACCOUNT_CREATED', 'ACCOUNT_ACTION_REQUIRED', 'ACCOUNT_ASSET_ACTIVATED', 'ACCOUNT_ASSET_FAILED'] },
  ],
});
beforeAll(() => {
  ({ h, api, receiver } = env);
});

const events = () => receiver.received.map((r) => ({ type: r.headers['x-event-type'], body: JSON.parse(r.body) }));
const reason = { code: 'DOCUMENT_REJECTED', message: 'The articles of association are illegible.' };

describe('account review', () => {
  it('submitting for review locks the owner (409 on PATCH) and records UNDER_REVIEW in the history', async () => {
    const account = d.editable(d.c1.id);
    const submitted = await h.mock.services.accounts.submitForReview(d.c1.id, account.id);
    expect(submitted.currentState.status).toBe('UNDER_REVIEW');
    expect(submitted.states.map((s) => s.status)).toEqual([...account.states.map((s) => s.status), 'UNDER_REVIEW']);
    const res = await api
      .patch(`/v1/accounts/${account.id}`, {
        owner: {
          type: 'COMPANY',
          legalName: 'X Ltda',
          identificationDocument: { value: '11222333000181', type: 'CNPJ' },
          address: account.owner.address,
        },
      })
      .expect(409);
    expect(res.body.code).toBe('ACCOUNT_NOT_EDITABLE');
  });

  it('asking for action emits ACCOUNT_ACTION_REQUIRED with the reason, and makes the owner editable again', async () => {
    const account = d.editable(d.c1.id);
    await h.mock.services.accounts.requireAction(d.c1.id, account.id, reason);
    await h.mock.services.webhooks.idle();
    const [event] = events();
    expect(event).toMatchObject({
      type: 'ACCOUNT_ACTION_REQUIRED',
      body: { id: account.id, data: { currentState: { status: 'ACTION_REQUIRED', reason } } },
    });
    expect(h.mock.contract.checkWebhook('ACCOUNT_ACTION_REQUIRED', event!.body)).toEqual({ errors: [], drift: [] });
    await api
      .patch(`/v1/accounts/${account.id}`, {
        owner: {
          type: 'COMPANY',
          legalName: 'Y Ltda',
          identificationDocument: { value: '11222333000181', type: 'CNPJ' },
          address: account.owner.address,
        },
      })
      .expect(200);
  });

  it('approval and rejection follow the review state machine', async () => {
    const account = d.editable(d.c1.id);
    await expect(h.mock.services.accounts.approve(d.c1.id, account.id)).rejects.toMatchObject({ code: 'INVALID_STATE_TRANSITION' });
    await h.mock.services.accounts.submitForReview(d.c1.id, account.id);
    expect((await h.mock.services.accounts.approve(d.c1.id, account.id)).currentState.status).toBe('APPROVED');
  });

  it('another customer’s account cannot be moved', async () => {
    await expect(h.mock.services.accounts.submitForReview(d.c1.id, d.editable(d.c2.id).id)).rejects.toMatchObject({
      code: 'RESOURCE_NOT_FOUND',
    });
  });
});

describe('asset onboarding', () => {
  it(
    'activating an ONBOARDING asset emits ACCOUNT_ASSET_ACTIVATED; ' + 'failing one ACCOUNT_ASSET_FAILED; a finished one cannot move',
    async () => {
      const account = d.accountsOf(d.c1.id).find((a) => a.assets.filter((x) => x.status === 'ONBOARDING').length >= 1)!;
      const [first] = account.assets.filter((x) => x.status === 'ONBOARDING');
      const updated = await h.mock.services.accounts.settleAsset(d.c1.id, account.id, first!.currency, 'ACTIVE');
      expect(updated.assets.find((a) => a.currency === first!.currency)!.status).toBe('ACTIVE');
      await expect(h.mock.services.accounts.settleAsset(d.c1.id, account.id, first!.currency, 'FAILED')).rejects.toMatchObject({
        code: 'INVALID_STATE_TRANSITION',
      });
      await h.mock.services.webhooks.idle();
      expect(events().map((e) => e.type)).toEqual(['ACCOUNT_ASSET_ACTIVATED']);
    },
  );
});

describe('account creation', () => {
  it('a new account emits ACCOUNT_CREATED to its own customer’s subscriptions only', async () => {
    const template = d.accountsOf(d.c1.id)[0]!;
    const created = await h.mock.services.accounts.create({
      account: { ...template, id: '7d9f0a52-2b1c-4e8a-9f3d-5c6b7a8e9f01' },
      review: 'NOT_SUBMITTED',
    });
    await h.mock.services.webhooks.idle();
    expect(events()).toEqual([expect.objectContaining({ type: 'ACCOUNT_CREATED', body: expect.objectContaining({ id: created.id }) })]);
  });
});
