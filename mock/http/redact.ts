// Credentials never reach the journal (and so neither the inspector nor its "copy as curl"): a
// bearer token, a client secret, an access token or a signing secret is kept as a placeholder.
// A token keeps its last four characters, so two requests' tokens can still be told apart; a
// secret keeps nothing.

/** Body fields that hold a credential, wherever they stand in a request or an answer: true for a token. */
const SECRET_FIELDS = new Map([
  ['accessToken', true],
  ['clientSecret', false],
  ['signingSecret', false],
]);

/** `<redacted …wxyz>` for a token (its last four characters), `<redacted>` for a secret. */
export function placeholder(secret: string, token = true): string {
  return token && secret.length > 8 ? `<redacted …${secret.slice(-4)}>` : '<redacted>';
}

/** The headers with Authorization's credential as a placeholder (the scheme kept); the same object when there is none. */
export function redactHeaders<T extends Record<string, unknown>>(headers: T): T {
  const value = headers.authorization;
  if (typeof value !== 'string') return headers;
  const space = value.indexOf(' ');
  const shown = space === -1 ? placeholder(value) : `${value.slice(0, space)} ${placeholder(value.slice(space + 1).trim())}`;
  return { ...headers, authorization: shown };
}

/** A JSON value with every credential field a placeholder; the same value when it holds none. */
export function redactBody(value: unknown): unknown {
  if (Array.isArray(value)) {
    const items = value.map(redactBody);
    return items.some((item, i) => item !== value[i]) ? items : value;
  }
  if (value === null || typeof value !== 'object') return value;
  let copy: Record<string, unknown> | undefined;
  for (const [key, field] of Object.entries(value)) {
    const token = SECRET_FIELDS.get(key);
    const next = token !== undefined && typeof field === 'string' ? placeholder(field, token) : redactBody(field);
    if (next !== field) (copy ??= { ...(value as Record<string, unknown>) })[key] = next;
  }
  return copy ?? value;
}

/** An answer's JSON text with its credentials as placeholders (parsed only when it names one). */
export function redactJson(text: string): string {
  if (![...SECRET_FIELDS.keys()].some((field) => text.includes(`"${field}"`))) return text;
  try {
    return JSON.stringify(redactBody(JSON.parse(text)));
  } catch {
    return text;
  }
}
