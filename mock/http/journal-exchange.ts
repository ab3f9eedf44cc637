// What the journal keeps of a request beyond its summary: the query, headers and JSON body sent,
// and the headers and JSON body answered (GET /_mock/journal/{requestId}, the inspector's request
// view), for every request. Each replica keeps the exchanges of the requests it answered; only
// summaries are shared (a page of records written to Redis with every request would cost more
// than the request). Credentials are masked when an exchange is read (withoutSecrets).
//
// What is kept costs the request path next to nothing: references to what the pipeline made
// anyway, no copy. The answer is kept as the value its JSON was made from, and turned into JSON
// only when read: a page's items are the store's own records, so keeping a page keeps little, where
// keeping its JSON text (or cutting a copy of it) would cost a busy mock a good part of its
// throughput. An answer whose JSON is over the limit, unless it is such a page, is kept as its JSON
// cut at the limit instead, so no exchange holds much of its own.
import type { IncomingMessage, ServerResponse } from 'node:http';

/** Bodies shown by the journal are cut at this many characters (a page of records can be large). */
export const JOURNAL_BODY_LIMIT = 16 * 1024;

/** Headers as Node has them: strings, lists of strings, or numbers (content-length). */
type HeaderValues = Record<string, string | string[] | number | undefined>;

/** What was sent and answered. */
export interface JournalExchange {
  /** `body` absent and `bodyTruncated` true: the body was over JOURNAL_BODY_LIMIT bytes as read, and not kept. */
  request: { query: string; headers: HeaderValues; body?: unknown; bodyTruncated: boolean };
  /**
   * The answer: `body`, the value its JSON was made from; or `text`, its JSON cut at
   * JOURNAL_BODY_LIMIT (`truncated`) when it was larger and not a page of stored records.
   */
  response: { headers: HeaderValues; body?: unknown; text?: string; truncated: boolean };
}

/** What the pipeline leaves on the response's locals for the journal (writeJson, runOperation, the body readers). */
export interface JournalLocals {
  customerId?: string;
  requestBody?: unknown;
  /** The body's size as read (body-parser's verify step). */
  requestBytes?: number;
  /** The JSON answered (text, or its UTF-8 bytes), and the value it was made from. */
  responseJson?: string | Buffer;
  responseBody?: unknown;
}

/**
 * The first JOURNAL_BODY_LIMIT characters as a string of their own: V8 may keep a plain slice as
 * a view of the whole string, and the journal would then hold every large answer whole. Bytes are
 * decoded only as far as those characters can reach (three bytes a UTF-16 unit at most).
 */
function cutCopy(json: string | Buffer): string {
  const head =
    typeof json === 'string'
      ? json.slice(0, JOURNAL_BODY_LIMIT)
      : json
          .subarray(0, 3 * JOURNAL_BODY_LIMIT)
          .toString('utf8')
          .slice(0, JOURNAL_BODY_LIMIT);
  // Stryker disable next-line StringLiteral: Buffer#toString reads no encoding as utf8
  return Buffer.from(head, 'utf8').toString('utf8');
}

/** A page whose items are the store's own records (frozen): keeping it keeps their references only. */
function isStoredPage(body: unknown): boolean {
  const data = (body as { data?: unknown } | null | undefined)?.data;
  return Array.isArray(data) && data.every((item) => Object.isFrozen(item));
}

export function exchangeOf(req: IncomingMessage, res: ServerResponse, url: string, locals: JournalLocals): JournalExchange {
  const queryAt = url.indexOf('?');
  const tooLarge = (locals.requestBytes ?? 0) > JOURNAL_BODY_LIMIT;
  const request: JournalExchange['request'] = {
    query: queryAt === -1 ? '' : url.slice(queryAt + 1),
    headers: req.headers,
    bodyTruncated: tooLarge,
  };
  if (locals.requestBody !== undefined && !tooLarge) request.body = locals.requestBody;
  const response: JournalExchange['response'] = { headers: res.getHeaders(), truncated: false };
  const json = locals.responseJson;
  if (json !== undefined) {
    if (json.length <= JOURNAL_BODY_LIMIT || isStoredPage(locals.responseBody)) response.body = locals.responseBody;
    else {
      const text = cutCopy(json);
      // Bytes over the limit may still be characters within it (accents take two bytes): then whole.
      if (typeof json !== 'string' && Buffer.byteLength(text) === json.length) response.body = locals.responseBody;
      else Object.assign(response, { text, truncated: true });
    }
  }
  return { request, response };
}

