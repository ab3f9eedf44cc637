// Tokens. Forged, tampered, re-signed with another key or algorithm, wrong typ, issuer or
// audience, expired by the mock clock and orphaned (deleted customer) tokens are all 401, on
// every operation that takes a bearer token, with the Error body; the genuine token still works.
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { randomUUID } from 'node:crypto';
import { SignJWT, decodeJwt, decodeProtectedHeader } from 'jose';
import { startMock, type Harness } from '../http/harness';
import { expectStatus } from './support/api';
import { answerProblems } from './support/checks';
import { client, serve, type Served } from './support/http-client';
import { b64, c1, c2, d, errors, expectUnauthorized, tenancyFile } from './support/tenancy';

tenancyFile('tenancy-tokens.test.ts');

describe('tokens', () => {
  let h: Harness;
  let served: Served;
  let real: string;
  const withToken = (token: string) => client(served, token);

  beforeEach(async () => {
    h = await startMock({ logger: errors.logger });
    served = await serve(h.mock.app);
    real = await h.token('customer1');
  });
  afterEach(async () => {
    await served.close();
    await h.close();
  });

  /** Signs claims with the mock's own secret: only the changed claim or header can make it fail. */
  async function signed(
    claims: Record<string, unknown>,
    header: Record<string, unknown> = {},
    key: string = h.mock.deps.config.secret,
  ): Promise<string> {
    const base = decodeJwt(real);
    return new SignJWT({ ...base, ...claims })
      .setProtectedHeader({ ...decodeProtectedHeader(real), ...header, alg: (header.alg as string) ?? 'HS256' })
      .sign(new TextEncoder().encode(key));
  }

  it('the genuine token, and one re-signed with the mock secret and the same claims, are accepted (the control)', async () => {
    expectStatus(await withToken(real).get('/api/accounts?limit=1'), 200, 'real token');
    expectStatus(await withToken(await signed({})).get('/api/accounts?limit=1'), 200, 're-signed token');
  });

  it('alg none, another key, a tampered payload, a wrong typ, issuer or audience, another algorithm: 401', async () => {
    const [h64, p64, sig] = real.split('.') as [string, string, string];
    const payload = decodeJwt(real);
    const forged: Array<[string, string]> = [
      ['alg none, no signature', `${b64({ alg: 'none', typ: 'at+jwt' })}.${p64}.`],
      ['alg none, original signature', `${b64({ alg: 'none', typ: 'at+jwt' })}.${p64}.${sig}`],
      ['alg None (case)', `${b64({ alg: 'None', typ: 'at+jwt' })}.${p64}.`],
      ['HS256 with another key', await signed({}, {}, 'not-the-mock-secret-0123456789abcdef')],
      ['HS256 with an empty-ish key', await signed({}, {}, ' ')],
      ['payload tampered: sub is customer 2', `${h64}.${b64({ ...payload, sub: c2 })}.${sig}`],
      ['payload tampered: exp in a century', `${h64}.${b64({ ...payload, exp: (payload.exp as number) + 100 * 365 * 86400 })}.${sig}`],
      ['signature of another token', `${h64}.${p64}.${(await signed({ jti: randomUUID() })).split('.')[2]}`],
      ['signature truncated', `${h64}.${p64}.${sig.slice(0, -4)}`],
      ['typ JWT instead of at+jwt', await signed({}, { typ: 'JWT' })],
      ['no typ', await signed({}, { typ: undefined })],
      ['wrong issuer', await signed({ iss: 'someone-else' })],
      ['wrong audience', await signed({ aud: 'another-api' })],
      ['HS512 with the mock secret', await signed({}, { alg: 'HS512' })],
      ['unknown customer', await signed({ sub: randomUUID() })],
      ['no sub', await signed({ sub: undefined })],
      ['no exp', await signed({ exp: undefined })],
      ['not yet valid (nbf in the future)', await signed({ nbf: (payload.iat as number) + 3600 })],
      ['a JWE-shaped string', `${h64}.${p64}.${sig}.x.y`],
    ];
    for (const [what, token] of forged) expectUnauthorized(await withToken(token).get('/api/accounts?limit=1'), what);
    // Nothing broke the genuine token on the way.
    expectStatus(await withToken(real).get('/api/accounts?limit=1'), 200, 'real token still works');
  });

  it('a token expired by the mock clock is 401, whether or not it was used before', async () => {
    const used = real;
    expectStatus(await withToken(used).get('/api/accounts?limit=1'), 200, 'fresh token');
    const unused = (
      await served.send({
        method: 'POST',
        path: '/api/oauth/client/token',
        body: { clientId: d.c2.clientId, clientSecret: d.c2.clientSecret },
      })
    ).body.accessToken as string;
    h.mock.deps.clock.advance((h.mock.deps.config.tokenLifetimeSeconds - 1) * 1000);
    expectStatus(await withToken(used).get('/api/accounts?limit=1'), 200, 'a second before expiry');
    h.mock.deps.clock.advance(1000);
    expectUnauthorized(await withToken(used).get('/api/accounts?limit=1'), 'expired, seen before');
    expectUnauthorized(await withToken(unused).get('/api/accounts?limit=1'), 'expired, never seen');
  });

  it('the token of a deleted customer is 401 at once, and no new token is issued for it', async () => {
    expectStatus(await withToken(real).get('/api/accounts?limit=1'), 200, 'before deletion');
    await h.mock.deps.store.update('customer', c1, (r) => ({ ...r, deleted: true }));
    expectUnauthorized(await withToken(real).get('/api/accounts?limit=1'), 'deleted customer, cached token');
    expectUnauthorized(
      await withToken(await signed({ jti: randomUUID() })).get('/v1/operations'),
      'deleted customer, new token signed by the mock',
    );
    const issue = await served.send({
      method: 'POST',
      path: '/api/oauth/client/token',
      body: { clientId: d.c1.clientId, clientSecret: d.c1.clientSecret },
    });
    expect(issue.status).toBe(401);
    expect(issue.body.code).toBe('INVALID_CLIENT');
    // The other customer is untouched.
    expectStatus(await withToken(await h.token('customer2')).get('/api/accounts?limit=1'), 200, 'customer 2');
  });

  it('every operation with a bearer token refuses a forged one with 401 and the Error body', async () => {
    const forged = `${b64({ alg: 'none', typ: 'at+jwt' })}.${real.split('.')[1]}.`;
    for (const op of h.mock.contract.operations.filter((o) => o.security)) {
      const path = op.path.replace(/\{[^}]+\}/g, () => randomUUID());
      const answer = await served.send({
        method: op.method.toUpperCase(),
        path,
        headers: { authorization: `Bearer ${forged}`, 'x-idempotency-key': randomUUID() },
        body: op.hasBody ? {} : undefined,
      });
      expectUnauthorized(answer, `${op.operationId} with alg none`);
      expect(answerProblems(h.mock.contract, op, answer)).toEqual([]);
    }
  });
});
