// Beneficiaries and payment instructions.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startMock, type Authed, type Harness } from './harness';
import { demo } from './fixture-ids';
import { person } from '../support/people';

let h: Harness;
let api: Authed;
const d = demo();

beforeAll(async () => {
  h = await startMock();
  api = await h.as();
});
afterAll(() => h?.close());

const pixInstruction = {
  asset: 'BRL',
  address: { rail: 'PIX_KEY', dictKey: 'maria@example.com' },
  documents: [{ referenceId: randomUUID(), type: 'CUSTODY_ATTESTATION', version: 1 }],
  custodyDetail: { purpose: 'SUPPLIER_PAYMENT', custody: 'THIRD_PARTY', counterparty: 'Maria Souza' },
};

describe('beneficiaries', () => {
  it('creates a beneficiary whose new instruction starts CREATED, and reads it back', async () => {
    const res = await api
      .post('/v1/beneficiaries', { entity: person, relationshipType: 'THIRD_PARTY', paymentInstructions: [pixInstruction] })
      .expect(201);
    expect(res.body).toMatchObject({ customerId: d.c1.id, entity: person, relationshipType: 'THIRD_PARTY' });
    expect(res.body.paymentInstructions).toEqual([
      expect.objectContaining({
        asset: 'BRL',
        address: pixInstruction.address,
        currentState: expect.objectContaining({ status: 'CREATED' }),
      }),
    ]);
    expect((await api.get(`/v1/beneficiaries/${res.body.id}`).expect(200)).body).toEqual(res.body);
  });

  it('adds a payment instruction to a saved beneficiary', async () => {
    const created = (await api.post('/v1/beneficiaries', { entity: person, relationshipType: 'SELF_OWNED' }).expect(201)).body;
    expect(created.paymentInstructions).toEqual([]);
    const res = await api.post(`/v1/beneficiaries/${created.id}/paymentInstructions`, pixInstruction).expect(201);
    expect(res.body.paymentInstructions).toHaveLength(1);
    expect(res.body.paymentInstructions[0].documents).toEqual(pixInstruction.documents);
  });

  it('lists the customer’s beneficiaries only', async () => {
    const mine = (await api.get('/v1/beneficiaries?limit=100').expect(200)).body.data as Array<{ customerId: string }>;
    expect(mine.length).toBeGreaterThanOrEqual(2);
    expect(mine.every((b) => b.customerId === d.c1.id)).toBe(true);
  });

  it('answers another customer’s beneficiary with 404, for reading and for adding instructions', async () => {
    const theirs = d.beneficiaryOf(d.c2.id).id;
    await api.get(`/v1/beneficiaries/${theirs}`).expect(404);
    await api.post(`/v1/beneficiaries/${theirs}/paymentInstructions`, pixInstruction).expect(404);
  });

  it('rejects an entity without its names, and an unknown relationship type', async () => {
    const { firstName: _f, ...nameless } = person;
    await api.post('/v1/beneficiaries', { entity: nameless, relationshipType: 'THIRD_PARTY' }).expect(400);
    await api.post('/v1/beneficiaries', { entity: person, relationshipType: 'COUSIN' }).expect(400);
  });

  it('refuses a withdrawal to a beneficiary whose only instruction was rejected', async () => {
    const created = (
      await api
        .post('/v1/beneficiaries', { entity: person, relationshipType: 'THIRD_PARTY', paymentInstructions: [pixInstruction] })
        .expect(201)
    ).body;
    await h.mock.services.beneficiaries.moveInstruction(d.c1.id, created.id, created.paymentInstructions[0].id, 'REJECTED', {
      code: 'DOCUMENT_REJECTED',
      message: 'Key owner does not match',
    });
    const account = d.funded(d.c1.id);
    const q = (
      await api.post('/v1/quotes', { accountId: account.id, sourceAsset: 'BRL', targetAsset: 'BRL', sourceAmount: '1.00' }).expect(201)
    ).body;
    const res = await api
      .post('/v1/operations/withdrawals', { accountId: account.id, quoteId: q.id, beneficiary: { mode: 'REFERENCE', id: created.id } })
      .expect(400);
    expect(res.body.details.fields[0].field).toBe('body.beneficiary.id');
  });
});
