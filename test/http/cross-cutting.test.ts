// Behaviour every route shares: request ids, versions, tokens, validation, bodies, routing.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { SignJWT, UnsecuredJWT } from 'jose';
import { handlers } from '../../mock/resources/handlers';
import { assertHandlersMatchDocument } from '../../mock/http/route-table';
import { contract, demoFixtures, startMock, type Harness } from './harness';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
let h: Harness;

beforeAll(async () => {
  h = await startMock({ config: { secret: 'test-secret' } });
});
afterAll(() => h?.close());

describe('routes and the document', () => {
  it('has a handler for every operation of the document and no handler the document lacks', () => {
    expect(() => assertHandlersMatchDocument(contract(), handlers)).not.toThrow();
    expect(Object.keys(handlers).sort()).toEqual(
      contract()
        .operations.map((op) => op.operationId)
        .sort(),
    );
  });

  it('refuses to start when the document has an operation the mock lacks', () => {
    const { createToken: _dropped, ...rest } = handlers;
    expect(() => assertHandlersMatchDocument(contract(), rest)).toThrow(/No handler for: createToken/);
  });

  it('refuses to start when the mock has a route the document lacks', () => {
    expect(() => assertHandlersMatchDocument(contract(), { ...handlers, getSecrets: handlers.getAccount })).toThrow(
      /Not in the document: getSecrets/,
    );
  });
});

describe('X-Request-Id', () => {
  it('is a fresh uuid on a success, an error and an unknown route', async () => {
    const api = await h.as();
    const ok = await api.get('/api/accounts').expect(200);
    const unauthorized = await h.http.get('/api/accounts').expect(401);
    const unknown = await h.http.get('/nowhere').expect(404);
    const ids = [ok, unauthorized, unknown].map((res) => res.headers['x-request-id']);
    for (const id of ids) expect(id).toMatch(UUID);
    expect(new Set(ids).size).toBe(3);
  });
});

describe('X-Service-Version', () => {
  it('serves version 1 and the default', async () => {
    const api = await h.as();
    await api.get('/api/accounts').set('X-Service-Version', '1').expect(200);
    await api.get('/api/accounts').expect(200);
  });

  it('answers any other version with 400 UNSUPPORTED_VERSION', async () => {
    const api = await h.as();
    const res = await api.get('/api/accounts').set('X-Service-Version', '2').expect(400);
    expect(res.body).toMatchObject({ code: 'UNSUPPORTED_VERSION', details: { requested: '2', supported: ['1'] } });
  });
});

