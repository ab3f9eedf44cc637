// What `fos-mock record` and `fixtures pull` never write: credentials and tokens. Fields named like
// a secret (clientSecret, signingSecret, accessToken, password...) are replaced by a marker, and
// every value ever seen in such a field or in an Authorization header is then scrubbed from the
// written text wherever else it appears (a token echoed in a body, a secret in a query string).
import type { Exchange } from './record-proxy';

export const REDACTED = '[redacted]';

const SECRET_KEY = /secret|password|^(access|refresh|id)_?token$|^token$|^authorization$|^api[-_]?key$/i;
const SECRET_HEADER = /^(authorization|proxy-authorization|cookie|set-cookie|x-api-key)$/i;

export function isSecretKey(key: string): boolean {
  return SECRET_KEY.test(key);
}

/** A copy of a JSON value with every secret-named field's value replaced by the marker. */
export function redactJson(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(redactJson);
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, isSecretKey(key) ? REDACTED : redactJson(item)]));
  return value;
}

export function redactHeaders(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).map(([name, value]) => [name, SECRET_HEADER.test(name) ? REDACTED : value]));
}

/** A body's JSON value; undefined when it is empty, not JSON, or kept as base64 (bytes that are not UTF-8). */
export function parseJson(text: string, encoding?: 'base64'): unknown {
  if (text === '' || encoding) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function collect(value: unknown, into: Set<string>): void {
  if (Array.isArray(value)) value.forEach((item) => collect(item, into));
  else if (value !== null && typeof value === 'object')
    for (const [key, item] of Object.entries(value)) {
      if (isSecretKey(key) && typeof item === 'string' && item.length >= 4) into.add(item);
      else collect(item, into);
    }
}

/** Every secret value the exchanges hold: header credentials (and a bearer's token alone) and secret-named fields. */
export function secretValues(exchanges: Exchange[]): Set<string> {
  const found = new Set<string>();
  for (const e of exchanges) {
    for (const headers of [e.requestHeaders, e.responseHeaders])
      for (const [name, value] of Object.entries(headers))
        if (SECRET_HEADER.test(name)) {
          found.add(value);
          const bearer = /^\S+\s+(\S{4,})$/.exec(value);
          if (bearer?.[1]) found.add(bearer[1]);
        }
    collect(parseJson(e.requestBody, e.requestEncoding), found);
    collect(parseJson(e.responseBody, e.responseEncoding), found);
  }
  return found;
}

/**
 * Scrubs an exchange's base64 bodies (bytes that are not UTF-8) as bytes: the scrub of the written
 * text cannot see a token inside base64. Each secret is searched as its UTF-8 bytes.
 */
export function encodedBodyScrubber(secrets: Set<string>): (e: Exchange) => Exchange {
  const asBytes = new Set([...secrets].map((secret) => Buffer.from(secret, 'utf8').toString('latin1')));
  const scrubbed = (base64: string) =>
    Buffer.from(scrub(Buffer.from(base64, 'base64').toString('latin1'), asBytes), 'latin1').toString('base64');
  return (e) => ({
    ...e,
    ...(e.requestEncoding && { requestBody: scrubbed(e.requestBody) }),
    ...(e.responseEncoding && { responseBody: scrubbed(e.responseBody) }),
  });
}

/** The text with every occurrence of a secret value replaced by the marker (longest first). */
export function scrub(text: string, secrets: Set<string>): string {
  let out = text;
  for (const secret of [...secrets].sort((a, b) => b.length - a.length)) out = out.split(secret).join(REDACTED);
  return out;
}
