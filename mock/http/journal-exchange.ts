// What the journal keeps of a request beyond its summary: the query, headers and JSON body sent,
// and the headers and JSON body answered (GET /_mock/journal/{requestId}, the inspector's request
// view). Bodies are kept by reference, not copied: the pipeline made them anyway. Each replica
// keeps the exchanges of the requests it answered; only summaries are shared (a page of records
// written to Redis with every request would cost more than the request).
import type { IncomingMessage, ServerResponse } from 'node:http';
import { redactBody, redactHeaders, redactJson } from './redact';

/** Bodies kept in the journal are cut at this many characters (a page of records can be large). */
export const JOURNAL_BODY_LIMIT = 16 * 1024;

/** Headers as Node has them: strings, lists of strings, or numbers (content-length). */
type HeaderValues = Record<string, string | string[] | number | undefined>;

/** What was sent and answered. */
export interface JournalExchange {
  /** `body` absent and `bodyTruncated` true: the body was over JOURNAL_BODY_LIMIT bytes as read, and not kept. */
  request: { query: string; headers: HeaderValues; body?: unknown; bodyTruncated: boolean };
  /** `text`: the JSON answered, cut at JOURNAL_BODY_LIMIT (`truncated`). */
  response: { headers: HeaderValues; text?: string; truncated: boolean };
}

/** What the pipeline leaves on the response's locals for the journal. */
export interface JournalLocals {
  customerId?: string;
  requestBody?: unknown;
  /** The body's size as read (body-parser's verify step). */
  requestBytes?: number;
  responseJson?: string;
}

/**
 * The first JOURNAL_BODY_LIMIT characters as a string of their own: V8 may keep a plain slice as
 * a view of the whole string, and the journal would then hold every large answer whole.
 */
function cutCopy(text: string): string {
  // Stryker disable next-line StringLiteral: Buffer#toString reads no encoding as utf8
  return Buffer.from(text.slice(0, JOURNAL_BODY_LIMIT), 'utf8').toString('utf8');
}

export function exchangeOf(req: IncomingMessage, res: ServerResponse, url: string, locals: JournalLocals): JournalExchange {
  const queryAt = url.indexOf('?');
  const tooLarge = (locals.requestBytes ?? 0) > JOURNAL_BODY_LIMIT;
  const request: JournalExchange['request'] = {
    query: queryAt === -1 ? '' : url.slice(queryAt + 1),
    // Credentials are kept as placeholders (redact.ts), here and so everywhere the journal is shown.
    headers: redactHeaders(req.headers),
    bodyTruncated: tooLarge,
  };
  if (locals.requestBody !== undefined && !tooLarge) request.body = redactBody(locals.requestBody);
  const text = locals.responseJson === undefined ? undefined : redactJson(locals.responseJson);
  const truncated = text !== undefined && text.length > JOURNAL_BODY_LIMIT;
  return {
    request,
    response: {
      headers: res.getHeaders(),
      ...(text === undefined ? {} : { text: truncated ? cutCopy(text) : text }),
      truncated,
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

/** The exchange as GET /_mock/journal/{requestId} answers it: the answer's JSON parsed (a cut one stays text). */
export function exchangeView(exchange: JournalExchange) {
  const { request, response } = exchange;
  let body: unknown = response.text;
  if (response.text !== undefined && !response.truncated) {
    try {
      body = JSON.parse(response.text) as unknown;
    } catch {
      // Not JSON: shown as the text it is.
    }
  }
  return {
    request: {
      query: request.query,
      headers: headerMap(request.headers),
      ...(request.body === undefined ? {} : { body: request.body }),
      bodyTruncated: request.bodyTruncated,
    },
    response: { headers: headerMap(response.headers), ...(body === undefined ? {} : { body }), bodyTruncated: response.truncated },
  };
}
