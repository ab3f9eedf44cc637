// The optional per-customer rate limit (ours, off by default: config.rateLimit, RATE_LIMIT).
// A token bucket per customer: `requests` tokens, refilled at `requests` per `perMs` of mock
// time, one taken per request; an empty bucket answers 429 RATE_LIMITED with Retry-After (whole
// seconds until a token is back, at least 1) and the Error body. Refused requests take no token.
//
// What counts against which bucket:
// - a request with a bearer token: its customer's bucket, checked right after authentication
//   and before anything else (an invalid request counts; an unauthenticated one is 401 and
//   does not); a refused request does not burn its idempotency key;
// - the token call, which has no customer yet: the bucket of the client id its body names
//   (its own bucket, apart from the customer's), checked before the credentials, so it also
//   slows the guessing of secrets; a body without a client id is not limited (it is a 400).
// The control API (/_mock) is never limited. Buckets live in memory, per process, or with a
// shared state (REDIS_URL) in Redis, one per customer for every replica: a bucket is written only
// over the value it was computed from (compare-and-set), so replicas never hand out a token twice.
import type { ServerResponse } from 'node:http';
import type { Clock } from '../clock';
import type { RateLimit } from '../config';
import { ServiceError } from '../errors/catalogue';

interface Bucket {
  /** Tokens left, in units of 1/perMs of a token (whole numbers: no rounding drift). */
  units: number;
  /** Mock time of the last refill. */
  at: number;
}

/** Who a request is counted as: the authenticated customer, or the token call's body. */
export type Caller = { customerId: string } | { body: unknown };

const MAX_CLIENT_ID_LENGTH = 200;
/** Shared buckets are kept at least this long (real time) after their last use. */
const SHARED_BUCKET_FLOOR_MS = 60 * 60 * 1000;
/** Full buckets are forgotten (a full bucket is the same as none) once there are this many. */
const SWEEP_ABOVE = 10_000;

/** Where shared buckets are kept (mock/store/redis/shared-state.ts): a value per name, written by compare-and-set. */
export interface SharedBuckets {
  getValue(name: string): Promise<string | null>;
  /** Compare-and-set; the value is forgotten `ttlMs` (real time) after its last write. */
  casValue(name: string, expected: string | null, next: string, ttlMs: number): Promise<boolean>;
}

type Outcome = { ok: true } | { ok: false; retryAfterSeconds: number };

export class RateLimiter {
  private readonly buckets = new Map<string, Bucket>();
  private readonly capacity: number;
  private sweepAbove = SWEEP_ABOVE;
  /**
   * A shared bucket untouched this long (real time) is forgotten, as a full one would be: the
   * token call's client ids are the caller's choice, so kept buckets must not grow without
   * bound. A bucket full by mock time after one period is the same as none; only a clock frozen
   * for longer than this refills an emptied bucket early.
   */
  private readonly forgetAfterMs: number;

  constructor(
    readonly limit: RateLimit,
    private readonly clock: Clock,
    private readonly shared?: SharedBuckets,
  ) {
    this.capacity = limit.requests * limit.perMs;
    this.forgetAfterMs = Math.max(limit.perMs, SHARED_BUCKET_FLOOR_MS);
  }

  /** How many buckets are held (full ones are forgotten once there are many). */
  get trackedKeys(): number {
    return this.buckets.size;
  }

  /** Takes a token for the key; when there is none, the whole seconds until one is back. */
  take(key: string, now = this.clock.now()): Outcome {
    const { bucket, outcome } = this.decide(this.buckets.get(key), now);
    this.buckets.set(key, bucket);
    // Only a new key (always given a token) can take the count past the sweep's threshold.
    this.sweep(now);
    return outcome;
  }

  /** `take` on a bucket every replica shares. */
  async takeShared(key: string, shared: SharedBuckets, now = this.clock.now()): Promise<Outcome> {
    const name = `bucket:${key}`;
    for (;;) {
      const stored = await shared.getValue(name);
      // Stryker disable next-line ConditionalExpression: JSON.parse(null) is null, no bucket to decide() as undefined is.
      const { bucket, outcome } = this.decide(stored === null ? undefined : (JSON.parse(stored) as Bucket), now);
      if (await shared.casValue(name, stored, JSON.stringify(bucket), this.forgetAfterMs)) return outcome;
    }
  }

  /** The rule: a refilled bucket gives a token if it has one whole; otherwise the wait for one. */
  private decide(stored: Bucket | undefined, now: number): { bucket: Bucket; outcome: Outcome } {
    const bucket = this.refilled(stored, now);
    if (bucket.units >= this.limit.perMs) return { bucket: { units: bucket.units - this.limit.perMs, at: now }, outcome: { ok: true } };
    const waitMs = Math.ceil((this.limit.perMs - bucket.units) / this.limit.requests);
    return { bucket, outcome: { ok: false, retryAfterSeconds: Math.max(1, Math.ceil(waitMs / 1000)) } };
  }

  /** The hook of the operation pipeline: takes the caller's token, or sets Retry-After and throws 429. */
  /** `now`: the caller's clock (a customer's own, when it has one); the mock's by default. */
  async enforce(caller: Caller, res: ServerResponse, now = this.clock.now()): Promise<void> {
    const key = bucketKey(caller);
    if (key === undefined) return;
    const outcome = this.shared ? await this.takeShared(key, this.shared, now) : this.take(key, now);
    if (outcome.ok) return;
    res.setHeader('Retry-After', String(outcome.retryAfterSeconds));
    throw new ServiceError('RATE_LIMITED', {
      limit: this.limit.requests,
      periodMs: this.limit.perMs,
      retryAfterSeconds: outcome.retryAfterSeconds,
    });
  }

  private refilled(bucket: Bucket | undefined, now: number): Bucket {
    if (!bucket) return { units: this.capacity, at: now };
    // The mock clock can be set back (freeze at an earlier instant, a restored snapshot): no refill then.
    const elapsed = Math.max(0, now - bucket.at);
    return { units: Math.min(this.capacity, bucket.units + elapsed * this.limit.requests), at: now };
  }

  private sweep(now: number): void {
    if (this.buckets.size <= this.sweepAbove) return;
    for (const [key, bucket] of this.buckets) if (this.refilled(bucket, now).units >= this.capacity) this.buckets.delete(key);
    this.sweepAbove = Math.max(SWEEP_ABOVE, this.buckets.size * 2);
  }
}

function bucketKey(caller: Caller): string | undefined {
  if ('customerId' in caller) return `customer:${caller.customerId}`;
  const clientId = (caller.body as { clientId?: unknown } | undefined)?.clientId;
  if (typeof clientId !== 'string' || clientId === '' || clientId.length > MAX_CLIENT_ID_LENGTH) return undefined;
  return `client:${clientId}`;
}
