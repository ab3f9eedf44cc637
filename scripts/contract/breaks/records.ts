// Breaks made by rewriting the records in answers (an app in front of the mock): a field a rule
// decides is given another value that the document still allows, so only the rule's own tests
// can notice, not the schema check.
import Decimal from 'decimal.js';
import type { Break } from './break';
import { isObject, isPage, path, records, rewrite, type JsonObject } from './front';

/** Rewrites each record of the answers to paths that `where` accepts. */
const eachRecord = (where: RegExp, change: (record: JsonObject, method: string) => void) =>
  rewrite(({ req, status, body }) => {
    if (status >= 400 || !where.test(path(req))) return;
    for (const record of records(body)) change(record, req.method);
    return { body };
  });

export const sameAssetRate: Break = {
  id: 'same-asset-rate',
  rules: ['QUOTE-SAME-ASSET-1-1'],
  what: 'a same-asset quote carries rate 0.99 and a target 1% short',
  files: ['quotes'],
  wrap: eachRecord(/^\/v1\/quotes/, (q) => {
    const { sourceAmount: s, targetAmount: t } = q;
    if (!isObject(s) || !isObject(t) || s.asset !== t.asset || typeof s.value !== 'string' || typeof t.decimals !== 'number') return;
    q.rate = '0.99';
    t.value = new Decimal(s.value).times('0.99').toDecimalPlaces(t.decimals, Decimal.ROUND_DOWN).toFixed(t.decimals);
  }),
};

export const transferWithoutQuote: Break = {
  id: 'transfer-without-quote',
  rules: ['OP-TRANSFER-QUOTE'],
  what: 'a transfer answers quote null (as a deposit without one)',
  files: ['operations'],
  wrap: eachRecord(/^\/v1\/operations/, (op) => {
    if (isObject(op.intent) && op.intent.type === 'TRANSFER') op.quote = null;
  }),
};

export const operationTagsDropped: Break = {
  id: 'operation-tags-dropped',
  rules: ['OP-TAGS-PROPAGATE'],
  what: 'operations carry no tags (the account’s propagating tags are not stamped)',
  files: ['operations'],
  wrap: eachRecord(/^\/v1\/operations/, (op) => void (op.tags = [])),
};

export const settledWithoutTransactions: Break = {
  id: 'settled-without-transactions',
  rules: ['OP-SETTLEMENT'],
  what: 'a COMPLETED operation lists no transactions',
  files: ['operations'],
  wrap: eachRecord(/^\/v1\/operations/, (op) => {
    if (isObject(op.currentState) && op.currentState.status === 'COMPLETED') op.transactions = [];
  }),
};

export const shortOfFundsOtherReason: Break = {
  id: 'short-of-funds-other-reason',
  rules: ['OP-INSUFFICIENT-BALANCE'],
  what: 'a withdrawal short of funds fails with reason NOT_ENOUGH_FUNDS instead of INSUFFICIENT_BALANCE',
  files: ['operations'],
  wrap: eachRecord(/^\/v1\/operations/, (op) => {
    const reason = isObject(op.currentState) ? op.currentState.reason : undefined;
    if (isObject(reason) && reason.code === 'INSUFFICIENT_BALANCE') reason.code = 'NOT_ENOUGH_FUNDS';
  }),
};

export const ownerTaxIdKept: Break = {
  id: 'owner-tax-id-kept',
  rules: ['ACCOUNT-OWNER-REPLACE'],
  what: 'a PATCHed account answers a taxId other than the identificationDocument sent',
  files: ['accounts'],
  wrap: eachRecord(/^\/v1\/accounts\//, (account, method) => {
    const owner = account.owner;
    if (method === 'PATCH' && isObject(owner) && isObject(owner.taxId)) owner.taxId.value = '00000000000000';
  }),
};

export const instructionsDropped: Break = {
  id: 'instructions-dropped',
  rules: ['BENEFICIARY-INSTRUCTIONS'],
  what: 'a beneficiary read back (GET) has no payment instructions',
  files: ['beneficiaries'],
  wrap: eachRecord(/^\/v1\/beneficiaries/, (b, method) => void (method === 'GET' && (b.paymentInstructions = []))),
};

export const reviewNotShown: Break = {
  id: 'review-not-shown',
  rules: ['BENEFICIARY-REVIEW'],
  what: 'a reviewed payment instruction still reads CREATED',
  files: ['beneficiaries'],
  wrap: eachRecord(/^\/v1\/beneficiaries/, (b) => {
    for (const instruction of Array.isArray(b.paymentInstructions) ? b.paymentInstructions : [])
      if (isObject(instruction) && isObject(instruction.currentState) && 'status' in instruction.currentState)
        instruction.currentState.status = 'CREATED';
  }),
};

export const allowRetryDefaultTrue: Break = {
  id: 'allow-retry-default-true',
  rules: ['SUB-CREATE-DEFAULTS'],
  what: 'subscriptions answer allowRetry true whatever was asked',
  files: ['subscriptions'],
  wrap: eachRecord(/subscriptions(\/[0-9a-f-]{36})?$/i, (sub) => void ('allowRetry' in sub && (sub.allowRetry = true))),
};

export const eventTypeMissing: Break = {
  id: 'event-type-missing',
  rules: ['SUB-REFERENCE'],
  what: 'the event-type look-up leaves out OPERATION_ACTION_REQUIRED',
  files: ['subscriptions'],
  wrap: rewrite(({ req, body }) => {
    if (path(req) !== '/v1/reference/eventTypes' || !isPage(body)) return;
    body.data = body.data.filter((t) => !(isObject(t) && t.name === 'OPERATION_ACTION_REQUIRED'));
    body.meta.total = body.data.length;
    return { body };
  }),
};

export const noAnswerAs504: Break = {
  id: 'no-answer-as-504',
  rules: ['HOOK-LOG-OUTCOME'],
  what: 'an attempt that got no answer is logged with httpStatus 504 instead of 0',
  files: ['webhooks'],
  wrap: eachRecord(/\/executionLogs/, (log) => void (log.httpStatus === 0 && (log.httpStatus = 504))),
};

export const payerDropped: Break = {
  id: 'payer-dropped',
  rules: ['OP-DEPOSIT-PAYER'],
  what: 'a deposit’s intent leaves out the payer it was given',
  files: ['operations'],
  wrap: eachRecord(/^\/v1\/operations/, (op) => void (isObject(op.intent) && delete op.intent.payer)),
};
