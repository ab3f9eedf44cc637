// The page's only way to the mock: JSON calls to /_mock on the page's own origin. A refused call
// throws an ApiError carrying the control API's Error body (code, message, details), which the
// views show as it is.
import type { ErrorBody } from './types';

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: ErrorBody,
  ) {
    super(body.message);
    this.name = 'ApiError';
  }

  /** "409 INVALID_STATE_TRANSITION: The operation is COMPLETED." */
  describe(): string {
    const status = this.status > 0 ? `${this.status} ` : '';
    return `${status}${this.body.code}: ${this.body.message}`;
  }
}

function isErrorBody(value: unknown): value is ErrorBody {
  return typeof value === 'object' && value !== null && typeof (value as ErrorBody).code === 'string';
}

/** Calls the control API; resolves with the parsed answer (undefined for 204), or throws an ApiError. */
export async function call<T>(method: 'GET' | 'POST' | 'DELETE', path: string, body?: unknown): Promise<T> {
  let res: Response;
  try {
    res = await fetch(path, {
      method,
      headers: body === undefined ? { accept: 'application/json' } : { accept: 'application/json', 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch (error) {
    throw new ApiError(0, { code: 'NETWORK_ERROR', message: `The mock did not answer (${String(error)}).` });
  }
  const text = await res.text();
  let parsed: unknown = undefined;
  if (text !== '') {
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = text;
    }
  }
  if (!res.ok) {
    throw new ApiError(
      res.status,
      isErrorBody(parsed) ? parsed : { code: `HTTP_${res.status}`, message: typeof parsed === 'string' ? parsed : res.statusText },
    );
  }
  return parsed as T;
}

/** Any thrown value as one line for the user. */
export function describeError(error: unknown): string {
  if (error instanceof ApiError) return error.describe();
  return error instanceof Error ? error.message : String(error);
}

export const get = <T>(path: string) => call<T>('GET', path);
export const post = <T>(path: string, body?: unknown) => call<T>('POST', path, body);
export const del = <T>(path: string) => call<T>('DELETE', path);

/** A path segment, escaped. */
export const seg = (value: string) => encodeURIComponent(value);