/** What stands in for a secret the journal shows. */
export const MASK = '***';
/** Request headers that carry credentials. */
const SECRET_HEADERS = new Set(['authorization', 'proxy-authorization']);
/** Body fields that carry credentials, at any depth: the token call's secret and token, a signing secret. */
const SECRET_FIELDS = new Set(['clientSecret', 'accessToken', 'signingSecret']);
/** Of those, the tokens: shown with their last four characters, so two requests' tokens can be told apart. */
const TOKEN_FIELDS = new Set(['accessToken']);

/** `***` for a secret; `***wxyz` for a token (its last four characters). */
function masked(value: string, token: boolean): string {
  return token && value.length > 8 ? `${MASK}${value.slice(-4)}` : MASK;
}
/** A secret field's string value in JSON text, whole or cut off by the 16 KiB limit. */
const SECRET_IN_TEXT = /"(clientSecret|accessToken|signingSecret)"(\s*:\s*)"(?:[^"\\]|\\.)*(?:"|$)/g;

/** `Bearer ***wxyz`: the scheme stays, so a reader sees which kind of credentials were sent, and the token's last four characters. */
function maskedCredentials(value: string): string {
  const space = value.indexOf(' ');
  return space === -1 ? MASK : `${value.slice(0, space)} ${masked(value.slice(space + 1).trim(), true)}`;
}

function maskedHeaders(headers: HeaderValues): HeaderValues {
  const out: HeaderValues = {};
  for (const [name, value] of Object.entries(headers)) {
    if (!SECRET_HEADERS.has(name.toLowerCase()) || value === undefined) out[name] = value;
    else out[name] = Array.isArray(value) ? value.map(maskedCredentials) : maskedCredentials(String(value));
  }
  return out;
}

function maskedBody(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(maskedBody);
  if (typeof value !== 'object' || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value))
    out[key] = SECRET_FIELDS.has(key) && typeof item === 'string' ? masked(item, TOKEN_FIELDS.has(key)) : maskedBody(item);
  return out;
}

/**
 * The exchange as it may leave the journal: credentials in headers, and secret fields of the
 * bodies sent and answered, masked. Masked when read, not when kept, so the request path pays
 * nothing for it; what is kept never leaves the journal otherwise.
 */
export function withoutSecrets(exchange: JournalExchange): JournalExchange {
  const { request, response } = exchange;
  return {
    request: {
      ...request,
      headers: maskedHeaders(request.headers),
      ...(request.body === undefined ? {} : { body: maskedBody(request.body) }),
    },
    response: {
      ...response,
      ...(response.body === undefined ? {} : { body: maskedBody(response.body) }),
      ...(response.text === undefined ? {} : { text: response.text.replace(SECRET_IN_TEXT, `"$1"$2"${MASK}"`) }),
    },
  };
}

/** Header values as the document shows them: strings, or lists of strings. */
function headerMap(headers: HeaderValues): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    out[name.toLowerCase()] = Array.isArray(value) ? value : String(value);
  }
  return out;
}

/** The answer as the journal shows it: the JSON parsed, or its text when cut or not JSON; whether it was cut. */
function shownAnswer(response: JournalExchange['response']): { body?: unknown; truncated: boolean } {
  if (response.body !== undefined) {
    const json = JSON.stringify(response.body);
    if (json.length > JOURNAL_BODY_LIMIT) return { body: json.slice(0, JOURNAL_BODY_LIMIT), truncated: true };
    return { body: JSON.parse(json) as unknown, truncated: false };
  }
  if (response.text === undefined || response.truncated) return { body: response.text, truncated: response.truncated };
  try {
    return { body: JSON.parse(response.text) as unknown, truncated: false };
  } catch {
    // Not JSON: shown as the text it is.
    return { body: response.text, truncated: false };
  }
}

/** The exchange as GET /_mock/journal/{requestId} answers it: the answer's JSON parsed (a cut one stays text). */
export function exchangeView(exchange: JournalExchange) {
  const { request, response } = exchange;
  const { body, truncated } = shownAnswer(response);
  return {
    request: {
      query: request.query,
      headers: headerMap(request.headers),
      ...(request.body === undefined ? {} : { body: request.body }),
      bodyTruncated: request.bodyTruncated,
    },
    response: { headers: headerMap(response.headers), ...(body === undefined ? {} : { body }), bodyTruncated: truncated },
  };
}
