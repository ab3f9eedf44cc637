// The few HTTP calls npm run test:container makes itself (the contract suite makes its own): JSON
// in and out, the status kept, nothing thrown for a status.
import { DEMO } from '../contract/lib';

export interface Answer {
  status: number;
  body: unknown;
}

export async function call(
  url: string,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<Answer> {
  const res = await fetch(`${url}${path}`, {
    method,
    headers: { ...(body === undefined ? {} : { 'Content-Type': 'application/json' }), ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(10_000),
  });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    // Not JSON: kept as text, for the message of a failed check.
  }
  return { status: res.status, body: parsed };
}

/** The demo customer's token call; rejects unless it answers 200 with a token (a "not yet" while polling). */
export async function demoToken(url: string): Promise<string> {
  const answer = await call(url, 'POST', '/api/oauth/client/token', DEMO);
  const token = (answer.body as { accessToken?: unknown } | undefined)?.accessToken;
  if (answer.status !== 200 || typeof token !== 'string') throw new Error(`token call answered ${answer.status}`);
  return token;
}

/** Throws a message naming the step unless `ok`. */
export function check(ok: boolean, what: string, answer?: Answer): void {
  if (!ok) throw new Error(`${what}${answer ? ` (answered ${answer.status}: ${JSON.stringify(answer.body)?.slice(0, 300)})` : ''}`);
}
