// The one HTTP client of the suite. Every request to the API goes through `call`, which finds
// the document's operation by method and path template and checks EVERY response against it:
// the status is one the operation documents, X-Request-Id is a uuid, a body is JSON and matches
// the status's schema, a 204 has none. Drift (an unknown field or value of an open set) fails
// against a mock and is collected into the report otherwise. Each (operationId, status) is
// recorded for the coverage table. A test cannot forget the check: there is no other way in.
import { randomUUID } from 'node:crypto';
import { expect } from '@jest/globals';
import { Agent, request } from 'undici';
import type { Contract, OperationContract } from '../../spec/contract';
import type { RunRecord } from './run';
import type { Credentials } from './settings';
import type { Schemas } from './types';

export const KNOWN_BUG_MARK = ' [known mock bug: ';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export class ContractViolation extends Error {
  override name = 'ContractViolation';
}

export interface CallOptions {
  query?: Record<string, string | number | boolean | undefined>;
  /** A JSON body (serialised here, sent as application/json). */
  body?: unknown;
  /** A body sent exactly as given, for malformed, oversized or non-JSON input. */
  raw?: { body: string | Buffer; contentType?: string };
  headers?: Record<string, string>;
  /** `'none'` sends no Authorization header; any other string is sent as the header's value. Default: the customer's bearer token. */
  auth?: string;
  /** Default: a fresh uuid when the operation takes one; null sends none. */
  idempotencyKey?: string | null;
}

/**
 * The body's type when a caller names none: the JSON as parsed, checked against the document by
 * `call` but typed by nobody. Test files read it field by field (eslint.config.mjs turns the
 * no-unsafe-* rules off there, and only there); support code names its T.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the one door to untyped bodies, for test files by design
export type UntypedBody = any;

export interface ApiResponse<T = UntypedBody> {
  operationId: string;
  status: number;
  headers: Record<string, string>;
  body: T;
  text: string;
  requestId: string;
  replayed: boolean;
}

export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  text: string;
  /** The parsed JSON when the content type says JSON and it parses; undefined otherwise. */
  body: unknown;
}

// The suite's own connection pool (not undici's global one, which other code in the process
// shares): the session closes it at the end of each test file, so no connection to the target,
// and no request still waiting on it (a test that timed out), outlives the file.
let pool: Agent | undefined;

/** Destroys the suite's connections, aborting requests still in flight; the next `send` opens a new pool. */
export async function closeConnections(): Promise<void> {
  const closing = pool;
  pool = undefined;
  await closing?.destroy();
}

/** A plain HTTP exchange; `ApiClient.call` (checked) and the control API client build on it. */
export async function send(url: string, method: string, headers: Record<string, string>, body?: string | Buffer): Promise<RawResponse> {
  const res = await request(url, { method: method as 'GET', headers, body, dispatcher: (pool ??= new Agent()) });
  const text = await res.body.text();
  const flat: Record<string, string> = {};
  for (const [name, value] of Object.entries(res.headers))
    if (value !== undefined) flat[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  let parsed: unknown;
  if (text !== '' && /^application\/([a-z.+-]*\+)?json\b/i.test(flat['content-type'] ?? '')) {
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = undefined;
    }
  }
  return { status: res.statusCode, headers: flat, text, body: parsed };
}

interface Route {
  op: OperationContract;
  pattern: RegExp;
  templated: boolean;
}

const routeTables = new WeakMap<Contract, Route[]>();
function routes(contract: Contract): Route[] {
  let table = routeTables.get(contract);
  if (!table) {
    table = contract.operations
      .map((op) => ({
        op,
        templated: op.path.includes('{'),
        pattern: new RegExp(`^${op.path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+')}$`),
      }))
      // A concrete path wins over a template (/v1/operations/deposits is not /v1/operations/{operationId}).
      .sort((a, b) => Number(a.templated) - Number(b.templated));
    routeTables.set(contract, table);
  }
  return table;
}

/** The document's operation for a method and a concrete path (query string ignored). */
export function findOperation(contract: Contract, method: string, path: string): OperationContract | undefined {
  const bare = path.split('?')[0]!;
  return routes(contract).find((r) => r.op.method === method.toLowerCase() && r.pattern.test(bare))?.op;
}

export interface ClientContext {
  baseUrl: string;
  contract: Contract;
  /** The test file, for the records. */
  file: string;
  /** Drift fails the call (the target is a mock) instead of being recorded. */
  driftFails: boolean;
  /** Where calls, drift and violations are recorded (run.ts `record` for the reporter). */
  record: (entry: RunRecord) => void;
}

export class ApiClient {
  private tokenPromise?: Promise<string>;

  constructor(
    readonly ctx: ClientContext,
    readonly credentials?: Credentials,
  ) {}

  /** The customer's access token, fetched once and reused (seed: reuse until near expiry). */
  token(): Promise<string> {
    if (!this.credentials) return Promise.reject(new Error('contract suite: this client has no credentials'));
    this.tokenPromise ??= this.call<Schemas['TokenResponse']>('POST', '/api/oauth/client/token', {
      body: this.credentials,
      auth: 'none',
    }).then((res) => {
      if (res.status !== 200) throw new Error(`contract suite: the token call answered ${res.status} ${res.text}`);
      return res.body.accessToken;
    });
    return this.tokenPromise;
  }

  /** Forgets the cached token (after the clock moved past its expiry). */
  renewToken(): void {
    this.tokenPromise = undefined;
  }

