// A small JSON client of one mock (service and control API), shared by the scenario runner and
// the CLI: it parses answers, and turns "nobody listens there" into a clear MockTargetError.
import type { Agent, Dispatcher } from 'undici';
import { undici } from '../lazy/modules';
import { CONTROL_ROOT, isControlPath } from '../http/control-path';
import { MockTargetError, unreachable, type TargetRole } from './errors';

export interface HttpAnswer {
  status: number;
  /** Lower-case names. */
  headers: Record<string, string>;
  /** Parsed JSON when the answer is JSON; the text otherwise; undefined when empty. */
  body: unknown;
}

export interface SendOptions {
  body?: unknown;
  headers?: Record<string, string>;
}

const CONNECTION_ERRORS = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'UND_ERR_CONNECT_TIMEOUT']);

const MOCK: TargetRole = { kind: 'mock' };

export function normaliseBaseUrl(value: string, role: TargetRole = MOCK): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    const example = role.kind === 'mock' ? "the mock's base URL, e.g. http://127.0.0.1:4010" : 'a base URL, e.g. https://sandbox.example';
    throw new MockTargetError(`"${value}" is not a URL: give ${example}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new MockTargetError(`"${value}" is not an http(s) URL`);
  return url.toString().replace(/\/+$/, '');
}

export class MockClient {
  readonly baseUrl: string;
  private agent?: Agent;

  constructor(
    baseUrl: string,
    readonly role: TargetRole = MOCK,
  ) {
    this.baseUrl = normaliseBaseUrl(baseUrl, role);
  }

  async send(method: string, path: string, options: SendOptions = {}): Promise<HttpAnswer> {
    const headers: Record<string, string> = { accept: 'application/json', ...options.headers };
    let body: string | undefined;
    if (options.body !== undefined) {
      body = JSON.stringify(options.body);
      if (!Object.keys(headers).some((name) => name.toLowerCase() === 'content-type')) headers['content-type'] = 'application/json';
    }
    let response: Dispatcher.ResponseData;
    try {
      const { Agent, request } = undici();
      this.agent ??= new Agent({ keepAliveTimeout: 4_000 });
      response = await request(`${this.baseUrl}${path}`, { method: method as 'GET', headers, body, dispatcher: this.agent });
    } catch (error) {
      const code = (error as { code?: string }).code ?? (error as { cause?: { code?: string } }).cause?.code;
      if (code && CONNECTION_ERRORS.has(code)) throw unreachable(this.baseUrl, error, this.role);
      throw error;
    }
    const text = await response.body.text();
    const flat: Record<string, string> = {};
    for (const [name, value] of Object.entries(response.headers)) {
      if (value !== undefined) flat[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
    }
    return { status: response.statusCode, headers: flat, body: parseBody(text, flat['content-type']) };
  }

  /** A control API call; `path` is relative to /_mock (a leading /_mock is accepted). */
  control(method: string, path: string, body?: unknown): Promise<HttpAnswer> {
    return this.send(method, controlPath(path), { body });
  }

  /** Whether the control API is served (GET /_mock/health answers 200); throws when nothing listens. */
  async hasControlApi(): Promise<boolean> {
    const answer = await this.send('GET', '/_mock/health');
    return answer.status === 200;
  }

  async close(): Promise<void> {
    await this.agent?.close();
  }
}

export function controlPath(path: string): string {
  return isControlPath(path) ? path : `${CONTROL_ROOT}${path}`;
}

function parseBody(text: string, contentType: string | undefined): unknown {
  if (text === '') return undefined;
  if (contentType?.includes('json')) {
    try {
      return JSON.parse(text);
    } catch {
      return text;
    }
  }
  return text;
}

/** Fields of a refusal shown at most; the rest are counted. */
const FIELDS_SHOWN = 5;

/**
 * "CODE: message" of an Error body, and, for a refusal that names fields (VALIDATION_ERROR's
 * details.fields), each field and what is wrong with it on a line of its own.
 */
export function describeError(body: unknown): string | undefined {
  const error = body as { code?: unknown; message?: unknown; details?: { fields?: unknown } } | undefined;
  if (!error || typeof error !== 'object' || typeof error.code !== 'string') return undefined;
  const { message } = error;
  const text = typeof message === 'string' ? message : message === undefined || message === null ? '' : JSON.stringify(message);
  const fields = Array.isArray(error.details?.fields) ? (error.details.fields as Array<{ field?: unknown; message?: unknown }>) : [];
  const lines = fields.slice(0, FIELDS_SHOWN).map((f) => `\n  ${String(f.field)}: ${String(f.message)}`);
  if (fields.length > FIELDS_SHOWN) lines.push(`\n  (and ${fields.length - FIELDS_SHOWN} more)`);
  return `${error.code}: ${text}`.trim() + lines.join('');
}

/** "status CODE: message" of an Error body (with its fields, see describeError), for messages about an unexpected answer. */
export function describeAnswer(answer: HttpAnswer): string {
  const error = describeError(answer.body);
  return error === undefined ? String(answer.status) : `${answer.status} ${error}`;
}
