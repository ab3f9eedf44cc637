// The access-token rules (seed "Authentication"): who gets a token, what the token says, and why
// a bearer header is refused (the 401's details.reason tells a client what to fix).
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { SignJWT } from 'jose';
import { demoFixtures, startMock, type Harness } from './harness';

const SECRET = new TextEncoder().encode('token-rules-secret');
let h: Harness;

beforeAll(async () => {
  h = await startMock({ config: { secret: 'token-rules-secret' } });
});
afterAll(() => h?.close());

const customerId = () => demoFixtures().customers[0]!.id;
const now = () => Math.floor(h.mock.deps.clock.now() / 1000);

/** A token as the mock signs it, with some claims left out or changed. */
function signed(options: { omit?: Array<'sub' | 'iat' | 'exp'>; exp?: number; sub?: string } = {}) {
  const omit = new Set(options.omit ?? []);
  const jwt = new SignJWT({}).setProtectedHeader({ alg: 'HS256', typ: 'at+jwt' }).setIssuer('fos-mock').setAudience('fos-api');
  if (!omit.has('sub')) jwt.setSubject(options.sub ?? customerId());
  if (!omit.has('iat')) jwt.setIssuedAt(now() - 120);
  if (!omit.has('exp')) jwt.setExpirationTime(options.exp ?? now() + 60);
  return jwt.sign(SECRET);
}

const accounts = (authorization?: string) => {
  const req = h.http.get('/api/accounts');
  return authorization === undefined ? req : req.set('Authorization', authorization);
};

describe('issuing a token', () => {
  it('names the client in the token as client_id next to the customer as sub', async () => {
    const res = await h.http.post('/api/oauth/client/token').send({ clientId: 'demo-client-2', clientSecret: 'demo-secret-2' }).expect(200);
    const claims = JSON.parse(Buffer.from((res.body.accessToken as string).split('.')[1]!, 'base64url').toString());
    expect(claims).toMatchObject({ client_id: 'demo-client-2', sub: demoFixtures().customers[1]!.id, iss: 'fos-mock', aud: 'fos-api' });
  });

  it('refuses with 401 INVALID_CLIENT a client whose customer does not exist or was deleted', async () => {
    const mock = await startMock();
    try {
      await mock.mock.deps.store.insert('client', 'orphan', 'orphan-client', {
        clientId: 'orphan-client',
        clientSecret: 'orphan-secret',
        customerId: '00000000-0000-4000-8000-000000000000',
      });
      const orphan = await mock.http
        .post('/api/oauth/client/token')
        .send({ clientId: 'orphan-client', clientSecret: 'orphan-secret' })
        .expect(401);
      expect(orphan.body).toMatchObject({ code: 'INVALID_CLIENT', message: 'Unknown client or wrong client secret.' });

      await mock.mock.deps.store.update('customer', demoFixtures().customers[1]!.id, (c) => ({ ...c, deleted: true }));
      const deleted = await mock.http
        .post('/api/oauth/client/token')
        .send({ clientId: 'demo-client-2', clientSecret: 'demo-secret-2' })
        .expect(401);
      expect(deleted.body.code).toBe('INVALID_CLIENT');
    } finally {
      await mock.close();
    }
  });
});

describe('why a bearer header is refused', () => {
  it('says there is no Authorization header when none is sent', async () => {
    const res = await accounts().expect(401);
    expect(res.body).toMatchObject({
      code: 'UNAUTHORIZED',
      message: 'A valid bearer token is required.',
      details: { reason: 'no Authorization header' },
    });
  });

  it.each([
    ['a Basic header', () => Promise.resolve('Basic ZGVtbzpkZW1v')],
    ['a valid token with text before "Bearer"', async () => `X-Bearer ${await h.token()}`],
    ['a valid token followed by more text', async () => `Bearer ${await h.token()} extra`],
  ])('says %s is not a Bearer JWT', async (_name, header) => {
    const res = await accounts(await header()).expect(401);
    expect(res.body).toMatchObject({ code: 'UNAUTHORIZED', details: { reason: 'the Authorization header is not a Bearer JWT' } });
  });

  it('accepts the same token given exactly as "Bearer <token>"', async () => {
    await accounts(`Bearer ${await h.token()}`).expect(200);
  });

  it('says a token signed with the right key but already past exp has expired, the first time it is seen', async () => {
    const res = await accounts(`Bearer ${await signed({ exp: now() - 1 })}`).expect(401);
    expect(res.body).toMatchObject({ code: 'UNAUTHORIZED', details: { reason: 'the token has expired' } });
  });

  it.each([
    [
      'signed with another key',
      async () =>
        `Bearer ${await new SignJWT({})
          .setProtectedHeader({ alg: 'HS256', typ: 'at+jwt' })
          .setSubject(customerId())
          .setIssuer('fos-mock')
          .setAudience('fos-api')
          .setIssuedAt(now())
          .setExpirationTime(now() + 60)
          .sign(new TextEncoder().encode('another'))}`,
    ],
    ['without iat', async () => `Bearer ${await signed({ omit: ['iat'] })}`],
    ['without exp', async () => `Bearer ${await signed({ omit: ['exp'] })}`],
    ['without sub', async () => `Bearer ${await signed({ omit: ['sub'] })}`],
    ['for an unknown customer', async () => `Bearer ${await signed({ sub: '00000000-0000-4000-8000-000000000000' })}`],
  ])('says a token %s is not valid', async (_name, header) => {
    const res = await accounts(await header()).expect(401);
    expect(res.body).toMatchObject({ code: 'UNAUTHORIZED', details: { reason: 'the token is not valid' } });
  });

  it('says the token of a customer deleted after its first use is not valid', async () => {
    const mock = await startMock();
    try {
      const api = await mock.as('customer2');
      await api.get('/api/accounts').expect(200);
      await mock.mock.deps.store.update('customer', demoFixtures().customers[1]!.id, (c) => ({ ...c, deleted: true }));
      const res = await api.get('/api/accounts').expect(401);
      expect(res.body).toMatchObject({ code: 'UNAUTHORIZED', details: { reason: 'the token is not valid' } });
    } finally {
      await mock.close();
    }
  });
});
