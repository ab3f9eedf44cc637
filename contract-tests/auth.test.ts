// Tokens and authentication: the token call, the token's lifetime and claims, and 401 for a
// missing, malformed, forged or expired token on every secured operation.
import { describe, expect, it } from '@jest/globals';
import { describeWhen, itEachWhen, itWhen } from './support/capabilities';
import { decodeJwt, resigned, tampered, unsigned } from './support/jwt';
import { samples } from './support/samples';
import { useSession } from './support/session';
import { contract } from './support/target';
import type { Account, Page } from './support/types';

const session = useSession();
const tokenCall = (body: unknown, options = {}) => session().anonymous.post('/api/oauth/client/token', body, { auth: 'none', ...options });

describe('the token call', () => {
  itWhen(
    ['stateful'],
    'When a client exchanges its credentials, then it gets a Bearer JWT living 82800 s whose sub is its customer [AUTH-TOKEN-LIFETIME]',
    async () => {
      const { api } = session();
      const res = await tokenCall(api.credentials);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ tokenType: 'Bearer', expiresIn: 82800 });
      const jwt = decodeJwt(res.body.accessToken);
      expect(jwt.header.alg).not.toBe('none');
      expect(typeof jwt.payload.exp).toBe('number');
      if (typeof jwt.payload.iat === 'number') expect((jwt.payload.exp as number) - jwt.payload.iat).toBe(82800);
      const accounts = await api.get<Page<Account>>('/api/accounts');
      expect(accounts.status).toBe(200);
      for (const account of accounts.body.data) expect(account.customer.id).toBe(jwt.payload.sub);
    },
  );

  itWhen(['control'], 'When a token is issued, then exp is the mock clock plus 82800 s [AUTH-TOKEN-LIFETIME]', async () => {
    const { api, control } = session();
    const before = Date.parse((await control!.clock()).now);
    const res = await tokenCall(api.credentials);
    const after = Date.parse((await control!.clock()).now);
    const exp = decodeJwt(res.body.accessToken).payload.exp as number;
    expect(exp).toBeGreaterThanOrEqual(Math.floor(before / 1000) + 82800);
    expect(exp).toBeLessThanOrEqual(Math.ceil(after / 1000) + 82800);
  });

  it('When one token is reused for many calls, then every call is accepted [AUTH-TOKEN-REUSABLE]', async () => {
    const { api } = session();
    const answers = await Promise.all([
      api.get('/api/accounts'),
      api.get('/v1/operations'),
      api.get('/v1/subscriptions'),
      api.get('/v1/beneficiaries'),
    ]);
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200]);
  });

  itEachWhen(
    ['stateful'],
    [
      ['a wrong secret', (id: string) => ({ clientId: id, clientSecret: 'certainly-not-the-secret' })],
      ['an unknown client', () => ({ clientId: 'no-such-client-anywhere', clientSecret: 'whatever' })],
    ],
  )('When the call carries %s, then it answers 401 INVALID_CLIENT [AUTH-INVALID-CLIENT]', async (_name, body) => {
    const res = await tokenCall(body(session().api.credentials!.clientId));
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('INVALID_CLIENT');
  });

  itEachWhen(
    ['stateful'],
    [
      ['no clientSecret', { clientId: 'demo' }],
      ['a numeric clientId', { clientId: 42, clientSecret: 'x' }],
      ['an empty object', {}],
    ],
  )('When the body has %s, then it answers 400 VALIDATION_ERROR [VALIDATION-400]', async (_name, body) => {
    const res = await tokenCall(body);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('VALIDATION_ERROR');
  });

  it(
    'When the token call is made without an idempotency key, ' +
      'then it is still answered (the token call needs none) [AUTH-TOKEN-NO-KEY]',
    async () => {
      const res = await tokenCall(session().api.credentials, { idempotencyKey: null });
      expect(res.status).toBe(200);
    },
  );
});

describeWhen(['stateful'], 'bearer tokens', () => {
  const forgeries: Array<[string, (token: string) => string]> = [
    ['no Authorization header', () => ''],
    ['a Basic header', () => 'Basic ZGVtbzpkZW1v'],
    ['a bearer value that is not a JWT', () => 'Bearer not-a-token'],
    ['an empty bearer value', () => 'Bearer '],
    ['the token without its Bearer scheme', (token) => token],
    ['the claims re-sent with alg none', (token) => `Bearer ${unsigned(token)}`],
    ['the claims re-signed with another key', (token) => `Bearer ${resigned(token)}`],
    [
      'another subject under the original signature',
      (token) => `Bearer ${tampered(token, { sub: '00000000-0000-4000-8000-000000000000' })}`,
    ],
    ['a later expiry under the original signature', (token) => `Bearer ${tampered(token, { exp: 4102444800 })}`],
    ['a truncated signature', (token) => `Bearer ${token.slice(0, -6)}`],
  ];

  it.each(forgeries)('When a request carries %s, then it answers 401 UNAUTHORIZED [AUTH-REQUIRED-401]', async (_name, forge) => {
    const { api, anonymous } = session();
    const value = forge(await api.token());
    const res = await anonymous.get('/api/accounts', { auth: value === '' ? 'none' : value });
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('UNAUTHORIZED');
  });

  const secured = samples(contract(), (op) => op.security);
  it.each(secured.map((s) => [s.operationId, s] as const))(
    'When %s is called without a token, then it answers 401 [AUTH-REQUIRED-401]',
    async (_id, s) => {
      const res = await session().anonymous.call(s.method, s.path, { body: s.body, auth: 'none' });
      expect(res.status).toBe(401);
      expect(res.body.code).toBe('UNAUTHORIZED');
    },
  );

  itWhen(
    ['control'],
    'When the mock clock passes the token’s exp, then the token answers 401 and a new one works [AUTH-REQUIRED-401]',
    async () => {
      const { api, control } = session();
      expect((await api.get('/api/accounts')).status).toBe(200);
      await control!.advance('23h');
      await control!.advance('1s');
      const expired = await api.get('/api/accounts');
      expect(expired.status).toBe(401);
      expect(expired.body.code).toBe('UNAUTHORIZED');
      api.renewToken();
      expect((await api.get('/api/accounts')).status).toBe(200);
    },
  );
});

describe('versions', () => {
  it('When X-Service-Version is 1 or absent, then the call is served [VERSION-HEADER]', async () => {
    const { api } = session();
    expect((await api.get('/api/accounts', { headers: { 'X-Service-Version': '1' } })).status).toBe(200);
    expect((await api.get('/api/accounts')).status).toBe(200);
  });

  itEachWhen(
    ['stateful'],
    samples(contract()).map((s) => [s.operationId, s] as const),
  )('When %s asks for an unknown version, then it answers 400 UNSUPPORTED_VERSION [VERSION-HEADER]', async (_id, s) => {
    const { api, anonymous } = session();
    const client = s.op.security ? api : anonymous;
    const res = await client.call(s.method, s.path, { body: s.body, headers: { 'X-Service-Version': '999' } });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('UNSUPPORTED_VERSION');
  });
});