describe('bearer tokens', () => {
  const key = new TextEncoder().encode('test-secret');
  const customerId = () => demoFixtures().customers[0]!.id;
  const now = () => Math.floor(h.mock.deps.clock.now() / 1000);
  const signed = (claims: Record<string, unknown>, secret = key, header: Record<string, unknown> = { alg: 'HS256', typ: 'at+jwt' }) =>
    new SignJWT({ ...claims })
      .setProtectedHeader(header as { alg: string })
      .setSubject(customerId())
      .setIssuer('fos-mock')
      .setAudience('fos-api')
      .setIssuedAt(now())
      .setExpirationTime(now() + 60)
      .sign(secret);

  it('issues a Bearer JWT that lives 82800 seconds by the mock clock, for the right customer', async () => {
    const res = await h.http.post('/api/oauth/client/token').send({ clientId: 'demo-client', clientSecret: 'demo-secret' }).expect(200);
    expect(res.body).toMatchObject({ tokenType: 'Bearer', expiresIn: 82800 });
    const [, payload] = (res.body.accessToken as string).split('.');
    const claims = JSON.parse(Buffer.from(payload as string, 'base64url').toString());
    expect(claims.sub).toBe(customerId());
    expect(claims.exp - claims.iat).toBe(82800);
    expect(claims.iat).toBe(now());
  });

  it('refuses a wrong secret and an unknown client with 401 INVALID_CLIENT', async () => {
    for (const body of [
      { clientId: 'demo-client', clientSecret: 'nope' },
      { clientId: 'nobody', clientSecret: 'demo-secret' },
    ]) {
      const res = await h.http.post('/api/oauth/client/token').send(body).expect(401);
      expect(res.body.code).toBe('INVALID_CLIENT');
    }
  });

  it('does not ask the token call for an idempotency key', async () => {
    await h.http.post('/api/oauth/client/token').send({ clientId: 'demo-client', clientSecret: 'demo-secret' }).expect(200);
  });

  it.each([
    ['no Authorization header', () => undefined],
    ['a Basic header', () => 'Basic ZGVtbzpkZW1v'],
    ['a token that is not a JWT', () => 'Bearer not-a-token'],
    [
      'alg none',
      () => {
        const token = new UnsecuredJWT({ sub: customerId() })
          .setIssuer('fos-mock')
          .setAudience('fos-api')
          .setIssuedAt()
          .setExpirationTime('1h');
        return `Bearer ${token.encode()}`;
      },
    ],
    ['HS256 signed with another key', async () => `Bearer ${await signed({}, new TextEncoder().encode('another-secret'))}`],
    [
      'a tampered payload',
      async () => {
        const [head, , sig] = (await signed({})).split('.');
        const forged = Buffer.from(
          JSON.stringify({ sub: demoFixtures().customers[1]!.id, iss: 'fos-mock', aud: 'fos-api', iat: now(), exp: now() + 60 }),
        ).toString('base64url');
        return `Bearer ${head}.${forged}.${sig}`;
      },
    ],
    ['the wrong token type', async () => `Bearer ${await signed({}, key, { alg: 'HS256', typ: 'JWT' })}`],
    [
      'an unknown customer',
      async () =>
        `Bearer ${await new SignJWT({})
          .setProtectedHeader({ alg: 'HS256', typ: 'at+jwt' })
          .setSubject('00000000-0000-4000-8000-000000000000')
          .setIssuer('fos-mock')
          .setAudience('fos-api')
          .setIssuedAt(now())
          .setExpirationTime(now() + 60)
          .sign(key)}`,
    ],
  ])('answers %s with 401 UNAUTHORIZED', async (_name, header) => {
    const value = await header();
    const req = h.http.get('/api/accounts');
    const res = await (value ? req.set('Authorization', value) : req).expect(401);
    expect(res.body.code).toBe('UNAUTHORIZED');
    expect(res.headers['x-request-id']).toMatch(UUID);
  });

  it('stops a deleted customer’s token at once, even one that was already used', async () => {
    const mock = await startMock();
    try {
      const api = await mock.as('customer2');
      await api.get('/api/accounts').expect(200);
      await mock.mock.deps.store.update('customer', demoFixtures().customers[1]!.id, (c) => ({ ...c, deleted: true }));
      expect((await api.get('/api/accounts').expect(401)).body.code).toBe('UNAUTHORIZED');
    } finally {
      await mock.close();
    }
  });

  it('expires a token once the mock clock passes exp', async () => {
    const mock = await startMock();
    try {
      const api = await mock.as();
      await api.get('/api/accounts').expect(200);
      mock.mock.deps.clock.advance(82_800_000);
      const res = await api.get('/api/accounts').expect(401);
      expect(res.body).toMatchObject({ code: 'UNAUTHORIZED', details: { reason: 'the token has expired' } });
    } finally {
      await mock.close();
    }
  });
});

