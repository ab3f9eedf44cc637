// Breaks made by rewriting JSON answers on their way out: fields dropped, of the wrong type or with
// values the document does not know, cursors where there must be none, statuses changed, a JSON
// body under another content type, money rounded the wrong way.
import Decimal from 'decimal.js';
import type { Break } from './break';
import { isObject, isPage, path, records, rewrite } from './front';

const OPAQUE_CURSOR = 'ZW5kLW9mLWxpc3Q.bm90LWEtcmVhbC1tYWM';

export const accountDropsNullField: Break = {
  id: 'account-drops-null-field',
  rules: ['DOC-SCHEMA'],
  what: 'Account without sourceAccountId when it is null (required, nullable)',
  files: ['accounts'],
  wrap: rewrite(({ req, body }) => {
    if (!/^\/(api|v1)\/accounts/.test(path(req))) return;
    for (const a of records(body)) if (a.sourceAccountId === null) delete a.sourceAccountId;
    return { body };
  }),
};

export const amountValueNumber: Break = {
  id: 'amount-value-number',
  rules: ['MONEY-DECIMAL-STRING'],
  what: 'Amount.value a JSON number, not a decimal string (quotes)',
  files: ['quotes'],
  wrap: rewrite(({ req, body }) => {
    if (!path(req).startsWith('/v1/quotes')) return;
    for (const q of records(body))
      for (const amount of [q.sourceAmount, q.targetAmount])
        if (isObject(amount) && amount.value !== undefined) amount.value = Number(amount.value);
    return { body };
  }),
};

export const nextCursorNeverNull: Break = {
  id: 'next-cursor-never-null',
  rules: ['PAGE-CURSOR-ENDS'],
  what: 'meta.nextCursor never null, also on the last page',
  files: ['pagination'],
  wrap: rewrite(({ body }) => {
    if (!isPage(body) || body.meta.nextCursor !== null) return;
    body.meta.nextCursor = OPAQUE_CURSOR;
    return { body };
  }),
};

export const previousCursorOnFirstPage: Break = {
  id: 'previous-cursor-on-first-page',
  rules: ['PAGE-CURSOR-ENDS'],
  what: 'meta.previousCursor set on the first page',
  files: ['pagination'],
  wrap: rewrite(({ req, body }) => {
    if (!isPage(body) || req.query.cursor !== undefined || body.meta.previousCursor !== null) return;
    body.meta.previousCursor = OPAQUE_CURSOR;
    return { body };
  }),
};

export const unauthorizedAs403: Break = {
  id: '401-as-403',
  rules: ['AUTH-REQUIRED-401'],
  what: 'a missing or bad token answers 403 instead of 401',
  files: ['auth'],
  wrap: rewrite(({ status }) => (status === 401 ? { status: 403 } : undefined)),
};

export const unknownId200Empty: Break = {
  id: 'unknown-id-200-empty',
  rules: ['NOT-FOUND-404'],
  what: 'an unknown id answers 200 with an empty body instead of 404',
  files: ['tenancy'],
  wrap: rewrite(({ req, status }) => (status === 404 && req.method === 'GET' ? { status: 200, empty: true } : undefined)),
};

export const logStatusOk: Break = {
  id: 'log-status-ok',
  rules: ['HOOK-LOG-OUTCOME'],
  what: 'execution logs say status OK instead of SUCCESS',
  files: ['webhooks', 'webhooks-logs'],
  wrap: rewrite(({ req, body }) => {
    if (!/\/executionLogs/.test(path(req))) return;
    for (const log of records(body)) if (log?.status === 'SUCCESS') log.status = 'OK';
    return { body };
  }),
};

export const errorWithoutCode: Break = {
  id: 'error-without-code',
  rules: ['ERROR-BODY'],
  what: 'error bodies without `code`',
  files: ['subscriptions'],
  wrap: rewrite(({ status, body }) => {
    if (status < 400 || !isObject(body)) return;
    delete body.code;
    return { body };
  }),
};

export const depositWithoutPayload: Break = {
  id: 'deposit-without-payload',
  rules: ['OP-DEPOSIT-FUNDING'],
  what: 'a deposit’s fundingInstruction without its PIX payload',
  files: ['operations'],
  wrap: rewrite(({ req, body }) => {
    if (!path(req).startsWith('/v1/operations')) return;
    for (const { intent } of records(body))
      if (isObject(intent) && intent.type === 'DEPOSIT' && isObject(intent.fundingInstruction)) delete intent.fundingInstruction.payload;
    return { body };
  }),
};

export const operationStatusPending: Break = {
  id: 'operation-status-pending',
  rules: ['OP-REQUESTED'],
  what: 'a new operation is PENDING (a value the document does not know) instead of REQUESTED',
  files: ['operations'],
  wrap: rewrite(({ req, body }) => {
    if (!path(req).startsWith('/v1/operations')) return;
    for (const { currentState } of records(body))
      if (isObject(currentState) && currentState.status === 'REQUESTED') currentState.status = 'PENDING';
    return { body };
  }),
};

export const quoteRoundsUp: Break = {
  id: 'quote-rounds-up',
  rules: ['QUOTE-ROUNDING'],
  what: 'a quote’s target amount rounded up instead of down',
  files: ['quotes'],
  wrap: rewrite(({ req, body }) => {
    if (!path(req).startsWith('/v1/quotes')) return;
    for (const { sourceAmount, targetAmount, rate } of records(body)) {
      if (!isObject(sourceAmount) || !isObject(targetAmount) || typeof rate !== 'string') continue;
      if (typeof sourceAmount.value !== 'string' || typeof targetAmount.decimals !== 'number') continue;
      const scale = targetAmount.decimals;
      targetAmount.value = new Decimal(sourceAmount.value).times(rate).toDecimalPlaces(scale, Decimal.ROUND_UP).toFixed(scale);
    }
    return { body };
  }),
};

export const jsonAsTextPlain: Break = {
  id: 'json-as-text-plain',
  rules: ['DOC-SCHEMA'],
  what: 'the subscription list sent as text/plain (a JSON body under a non-JSON content type)',
  files: ['subscriptions'],
  wrap: rewrite(({ req, body }) =>
    req.method === 'GET' && path(req) === '/v1/subscriptions' ? { text: { type: 'text/plain', body: JSON.stringify(body) } } : undefined,
  ),
};
