// Tenancy's 404: another customer's record, or an unknown id, is RESOURCE_NOT_FOUND naming the
// resource and the id (and the request field that held the id, when it came from a body); and a
// reference list's cursor belongs to that list.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startMock, type Authed, type Harness } from './harness';
import { demo } from './fixture-ids';
import { person } from '../support/people';

const d = demo();
const MISSING = '00000000-0000-4000-8000-000000000000';
let h: Harness;
let api: Authed;

beforeAll(async () => {
  h = await startMock();
  api = await h.as();
});
afterAll(() => h?.close());

describe('RESOURCE_NOT_FOUND names what it could not find', () => {
  it.each([
    ['an account', `/api/accounts/${MISSING}`, 'account'],
    ['a beneficiary', `/v1/beneficiaries/${MISSING}`, 'beneficiary'],
    ['a subscription', `/v1/subscriptions/${MISSING}`, 'subscription'],
  ])('for %s read by an unknown id', async (_name, path, resource) => {
    const res = await api.get(path).expect(404);
    expect(res.body).toEqual({
      code: 'RESOURCE_NOT_FOUND',
      message: `No ${resource} with id ${MISSING}.`,
      details: { resource, id: MISSING },
    });
  });

  it('for another customer’s beneficiary, as for an unknown one', async () => {
    const other = await h.as('customer2');
    const theirs = (await other.post('/v1/beneficiaries', { entity: person, relationshipType: 'THIRD_PARTY' }).expect(201)).body;
    const res = await api.get(`/v1/beneficiaries/${theirs.id}`).expect(404);
    expect(res.body.details).toEqual({ resource: 'beneficiary', id: theirs.id });
  });

  it('with the body field that held an account id of another customer', async () => {
    const theirs = d.funded(d.c2.id).id;
    const res = await api
      .post('/v1/operations/deposits', { accountId: theirs, quoteId: MISSING, fundingInstruction: { rail: 'PIX' } })
      .expect(404);
    expect(res.body).toEqual({
      code: 'RESOURCE_NOT_FOUND',
      message: `No account with id ${theirs}.`,
      details: { resource: 'account', id: theirs, field: 'accountId' },
    });
  });
});

describe('reference list cursors', () => {
  it('refuses a cursor of the resources list on the event types list', async () => {
    const first = (await api.get('/v1/reference/resources?limit=1').expect(200)).body;
    expect(first.meta.nextCursor).toEqual(expect.any(String));
    const res = await api.get(`/v1/reference/eventTypes?limit=1&cursor=${encodeURIComponent(first.meta.nextCursor)}`).expect(400);
    expect(res.body.code).toBe('INVALID_CURSOR');
  });
});
