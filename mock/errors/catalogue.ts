// The one catalogue of error codes: each code's HTTP status and default message, defined once.
// The seed fixes 401 and 404 RESOURCE_NOT_FOUND; the other codes and statuses are ours, each marked
// x-assumption where the OpenAPI document answers it.
export const ERROR_CATALOGUE = {
  VALIDATION_ERROR: { status: 400, message: 'The request does not match the API document.' },
  IDEMPOTENCY_KEY_REQUIRED: { status: 400, message: 'The X-Idempotency-Key header is required on POST, PUT and PATCH.' },
  INVALID_CURSOR: { status: 400, message: 'The cursor was not issued by this service for this list, or was altered.' },
  INVALID_FILTER: { status: 400, message: 'The filters expression could not be parsed.' },
  UNSUPPORTED_VERSION: { status: 400, message: 'The X-Service-Version requested is not served.' },
  UNAUTHORIZED: { status: 401, message: 'A valid bearer token is required.' },
  INVALID_CLIENT: { status: 401, message: 'Unknown client or wrong client secret.' },
  RESOURCE_NOT_FOUND: { status: 404, message: 'The resource does not exist.' },
  ROUTE_NOT_FOUND: { status: 404, message: 'No such endpoint.' },
  METHOD_NOT_ALLOWED: { status: 405, message: 'The endpoint does not support this method.' },
  IDEMPOTENCY_REQUEST_IN_PROGRESS: { status: 409, message: 'A request with this idempotency key is still being processed.' },
  QUOTE_ALREADY_CONSUMED: { status: 409, message: 'The quote has already been used by another operation.' },
  ACCOUNT_NOT_EDITABLE: { status: 409, message: 'The account has been submitted for review and can no longer be updated.' },
  INVALID_STATE_TRANSITION: { status: 409, message: 'The resource is not in a state that allows this change.' },
  PAYLOAD_TOO_LARGE: { status: 413, message: 'The request body is larger than the limit.' },
  UNSUPPORTED_MEDIA_TYPE: { status: 415, message: 'The request body must be application/json.' },
  IDEMPOTENCY_KEY_REUSED: { status: 422, message: 'This idempotency key was used with a different request.' },
  QUOTE_EXPIRED: { status: 422, message: 'The quote has expired.' },
  QUOTE_ACCOUNT_MISMATCH: { status: 422, message: 'The quote was issued for another account.' },
  QUOTE_NOT_FOUND: { status: 422, message: 'The quote does not exist.' },
  // Ours, off by default: the per-customer rate limit (config.rateLimit, RATE_LIMIT).
  RATE_LIMITED: { status: 429, message: 'Too many requests; retry after the number of seconds in Retry-After.' },
  INTERNAL_ERROR: { status: 500, message: 'The mock failed to handle the request.' },
  // Ours: the shared state (REDIS_URL) cannot be reached; the request changed nothing it did not finish.
  SERVICE_UNAVAILABLE: { status: 503, message: 'The mock cannot reach its shared state; retry shortly.' },
  // Protocol limits, answered by the HTTP server before any route (mock/server.ts).
  REQUEST_TIMEOUT: { status: 408, message: 'The request was not received in time.' },
  HEADERS_TOO_LARGE: { status: 431, message: 'The request line and headers are larger than the limit.' },
  // Control API (ours): the default code of an injected error (its status is the fault's own),
  // and /docs when the reference renderer is not installed.
  INJECTED_FAULT: { status: 503, message: 'A fault injected through the control API.' },
  DOCS_UNAVAILABLE: { status: 501, message: 'The API reference renderer is not installed.' },
  INSPECTOR_UNAVAILABLE: { status: 501, message: 'The inspector page was not built.' },
  // Control API (ours): it answers only its own machine (mock/http/local-only.ts, ALLOWED_HOSTS).
  HOST_NOT_ALLOWED: { status: 403, message: 'The control API answers only loopback hosts and those in ALLOWED_HOSTS.' },
  CROSS_SITE_REQUEST: {
    status: 403,
    message: 'A change to the mock from another site is refused; add its host to ALLOWED_HOSTS to allow it.',
  },
  // Control API (ours): a reset re-reads the fixtures file; one it cannot load is refused, the old data kept.
  FIXTURES_INVALID: { status: 422, message: 'The fixtures file cannot be loaded; the data from before is kept.' },
} as const;

export type ErrorCode = keyof typeof ERROR_CATALOGUE;

/** Thrown by domain and HTTP code alike; the one error serialiser turns it into the Error body. */
export class ServiceError extends Error {
  readonly status: number;
  readonly code: string;
  constructor(
    code: ErrorCode,
    readonly details?: Record<string, unknown>,
    message?: string,
  ) {
    super(message ?? ERROR_CATALOGUE[code].message);
    this.name = 'ServiceError';
    this.code = code;
    this.status = ERROR_CATALOGUE[code].status;
  }

  /**
   * An error a tester injected through the control API: its status, code and message are the
   * fault's own (any 4xx or 5xx, any code), answered like every other error.
   */
  static injected(fault: { status: number; code: string; message: string }, details: Record<string, unknown>): ServiceError {
    const error = new ServiceError('INJECTED_FAULT', details, fault.message);
    return Object.assign(error, { status: fault.status, code: fault.code });
  }
}

export interface ErrorBody {
  code: string;
  message: string;
  details?: Record<string, unknown>;
}

export function errorBody(error: ServiceError): ErrorBody {
  return error.details === undefined
    ? { code: error.code, message: error.message }
    : { code: error.code, message: error.message, details: error.details };
}