describe('request validation', () => {
  it('names every offending field in details', async () => {
    const api = await h.as();
    const res = await api
      .post('/v1/quotes', { accountId: 'not-a-uuid', sourceAsset: 'BRL', targetAsset: 42, sourceAmount: 10 })
      .expect(400);
    expect(res.body.code).toBe('VALIDATION_ERROR');
    const fields = (res.body.details.fields as Array<{ field: string }>).map((f) => f.field);
    expect(fields).toEqual(expect.arrayContaining(['body.accountId', 'body.targetAsset', 'body.sourceAmount']));
  });

  it('rejects an unknown field in a request body', async () => {
    const api = await h.as();
    const account = demoFixtures().accounts[1]!.id;
    const res = await api
      .post('/v1/quotes', { accountId: account, sourceAsset: 'BRL', targetAsset: 'USDT', sourceAmount: '10.00', sourceAmmount: '1' })
      .expect(400);
    expect(res.body.details.fields).toEqual(expect.arrayContaining([{ field: 'body.sourceAmmount', message: 'is not a known field' }]));
  });

  it('validates path and query parameters', async () => {
    const api = await h.as();
    const bad = await api.get('/api/accounts/12345').expect(400);
    expect(bad.body.details.fields[0].field).toBe('path.accountId');
    for (const limit of ['0', '101', 'ten']) {
      const res = await api.get(`/api/accounts?limit=${limit}`).expect(400);
      expect(res.body.details.fields[0].field).toBe('query.limit');
    }
    const order = await api.get('/api/accounts?sortOrder=SIDEWAYS').expect(400);
    expect(order.body.details.fields[0].field).toBe('query.sortOrder');
  });

  it('answers malformed JSON with 400 and no stack trace', async () => {
    const api = await h.as();
    const res = await api.post('/v1/quotes').set('Content-Type', 'application/json').send('{"accountId": ').expect(400);
    expect(res.body).toEqual({
      code: 'VALIDATION_ERROR',
      message: expect.any(String),
      details: { fields: [{ field: 'body', message: 'is not well-formed JSON' }] },
    });
    expect(JSON.stringify(res.body)).not.toMatch(/at .*\.(js|ts):\d+/);
  });

  it('answers a body over the limit with 413 PAYLOAD_TOO_LARGE', async () => {
    const api = await h.as();
    const res = await api
      .post('/v1/quotes')
      .set('Content-Type', 'application/json')
      .send(JSON.stringify({ pad: 'x'.repeat(1024 * 1024 + 10) }))
      .expect(413);
    expect(res.body.code).toBe('PAYLOAD_TOO_LARGE');
  });

  it('answers a body that is not JSON with 415 UNSUPPORTED_MEDIA_TYPE', async () => {
    const api = await h.as();
    const res = await api.post('/v1/quotes').set('Content-Type', 'text/plain').send('accountId=1').expect(415);
    expect(res.body.code).toBe('UNSUPPORTED_MEDIA_TYPE');
  });

  it('asks for a body where one is required', async () => {
    const api = await h.as();
    const res = await api.post('/v1/quotes').expect(400);
    expect(res.body.details.fields).toEqual([{ field: 'body', message: 'is required' }]);
  });
});

describe('routing', () => {
  it('answers an unknown path with 404 and the Error body', async () => {
    const res = await h.http.get('/v1/nothing-here').expect(404);
    expect(res.body).toMatchObject({ code: 'ROUTE_NOT_FOUND', message: expect.any(String) });
  });

  it('answers a known path with the wrong method with 405 and Allow', async () => {
    const res = await h.http.put('/api/accounts').expect(405);
    expect(res.body.code).toBe('METHOD_NOT_ALLOWED');
    expect(res.headers.allow).toBe('GET');
  });

  it(
    'matches and refuses by the same rules: ' + 'DELETE /API/Accounts is 405 like DELETE /api/accounts, GET /API/Accounts is the list',
    async () => {
      for (const path of ['/api/accounts', '/API/Accounts', '/Api/Accounts/']) {
        const res = await h.http.delete(path).expect(405);
        expect(res.body.code).toBe('METHOD_NOT_ALLOWED');
        expect(res.headers.allow).toBe('GET');
      }
      const api = await h.as();
      await api.get('/API/Accounts').expect(200);
      const templated = await h.http.delete('/V1/Subscriptions/3f1c2a4e-8b7d-4c59-9e21-6a0d5b7c8e90/ExecutionLogs').expect(405);
      expect(templated.headers.allow).toBe('GET');
    },
  );

  it('does not take a concrete path for a templated one: GET /v1/operations/deposits is 405', async () => {
    const api = await h.as();
    const res = await api.get('/v1/operations/deposits').expect(405);
    expect(res.headers.allow).toBe('POST');
  });
});

describe('strict response validation', () => {
  it('turns a response that breaks the document into a loud 500 naming the violation', async () => {
    const broken = await startMock({
      handlers: { ...handlers, getAccount: () => Promise.resolve({ status: 200, body: { id: 'not-an-account' } }) },
    });
    try {
      const api = await broken.as();
      const res = await api.get(`/api/accounts/${demoFixtures().accounts[0]!.id}`).expect(500);
      expect(res.body).toMatchObject({
        code: 'INTERNAL_ERROR',
        details: { operationId: 'getAccount', violations: expect.arrayContaining([{ field: 'body.owner', message: expect.any(String) }]) },
      });
    } finally {
      await broken.close();
    }
  });

  it('lets the same response through when strict mode is off', async () => {
    const lax = await startMock({
      config: { strictResponses: false },
      handlers: { ...handlers, getAccount: () => Promise.resolve({ status: 200, body: { id: 'x' } }) },
    });
    try {
      const api = await lax.as();
      expect((await api.get(`/api/accounts/${demoFixtures().accounts[0]!.id}`).expect(200)).body).toEqual({ id: 'x' });
    } finally {
      await lax.close();
    }
  });
});