  get<T = UntypedBody>(path: string, options?: CallOptions) {
    return this.call<T>('GET', path, options);
  }
  post<T = UntypedBody>(path: string, body?: unknown, options?: CallOptions) {
    return this.call<T>('POST', path, { ...options, body });
  }
  patch<T = UntypedBody>(path: string, body?: unknown, options?: CallOptions) {
    return this.call<T>('PATCH', path, { ...options, body });
  }
  delete<T = UntypedBody>(path: string, options?: CallOptions) {
    return this.call<T>('DELETE', path, options);
  }

  async call<T = UntypedBody>(method: string, path: string, options: CallOptions = {}): Promise<ApiResponse<T>> {
    const op = findOperation(this.ctx.contract, method, path);
    if (!op) throw new Error(`contract suite: ${method} ${path} is not an operation of the document`);

    const headers: Record<string, string> = { accept: 'application/json', ...lowerKeys(options.headers) };
    if (options.auth === undefined) {
      if (op.security) headers.authorization = `Bearer ${await this.token()}`;
    } else if (options.auth !== 'none') {
      headers.authorization = options.auth;
    }
    if (op.idempotent && options.idempotencyKey !== null && headers['x-idempotency-key'] === undefined) {
      headers['x-idempotency-key'] = options.idempotencyKey ?? randomUUID();
    }
    let payload: string | Buffer | undefined;
    if (options.raw) {
      payload = options.raw.body;
      if (options.raw.contentType) headers['content-type'] = options.raw.contentType;
    } else if (options.body !== undefined) {
      payload = JSON.stringify(options.body);
      headers['content-type'] = 'application/json';
    }

    const query = new URLSearchParams();
    for (const [name, value] of Object.entries(options.query ?? {})) if (value !== undefined) query.set(name, String(value));
    const search = query.toString();
    const url = `${this.ctx.baseUrl}${path}${search ? `${path.includes('?') ? '&' : '?'}${search}` : ''}`;

    const res = await send(url, method, headers, payload);
    this.check(op, method, path, res);
    return {
      operationId: op.operationId,
      status: res.status,
      headers: res.headers,
      body: res.body as T,
      text: res.text,
      requestId: res.headers['x-request-id'] ?? '',
      replayed: res.headers['x-idempotent-replayed'] === 'true',
    };
  }

  private check(op: OperationContract, method: string, path: string, res: RawResponse): void {
    const { file, driftFails, record } = this.ctx;
    record({ kind: 'call', file, operationId: op.operationId, status: res.status });
    const problems: string[] = [];
    if (!op.responses.has(String(res.status)))
      problems.push(`status ${res.status} is not documented for ${op.operationId} (documented: ${[...op.responses.keys()].join(', ')})`);
    const requestId = res.headers['x-request-id'];
    if (!requestId || !UUID.test(requestId)) problems.push(`X-Request-Id must be a uuid, got ${JSON.stringify(requestId)}`);
    if (res.text !== '' && res.body === undefined)
      problems.push(`a body must be JSON (content-type ${JSON.stringify(res.headers['content-type'])})`);
    if (res.status === 204 && res.text !== '') problems.push('a 204 must have no body');
    const proxied = proxyViolations(res.headers['sl-violations']);
    if (proxied.length) problems.push(...proxied.map((v) => `the validating proxy in front of the target (Prism) reports: ${v}`));
    const replayed = res.headers['x-idempotent-replayed'];
    if (replayed !== undefined && replayed !== 'true')
      problems.push(`X-Idempotent-Replayed must be "true" when present, got ${JSON.stringify(replayed)}`);
    if (op.responses.has(String(res.status))) {
      const { errors, drift } = op.checkResponse(res.status, res.headers, res.text === '' ? undefined : res.body);
      problems.push(...errors.map((e) => `${e.field} ${e.message}`));
      if (driftFails) problems.push(...drift.map((e) => `drift: ${e.field} ${e.message}`));
      else
        for (const e of drift)
          record({ kind: 'drift', file, operationId: op.operationId, status: res.status, field: e.field, message: e.message });
    }
    if (problems.length > 0) {
      // A violation a test expects (a known mock bug, see itKnownMockBug) is reported apart.
      const knownBug = (expect.getState().currentTestName ?? '').includes(KNOWN_BUG_MARK);
      record({ kind: 'violation', file, operationId: op.operationId, status: res.status, problems, knownBug });
      throw new ContractViolation(
        `${op.operationId}: ${method} ${path} answered ${res.status}, which breaks the document:\n` +
          `  - ${problems.join('\n  - ')}\n  body: ${res.text.slice(0, 600)}`,
      );
    }
  }
}

/**
 * What Prism (proxy or mock) put in its `sl-violations` header about the RESPONSE (a warning it
 * does not turn into an error response even with --errors). Violations of the request are the
 * test's own business: the suite sends invalid requests on purpose.
 */
function proxyViolations(header: string | undefined): string[] {
  if (!header) return [];
  try {
    const list = JSON.parse(header.replace(/^Too many violations! /, '')) as Array<{
      location?: string[];
      severity?: string;
      message?: string;
    }>;
    return list
      .filter((v) => v.location?.[0] === 'response')
      .map((v) => `${v.severity ?? ''} ${v.location!.join('.')}: ${v.message ?? ''}`.trim());
  } catch {
    return header.startsWith('Too many violations!') ? [header.slice(0, 300)] : [];
  }
}

function lowerKeys(headers: Record<string, string> | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers ?? {})) out[name.toLowerCase()] = value;
  return out;
}
