// Beneficiary rules beyond creation: a list cursor belongs to its customer's list, and an
// instruction keeps the optional custody detail it was given, and only then.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startMock, type Authed, type Harness } from './harness';
import { person } from '../support/people';

let h: Harness;
let api: Authed;

beforeAll(async () => {
  h = await startMock();
  api = await h.as();
});
afterAll(() => h?.close());

const custodyDetail = { purpose: 'SUPPLIER_PAYMENT', custody: 'THIRD_PARTY', counterparty: 'Maria Souza' };
const instruction = (extra: Record<string, unknown> = {}) => ({
  asset: 'BRL',
  address: { rail: 'PIX_KEY', dictKey: 'maria@example.com' },
  ...extra,
});

describe('beneficiary list cursors', () => {
  it('refuses a cursor of one customer’s beneficiary list on another customer’s list', async () => {
    await api.post('/v1/beneficiaries', { entity: person, relationshipType: 'THIRD_PARTY' }).expect(201);
    await api.post('/v1/beneficiaries', { entity: person, relationshipType: 'THIRD_PARTY' }).expect(201);
    const first = (await api.get('/v1/beneficiaries?limit=1').expect(200)).body;
    expect(first.meta.nextCursor).toEqual(expect.any(String));
    const other = await h.as('customer2');
    const res = await other.get(`/v1/beneficiaries?limit=1&cursor=${encodeURIComponent(first.meta.nextCursor)}`).expect(400);
    expect(res.body.code).toBe('INVALID_CURSOR');
  });
});

describe('payment instruction fields', () => {
  it('keeps a custody detail given with an instruction, and shows none when none was given', async () => {
    const res = await api
      .post('/v1/beneficiaries', {
        entity: person,
        relationshipType: 'THIRD_PARTY',
        paymentInstructions: [instruction({ custodyDetail }), instruction()],
      })
      .expect(201);
    const [withDetail, without] = res.body.paymentInstructions;
    expect(withDetail.custodyDetail).toEqual(custodyDetail);
    expect(without).not.toHaveProperty('custodyDetail');
    expect(without).not.toHaveProperty('documents');
  });
});
