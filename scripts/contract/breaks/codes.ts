// Breaks of refusals: the right request refused, but with another status or code than the rule
// gives it (what a client branches on). Made by rewriting error answers on their way out.
import type { Break } from './break';
import { isObject, path, rewrite } from './front';

/** Rewrites every error answer whose code is `code` (and whose path passes `where`) to another status and code. */
const recode = (code: string, status: number, to: string, where: (p: string) => boolean = () => true) =>
  rewrite(({ req, status: was, body }) =>
    was >= 400 && isObject(body) && body.code === code && where(path(req)) ? { status, body: { ...body, code: to } } : undefined,
  );

export const validationAs422: Break = {
  id: 'validation-as-422',
  rules: ['VALIDATION-400', 'SUB-RESOURCES-RULE', 'SUB-URL-POLICY'],
  what: 'a request that fails the document answers 422 UNPROCESSABLE instead of 400 VALIDATION_ERROR',
  files: ['bad-input', 'subscriptions'],
  wrap: recode('VALIDATION_ERROR', 422, 'UNPROCESSABLE'),
};

export const bodyLimitsAs400: Break = {
  id: 'body-limits-as-400',
  rules: ['BODY-LIMITS'],
  what: 'an oversized or non-JSON body answers 400 VALIDATION_ERROR instead of 413 / 415',
  files: ['bad-input'],
  wrap: rewrite(({ status, body }) =>
    (status === 413 || status === 415) && isObject(body) ? { status: 400, body: { ...body, code: 'VALIDATION_ERROR' } } : undefined,
  ),
};

export const invalidClientAs400: Break = {
  id: 'invalid-client-as-400',
  rules: ['AUTH-INVALID-CLIENT'],
  what: 'a token call with a wrong secret answers 400 BAD_CREDENTIALS instead of 401 INVALID_CLIENT',
  files: ['auth'],
  wrap: recode('INVALID_CLIENT', 400, 'BAD_CREDENTIALS'),
};

export const invalidFilterAsValidation: Break = {
  id: 'invalid-filter-as-validation',
  rules: ['FILTER-INVALID'],
  what: 'a filter that does not parse answers VALIDATION_ERROR instead of INVALID_FILTER',
  files: ['webhooks-logs'],
  wrap: recode('INVALID_FILTER', 400, 'VALIDATION_ERROR'),
};

export const expiredAsConsumed: Break = {
  id: 'expired-as-consumed',
  rules: ['QUOTE-EXPIRES'],
  what: 'an expired quote answers 409 QUOTE_ALREADY_CONSUMED instead of 422 QUOTE_EXPIRED',
  files: ['quotes'],
  wrap: recode('QUOTE_EXPIRED', 409, 'QUOTE_ALREADY_CONSUMED'),
};

export const mismatchAs404: Break = {
  id: 'mismatch-as-404',
  rules: ['QUOTE-ACCOUNT-MATCH'],
  what: 'a quote used on another account answers 404 RESOURCE_NOT_FOUND instead of 422 QUOTE_ACCOUNT_MISMATCH',
  files: ['quotes', 'operations'],
  wrap: recode('QUOTE_ACCOUNT_MISMATCH', 404, 'RESOURCE_NOT_FOUND'),
};

export const unknownQuoteAs404: Break = {
  id: 'unknown-quote-as-404',
  rules: ['QUOTE-UNKNOWN'],
  what: 'an operation naming an unknown quote answers 404 RESOURCE_NOT_FOUND instead of 422 QUOTE_NOT_FOUND',
  files: ['quotes', 'operations'],
  wrap: recode('QUOTE_NOT_FOUND', 404, 'RESOURCE_NOT_FOUND'),
};

export const reviewLockAs400: Break = {
  id: 'review-lock-as-400',
  rules: ['ACCOUNT-REVIEW-LOCK'],
  what: 'a PATCH of an account under review answers 400 VALIDATION_ERROR instead of 409 ACCOUNT_NOT_EDITABLE',
  files: ['accounts'],
  wrap: recode('ACCOUNT_NOT_EDITABLE', 400, 'VALIDATION_ERROR'),
};

export const inProgressAs429: Break = {
  id: 'in-progress-as-429',
  rules: ['IDEM-IN-PROGRESS'],
  what: 'a key whose first request is still running answers 429 TOO_MANY_REQUESTS instead of 409 IDEMPOTENCY_REQUEST_IN_PROGRESS',
  files: ['webhooks-logs'],
  wrap: recode('IDEMPOTENCY_REQUEST_IN_PROGRESS', 429, 'TOO_MANY_REQUESTS'),
};
