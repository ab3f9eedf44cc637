// The control API's payment-instruction actions name the instruction they could not find.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startMock, type Authed, type Harness } from '../http/harness';
import { person } from '../support/people';
import { control } from './support';

let h: Harness;
let api: Authed;

beforeAll(async () => {
  h = await startMock();
  api = await h.as();
});
afterAll(() => h?.close());

describe('an instruction action on an unknown instruction', () => {
  it('is answered 404 RESOURCE_NOT_FOUND naming the payment instruction', async () => {
    const b = (await api.post('/v1/beneficiaries', { entity: person, relationshipType: 'THIRD_PARTY' }).expect(201)).body;
    const missing = '00000000-0000-4000-8000-000000000000';
    const res = await control(h).post(`/beneficiaries/${b.id}/payment-instructions/${missing}/approve`).expect(404);
    expect(res.body).toMatchObject({
      code: 'RESOURCE_NOT_FOUND',
      message: `No payment instruction with id ${missing}.`,
      details: { resource: 'paymentInstruction', id: missing },
    });
  });
});
