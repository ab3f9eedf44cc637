// Reading and forging JWTs by hand (node:crypto), independently of the library the target uses.
import { createHmac } from 'node:crypto';

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

export interface DecodedJwt {
  header: Record<string, unknown>;
  payload: Record<string, unknown>;
  signature: string;
}

export function decodeJwt(token: string): DecodedJwt {
  const parts = token.split('.');
  if (parts.length !== 3) throw new Error(`not a JWT: ${parts.length} parts`);
  const [header, payload, signature] = parts as [string, string, string];
  return {
    header: JSON.parse(Buffer.from(header, 'base64url').toString('utf8')) as Record<string, unknown>,
    payload: JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Record<string, unknown>,
    signature,
  };
}

/** The same header and claims with `changes` applied, keeping the original signature. */
export function tampered(token: string, changes: Record<string, unknown>): string {
  const { header, payload, signature } = decodeJwt(token);
  return `${b64(header)}.${b64({ ...payload, ...changes })}.${signature}`;
}

/** The same claims, unsigned, with `alg: none`. */
export function unsigned(token: string): string {
  const { header, payload } = decodeJwt(token);
  return `${b64({ ...header, alg: 'none' })}.${b64(payload)}.`;
}

/** The same header and claims signed with HS256 and a key the target does not know. */
export function resigned(token: string, key = 'not-the-target-secret'): string {
  const { header, payload } = decodeJwt(token);
  const head = `${b64({ ...header, alg: 'HS256' })}.${b64(payload)}`;
  return `${head}.${createHmac('sha256', key).update(head).digest('base64url')}`;
}
