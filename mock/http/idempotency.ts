// Idempotency (the XIdempotencyKey parameter of the OpenAPI document): scope (customer, key); a replay of the same method, path and body
// answers the first status and body with X-Idempotent-Replayed: true; the same key with another
// request is 422 IDEMPOTENCY_KEY_REUSED; while the first is running, 409 in progress. Keys live
// 24 h of mock time. Requests rejected as invalid (400) or failed by the mock (5xx) do not
// burn the key, so the caller can correct and retry with it.
import { hash } from 'node:crypto';
import { errorBody, ServiceError } from '../errors/catalogue';
import type { Clock } from '../clock';
import type { Store } from '../store';
import type { HandlerResult } from '../resources/types';

/** SHA-256 (base64url) of method, path and query, and canonical body, joined by NUL; one call (Node ≥ 20.12), no Hash object. */
export function fingerprint(method: string, url: string, body: unknown): string {
  return hash('sha256', `${method}\u0000${url}\u0000${canonicalJson(body)}`, 'base64url');
}

/** JSON with object keys sorted, so `{a,b}` and `{b,a}` are the same request. */
function canonicalJson(value: unknown): string {
  // Loops and `+=` rather than map and join: this runs on every idempotent request.
  if (Array.isArray(value)) {
    let out = '[';
    for (let i = 0; i < value.length; i++) out += (i === 0 ? '' : ',') + canonicalJson(value[i]);
    return out + ']';
  }
  if (value && typeof value === 'object') {
    const keys = Object.keys(value).sort();
    let out = '{';
    for (let i = 0; i < keys.length; i++) {
      const key = keys[i] as string;
      out += (i === 0 ? '' : ',') + JSON.stringify(key) + ':' + canonicalJson((value as Record<string, unknown>)[key]);
    }
    return out + '}';
  }
  return JSON.stringify(value ?? null);
}

export interface IdempotentOutcome {
  result: HandlerResult;
  replayed: boolean;
}

export async function runIdempotent(
  store: Store,
  clock: Clock,
  ttlMs: number,
  scopeKey: string,
  print: string,
  run: () => Promise<HandlerResult>,
  ownClock = false,
): Promise<IdempotentOutcome> {
  const claim = await store.claimIdempotencyKey(scopeKey, print, clock.now(), ttlMs, ownClock);
  if (claim.outcome !== 'CLAIMED') {
    if (claim.entry.fingerprint !== print) throw new ServiceError('IDEMPOTENCY_KEY_REUSED');
    if (claim.outcome === 'IN_PROGRESS') throw new ServiceError('IDEMPOTENCY_REQUEST_IN_PROGRESS');
    return { result: claim.entry.response as HandlerResult, replayed: true };
  }
  let result: HandlerResult;
  try {
    result = await run();
  } catch (error) {
    if (error instanceof ServiceError && error.status !== 400 && error.status < 500) {
      // A decided outcome (404, 409, 422) is part of the request's history: replay it.
      await store.completeIdempotencyKey(scopeKey, { status: error.status, body: errorBody(error) });
    } else {
      await store.releaseIdempotencyKey(scopeKey);
    }
    throw error;
  }
  await store.completeIdempotencyKey(scopeKey, { status: result.status, body: result.body });
  return { result, replayed: false };
}
