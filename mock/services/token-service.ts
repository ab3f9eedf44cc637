// Access tokens (seed "Authentication"): HS256 JWTs from jose (loaded through ./jose: bundled as
// CommonJS in the package) with sub = customer id and exp = now + 82800 s by the mock clock.
// Verification pins the algorithm (no `alg: none`), checks issuer, audience and expiry against the
// mock clock, and that the customer still exists.
import { timingSafeEqual } from 'node:crypto';
import { ServiceError } from '../errors/catalogue';
import type { Deps } from './deps';
import { jose } from './jose';

const ISSUER = 'fos-mock';
const AUDIENCE = 'fos-api';
const TOKEN_TYPE = 'at+jwt';

/** Verified tokens remembered at most; the cache is emptied when full (simple and bounded). */
const CACHE_LIMIT = 10_000;

export class TokenService {
  private readonly key: Uint8Array;
  /**
   * `Bearer <token>` → its customer and expiry, once the token's signature and claims checked out. A token's
   * validity depends only on its bytes, the secret and the clock, so a hit needs only the
   * expiry (against the mock clock, which can move) and the customer re-checked (in the store,
   * which every replica shares: a deleted customer's token stops on all of them at once).
   */
  private readonly verified = new Map<string, { customerId: string; expiresAtMs: number }>();

  constructor(private readonly deps: Deps) {
    this.key = new TextEncoder().encode(deps.config.secret);
  }

  async issue(clientId: string, clientSecret: string) {
    const client = await this.deps.store.get('client', clientId);
    const customer = client && (await this.deps.store.get('customer', client.customerId));
    if (!client || !customer || customer.deleted || !constantTimeEqual(client.clientSecret, clientSecret)) {
      throw new ServiceError('INVALID_CLIENT');
    }
    // By the customer's clock: its own, when it has one (exp follows that clock).
    const now = Math.floor((await this.deps.clocks.clockOf(customer.id)).now() / 1000);
    const expiresIn = this.deps.config.tokenLifetimeSeconds;
    const accessToken = await new jose.SignJWT({ client_id: clientId })
      .setProtectedHeader({ alg: 'HS256', typ: TOKEN_TYPE })
      .setSubject(customer.id)
      .setIssuer(ISSUER)
      .setAudience(AUDIENCE)
      .setIssuedAt(now)
      .setExpirationTime(now + expiresIn)
      .setJti(this.deps.newId())
      .sign(this.key);
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
      const clock = this.deps.clocks.cached(known.customerId) ?? (await this.deps.clocks.clockOf(known.customerId));
      if (clock.now() >= known.expiresAtMs) throw new ServiceError('UNAUTHORIZED', { reason: 'the token has expired' });
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
    let subject: string | undefined;
    let expiresAtMs: number;
    // Expiry is checked by the clock of the customer the token names (its own, or the mock's); a
    // token whose subject is forged fails the signature check whatever clock is read.
    const clock = await this.deps.clocks.clockOf(unverifiedSubject(token) ?? '');
    try {
      const { payload } = await jose.jwtVerify(token, this.key, {
        algorithms: ['HS256'],
        issuer: ISSUER,
        audience: AUDIENCE,
        typ: TOKEN_TYPE,
        requiredClaims: ['sub', 'exp', 'iat'],
        currentDate: new Date(clock.now()),
      });
      subject = payload.sub;
      expiresAtMs = (payload.exp as number) * 1000;
    } catch (error) {
      const expired = (error as { code?: string }).code === 'ERR_JWT_EXPIRED';
      throw new ServiceError('UNAUTHORIZED', { reason: expired ? 'the token has expired' : 'the token is not valid' });
    }
    const customerId = await this.liveCustomer(subject);
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

/** The `sub` claim as written, before any check: only to pick the clock the check reads. */
function unverifiedSubject(token: string): string | undefined {
  try {
    const claims = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8')) as { sub?: unknown };
    return typeof claims.sub === 'string' ? claims.sub : undefined;
  } catch {
    return undefined;
  }
}

function constantTimeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}
