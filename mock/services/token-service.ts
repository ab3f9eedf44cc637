// Access tokens (seed "Authentication"): HS256 JWTs from fast-jwt (CommonJS, so the package loads
// under jest's defaults; decision 0023) with sub = customer id and exp = now + 82800 s by the mock
// clock. Verification pins the algorithm (no `alg: none`), checks type, issuer and audience, then
// expiry against the mock clock (expired from exp on), and that the customer still exists.
import { timingSafeEqual } from 'node:crypto';
import { createSigner, createVerifier } from 'fast-jwt';
import { ServiceError } from '../errors/catalogue';
import type { Deps } from './deps';

const ISSUER = 'fos-mock';
const AUDIENCE = 'fos-api';
const TOKEN_TYPE = 'at+jwt';

/** Verified tokens remembered at most; the cache is emptied when full (simple and bounded). */
const CACHE_LIMIT = 10_000;

export class TokenService {
  private readonly key: Buffer;
  private readonly sign: (payload: Record<string, unknown>) => string;
  /**
   * `Bearer <token>` → its customer and expiry, once the token's signature and claims checked out. A token's
   * validity depends only on its bytes, the secret and the clock, so a hit needs only the
   * expiry (against the mock clock, which can move) and the customer re-checked (in the store,
   * which every replica shares: a deleted customer's token stops on all of them at once).
   */
  private readonly verified = new Map<string, { customerId: string; expiresAtMs: number }>();

  constructor(private readonly deps: Deps) {
    this.key = Buffer.from(deps.config.secret);
    this.sign = createSigner({ key: this.key, algorithm: 'HS256', header: { alg: 'HS256', typ: TOKEN_TYPE } });
  }

  /**
   * Signature, algorithm, type, issuer, audience, the required claims and nbf, at this instant of
   * the mock clock; expiry is checked by the caller, by the same rule as a remembered token's.
   */
  private check(token: string, nowMs: number): { sub?: unknown; exp?: unknown } {
    const verifier = createVerifier({
      key: this.key,
      algorithms: ['HS256'],
      checkTyp: TOKEN_TYPE,
      allowedIss: ISSUER,
      allowedAud: AUDIENCE,
      requiredClaims: ['sub', 'exp', 'iat'],
      ignoreExpiration: true,
      clockTimestamp: nowMs,
    });
    return verifier(token) as { sub?: unknown; exp?: unknown };
  }

  async issue(clientId: string, clientSecret: string) {
    const client = await this.deps.store.get('client', clientId);
    const customer = client && (await this.deps.store.get('customer', client.customerId));
    if (!client || !customer || customer.deleted || !constantTimeEqual(client.clientSecret, clientSecret)) {
      throw new ServiceError('INVALID_CLIENT');
    }
    const now = Math.floor(this.deps.clock.now() / 1000);
    const expiresIn = this.deps.config.tokenLifetimeSeconds;
    const accessToken = this.sign({
      client_id: clientId,
      sub: customer.id,
      iss: ISSUER,
      aud: AUDIENCE,
      iat: now,
      exp: now + expiresIn,
      jti: this.deps.newId(),
    });
    return { accessToken, tokenType: 'Bearer' as const, expiresIn };
  }

  /** The customer id a bearer token stands for; 401 UNAUTHORIZED for anything else. */
  async verify(authorization: string | undefined): Promise<string> {
    // Looked up by the whole header, before the pattern: a header names its token alone, and a
    // request with a known token (nearly all of them) then skips matching its few hundred chars.
    // Without the cache the full check gives the same answer (the same expiry against the clock,
    // the same customer check), only slower: a miss forced here or below is equivalent.
    // Stryker disable next-line ConditionalExpression,EqualityOperator: equivalent, see above
    const known = authorization === undefined ? undefined : this.verified.get(authorization);
    // Stryker disable next-line ConditionalExpression,BlockStatement: equivalent, see above
    if (known) {
      if (this.deps.clock.now() >= known.expiresAtMs) throw new ServiceError('UNAUTHORIZED', { reason: 'the token has expired' });
      return this.liveCustomer(known.customerId);
    }
    // Any header that is not "Bearer <jwt>" fails the match, so what stands in for a missing one does not matter.
    // Stryker disable next-line StringLiteral: equivalent, see above
    const match = /^Bearer ([A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*)$/.exec(authorization ?? '');
    if (!match)
      throw new ServiceError('UNAUTHORIZED', {
        reason: authorization ? 'the Authorization header is not a Bearer JWT' : 'no Authorization header',
      });
    const token = match[1] as string;
    const now = this.deps.clock.now();
    let claims: { sub?: unknown; exp?: unknown };
    try {
      claims = this.check(token, now);
    } catch {
      throw new ServiceError('UNAUTHORIZED', { reason: 'the token is not valid' });
    }
    if (typeof claims.exp !== 'number') throw new ServiceError('UNAUTHORIZED', { reason: 'the token is not valid' });
    const expiresAtMs = claims.exp * 1000;
    if (now >= expiresAtMs) throw new ServiceError('UNAUTHORIZED', { reason: 'the token has expired' });
    const customerId = await this.liveCustomer(typeof claims.sub === 'string' ? claims.sub : undefined);
    // When the cache is emptied changes memory, not any answer (a miss is checked in full).
    // Stryker disable next-line ConditionalExpression,EqualityOperator: equivalent, see above
    if (this.verified.size >= CACHE_LIMIT) this.verified.clear();
    this.verified.set(match[0], { customerId, expiresAtMs });
    return customerId;
  }

  /** A deleted or unknown customer's tokens stop working at once. */
  private async liveCustomer(id: string | undefined): Promise<string> {
    const customer = id ? await this.deps.store.get('customer', id) : undefined;
    if (!customer || customer.deleted) throw new ServiceError('UNAUTHORIZED', { reason: 'the token is not valid' });
    return customer.id;
  }
}

function constantTimeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}
