// The request journal: every request the mock answers (service and control API), the last
// JOURNAL_SIZE kept in a ring buffer, so recording costs O(1) whatever the traffic. With a shared
// state (REDIS_URL) every replica pushes its requests to one list in Redis instead, and the
// control API reads that: the journal of the whole service.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { NextFunction, Request, Response } from 'express';
import { localsOf } from './request-id';
import type { Clock } from '../clock';

export const JOURNAL_SIZE = 1000;

/** What an injected fault did to a request (left on the response's locals by applyFault). */
export interface FaultTrace {
  id: string;
  latencyMs?: number;
  error?: number;
  drop?: boolean;
}

/** Bodies kept in the journal are cut at this many characters (a page of records can be large). */
export const JOURNAL_BODY_LIMIT = 16 * 1024;

/** Headers as Node has them: strings, lists of strings, or numbers (content-length). */
type HeaderValues = Record<string, string | string[] | number | undefined>;

/** What was sent and answered, kept for GET /_mock/journal/{requestId}. */
export interface JournalExchange {
  request: { query: string; headers: HeaderValues; body?: unknown };
  /** `text`: the JSON answered, cut at JOURNAL_BODY_LIMIT (`truncated`). */
  response: { headers: HeaderValues; text?: string; truncated: boolean };
}

export interface JournalEntry extends Partial<JournalExchange> {
  requestId: string;
  method: string;
  path: string;
  /** 0 when the connection closed without an answer (a dropped request). */
  status: number;
  latencyMs: number;
  at: string;
  /** The customer of the bearer token (authenticated service calls). */
  customerId?: string;
  fault?: FaultTrace;
}

/** What the pipeline leaves on the response's locals for the journal. */
export interface JournalLocals {
  customerId?: string;
  requestBody?: unknown;
  responseJson?: string;
}

/** The entry without what was sent and answered (the list of GET /_mock/journal). */
export function summaryOf(entry: JournalEntry): JournalEntry {
  const { request: _request, response: _response, ...summary } = entry;
  return summary;
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

/** The entry whole, as GET /_mock/journal/{requestId} answers it: the answer's JSON parsed (a cut one stays text). */
export function detailOf(entry: JournalEntry) {
  const summary = summaryOf(entry);
  const request = entry.request ?? { query: '', headers: {} };
  const response = entry.response ?? { headers: {}, truncated: false };
  let body: unknown = response.text;
  if (response.text !== undefined && !response.truncated) {
    try {
      body = JSON.parse(response.text) as unknown;
    } catch {
      body = response.text;
    }
  }
  return {
    ...summary,
    request: { query: request.query, headers: headerMap(request.headers), ...(request.body === undefined ? {} : { body: request.body }) },
    response: { headers: headerMap(response.headers), ...(body === undefined ? {} : { body }), bodyTruncated: response.truncated },
  };
}

function exchangeOf(
  req: IncomingMessage,
  res: ServerResponse,
  url: string,
  locals: JournalLocals & Record<string, unknown>,
): JournalExchange {
  const queryAt = url.indexOf('?');
  const declared = Number(req.headers['content-length'] ?? 0);
  const request: JournalExchange['request'] = { query: queryAt === -1 ? '' : url.slice(queryAt + 1), headers: { ...req.headers } };
  if (locals.requestBody !== undefined)
    request.body = declared > JOURNAL_BODY_LIMIT ? `(a body of ${declared} bytes, not kept)` : locals.requestBody;
  const text = locals.responseJson;
  const truncated = text !== undefined && text.length > JOURNAL_BODY_LIMIT;
  return {
    request,
    response: {
      headers: res.getHeaders(),
      ...(text === undefined ? {} : { text: truncated ? text.slice(0, JOURNAL_BODY_LIMIT) : text }),
      truncated,
    },
  };
}

/** Where a shared journal is kept (mock/store/redis/shared-state.ts): entries as JSON, newest first. */
export interface SharedJournal {
  /** Queues an entry; it reaches the shared journal within a few milliseconds. */
  journalPush(json: string, size: number): void;
  /** Sends what this replica has queued. */
  journalFlush(): Promise<void>;
  journalLatest(limit: number): Promise<string[]>;
  journalClear(): Promise<void>;
}

export class Journal {
  private readonly ring: Array<JournalEntry | undefined>;
  private next = 0;
  private count = 0;

  /** Told of each entry as it is recorded (the inspector's push channel). */
  onRecord: ((entry: JournalEntry) => void) | undefined;

  constructor(
    readonly capacity: number = JOURNAL_SIZE,
    private readonly shared?: SharedJournal,
  ) {
    this.ring = new Array<JournalEntry | undefined>(capacity);
  }

  add(entry: JournalEntry): void {
    this.onRecord?.(entry);
    if (this.shared) {
      this.shared.journalPush(JSON.stringify(entry), this.capacity);
      return;
    }
    this.ring[this.next] = entry;
    this.next = (this.next + 1) % this.capacity;
    this.count = Math.min(this.count + 1, this.capacity);
  }

  /** Newest first, at most `limit`. */
  latest(limit: number = this.capacity): JournalEntry[] {
    const out: JournalEntry[] = [];
    for (let i = 1; i <= Math.min(limit, this.count); i++)
      out.push(this.ring[(this.next - i + this.capacity) % this.capacity] as JournalEntry);
    return out;
  }

  /** Sends this replica's queued entries to the shared journal (before it is read). */
  async flush(): Promise<void> {
    await this.shared?.journalFlush();
  }

  /** The journal the control API shows: this process's, or the whole service's when shared (each replica flushes first). */
  async entries(limit: number = this.capacity): Promise<JournalEntry[]> {
    if (!this.shared) return this.latest(limit);
    const json = await this.shared.journalLatest(Math.min(limit, this.capacity));
    return json.map((text) => JSON.parse(text) as JournalEntry);
  }

  /** One entry still kept, by its request id. */
  async find(requestId: string): Promise<JournalEntry | undefined> {
    return (await this.entries()).find((entry) => entry.requestId === requestId);
  }

  get size(): number {
    return this.count;
  }

  async reset(): Promise<void> {
    this.clear();
    await this.flush();
    if (this.shared) await this.shared.journalClear();
  }

  clear(): void {
    this.ring.fill(undefined);
    this.next = 0;
    this.count = 0;
  }

  /** Records the request once, when its answer is finished or its connection closes. */
  track(clock: Clock, req: IncomingMessage, res: ServerResponse, path: string, url: string = req.url ?? path): void {
    const started = process.hrtime.bigint();
    const at = clock.nowIso();
    let recorded = false;
    const record = () => {
      if (recorded) return;
      recorded = true;
      const locals = localsOf(res);
      const finished = res.writableFinished;
      const entry: JournalEntry = {
        requestId: String(locals.requestId),
        method: req.method ?? '',
        path,
        status: finished ? res.statusCode : 0,
        latencyMs: Math.round(Number(process.hrtime.bigint() - started) / 1e3) / 1e3,
        at,
        ...exchangeOf(req, res, url, locals),
      };
      if (locals.customerId) entry.customerId = locals.customerId as string;
      if (locals.fault) entry.fault = locals.fault as FaultTrace;
      this.add(entry);
    };
    res.on('finish', record);
    res.on('close', record);
  }

  /** `track` for the requests Express answers (control API, docs, unknown paths). */
  middleware(clock: Clock) {
    return (req: Request, res: Response, next: NextFunction): void => {
      this.track(clock, req, res, req.originalUrl.split('?')[0] ?? req.originalUrl, req.originalUrl);
      next();
    };
  }
}
