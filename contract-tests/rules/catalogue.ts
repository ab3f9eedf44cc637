// Every rule of the service specification (seed/service-spec.md) and of the product's documented
// gap decisions (DESIGN.md, "Gap decisions"; docs/) that a client can observe over HTTP.
// Each has a short stable id: contract tests carry it in their titles (`[QUOTE-CONSUMED-ONCE]`),
// deliberate breaks (scripts/contract/breaks/) declare it, and `npm run rules:table` joins the
// three into the rule table (docs/contract-suite.md). Ids are never reused for another rule: a table read last
// month must still mean the same thing.
//
// Left out on purpose: what the seed marks "not shown" and DESIGN does not decide (rate limits,
// the version set, subscription caps), what no client sees (the store, Redis atomicity, CPU cost),
// and the control API itself (QA's tool, not the service's contract).

export interface Rule {
  id: string;
  /** Where the rule comes from: a seed section ("Spec: …") or a gap decision ("DESIGN: …"). */
  source: string;
  statement: string;
}

export const RULES = [
  // Authentication and tokens
  {
    id: 'AUTH-TOKEN-LIFETIME',
    source: 'Spec: Authentication 2-3; Limits',
    statement: 'The token call exchanges clientId and clientSecret for a Bearer JWT with expiresIn 82800 and an exp claim 82800 s ahead.',
  },
  {
    id: 'AUTH-TOKEN-REUSABLE',
    source: 'Spec: Authentication 5',
    statement: 'One access token serves any number of calls until it expires.',
  },
  {
    id: 'AUTH-TOKEN-NO-KEY',
    source: 'Spec: Endpoints (X-Idempotency-Key "except the token request")',
    statement: 'The token call is answered without an X-Idempotency-Key.',
  },
  {
    id: 'AUTH-REQUIRED-401',
    source: 'Spec: Authentication 1, 6; Errors 3',
    statement:
      'A missing, malformed, forged or expired bearer token answers 401 UNAUTHORIZED with the Error body, on every secured operation.',
  },
  {
    id: 'AUTH-INVALID-CLIENT',
    source: 'DESIGN: Errors (401 INVALID_CLIENT)',
    statement: 'A token call with an unknown client or a wrong secret answers 401 INVALID_CLIENT.',
  },
  // Tenancy
  {
    id: 'TENANCY-OWN-DATA',
    source: 'Spec: What the service does; DESIGN: Errors (404, never 403)',
    statement:
      'A customer sees, changes and spends only its own records: another’s answers the 404 of an unknown id and is in none of its lists.',
  },
  {
    id: 'TENANCY-IDEMPOTENCY-SCOPE',
    source: 'DESIGN: Idempotency (scope is customer and key)',
    statement: 'Two customers using the same idempotency key never see each other’s answer.',
  },
  // Errors and the document
  {
    id: 'ERROR-BODY',
    source: 'Spec: Errors 1; Error body',
    statement: 'Every error answer is an Error body with a code and a message.',
  },
  {
    id: 'REQUEST-ID',
    source: 'Spec: Endpoints; Errors 2',
    statement: 'Every response, success or error, carries X-Request-Id, a uuid.',
  },
  {
    id: 'DOC-STATUS',
    source: 'DESIGN: One contract; Gap decisions, Paths (success statuses)',
    statement: 'Each operation answers only the statuses the document gives it; creations answer 201.',
  },
  {
    id: 'DOC-SCHEMA',
    source: 'DESIGN: One contract (spec/openapi.yaml)',
    statement: 'Every answer is application/json matching its status’s schema, required nullable fields included.',
  },
  {
    id: 'MONEY-DECIMAL-STRING',
    source: 'Spec: Common shapes, Amount',
    statement: 'Amount.value is a decimal string in the asset’s scale, never a JSON number.',
  },
  {
    id: 'NOT-FOUND-404',
    source: 'Spec: Errors 3 (RESOURCE_NOT_FOUND); DESIGN: Errors',
    statement: 'An unknown id answers 404 RESOURCE_NOT_FOUND on every operation that looks one up.',
  },
  {
    id: 'VALIDATION-400',
    source: 'DESIGN: Errors (400 VALIDATION_ERROR)',
    statement: 'A body, query, header or path that fails the document answers 400 VALIDATION_ERROR naming each field.',
  },
  {
    id: 'BODY-LIMITS',
    source: 'DESIGN: Errors (413 PAYLOAD_TOO_LARGE, 415 UNSUPPORTED_MEDIA_TYPE)',
    statement: 'A body over the size limit answers 413 PAYLOAD_TOO_LARGE; a body that is not JSON answers 415 UNSUPPORTED_MEDIA_TYPE.',
  },
  {
    id: 'VERSION-HEADER',
    source: 'Spec: Versioning 1; DESIGN: Errors (400 UNSUPPORTED_VERSION)',
    statement: 'X-Service-Version 1 or absent is served; a version the service does not serve answers 400 UNSUPPORTED_VERSION.',
  },
  // Idempotency
  {
    id: 'IDEM-KEY-REQUIRED',
    source: 'Spec: Endpoints; Limits; DESIGN: Errors (400 IDEMPOTENCY_KEY_REQUIRED)',
    statement: 'Every POST, PUT and PATCH but the token call without X-Idempotency-Key answers 400 IDEMPOTENCY_KEY_REQUIRED.',
  },
  {
    id: 'IDEM-REPLAY',
    source: 'DESIGN: Idempotency',
    statement:
      'The same request under the same key answers the first status and body again, marked X-Idempotent-Replayed: true, and acts once.',
  },
  {
    id: 'IDEM-KEY-REUSED',
    source: 'DESIGN: Idempotency; Errors (422 IDEMPOTENCY_KEY_REUSED)',
    statement: 'A key reused with another method, path or body answers 422 IDEMPOTENCY_KEY_REUSED and the first result stands.',
  },
  {
    id: 'IDEM-IN-PROGRESS',
    source: 'DESIGN: Errors (409 IDEMPOTENCY_REQUEST_IN_PROGRESS)',
    statement: 'The same key while its first request is still running answers 409 IDEMPOTENCY_REQUEST_IN_PROGRESS, and later replays.',
  },
  {
    id: 'IDEM-INVALID-NOT-BURNED',
    source: 'DESIGN: Idempotency ("a request that failed validation does not burn the key")',
    statement: 'A key whose request was refused as invalid (400) can be used again for the corrected request.',
  },
  // Pagination and filters
  {
    id: 'PAGE-TOTAL',
    source: 'Spec: Page metadata (total); DESIGN: Pagination',
    statement: 'meta.total is the number of items in this page, not in the whole list.',
  },
  {
    id: 'PAGE-CURSOR-ENDS',
    source: 'Spec: Page metadata; Pagination (iterate until nextCursor is null)',
    statement: 'previousCursor is null on the first page and nextCursor null on the last.',
  },
  {
    id: 'PAGE-WALK',
    source: 'Spec: Pagination (cursor, direction); DESIGN: Pagination (stable when records are added)',
    statement:
      'Walking NEXT sees every record once, PREVIOUS gives the prior page back; records added during a walk make none repeat or vanish.',
  },
  {
    id: 'PAGE-CURSOR-SIGNED',
    source: 'DESIGN: Pagination (signed cursors); Errors (400 INVALID_CURSOR)',
    statement: 'A forged, edited, truncated or borrowed cursor (another list’s, another customer’s) answers 400 INVALID_CURSOR.',
  },
  {
    id: 'PAGE-LIMIT',
    source: 'Spec: Pagination; Limits (default 10, 1 to 100)',
    statement: 'limit defaults to 10 and takes 1 to 100; any other value answers 400 VALIDATION_ERROR naming query.limit.',
  },
  {
    id: 'PAGE-SORT',
    source: 'Spec: Pagination (sortOrder default DESCENDING); Execution logs (most recent first)',
    statement: 'Lists come newest first by default; ASCENDING gives the same records in the reverse order.',
  },
  {
    id: 'FILTER-SELECTS',
    source: 'Spec: executionLogs filters; DESIGN: Filters on execution logs',
    statement: 'An execution-log filter (field[op]=value, ;, and(), or()) returns exactly the logs that match it.',
  },
  {
    id: 'FILTER-INVALID',
    source: 'DESIGN: Filters; Errors (400 INVALID_FILTER)',
    statement: 'A filter that does not parse, or names an unknown field or operator, answers 400 INVALID_FILTER with the position.',
  },
  // Quotes
  {
    id: 'QUOTE-CONSUMED-ONCE',
    source: 'Spec: What the service does 3; States; Limits (Quote use); DESIGN: Errors (409)',
    statement: 'A quote funds at most one operation; a second answers 409 QUOTE_ALREADY_CONSUMED.',
  },
  {
    id: 'QUOTE-ROUNDING',
    source: 'DESIGN: Quotes (target rounded down to the target scale)',
    statement: 'A quote’s target amount is source × rate rounded down to the target asset’s scale (BRL 2, USDT 6).',
  },
  {
    id: 'QUOTE-SAME-ASSET-1-1',
    source: 'Spec: What the service does 3 (1:1 for same-asset)',
    statement: 'A quote between one asset and itself has rate 1 and equal amounts.',
  },
  {
    id: 'QUOTE-EXPIRES',
    source: 'Spec: States (not expired); Errors 4; DESIGN: Quotes, Errors (422 QUOTE_EXPIRED)',
    statement: 'Past its expiresAt a quote reads EXPIRED and an operation naming it answers 422 QUOTE_EXPIRED.',
  },
  {
    id: 'QUOTE-ACCOUNT-MATCH',
    source: 'Spec: States (account matches the quote’s); Errors 4; DESIGN: Errors (422 QUOTE_ACCOUNT_MISMATCH)',
    statement: 'An operation on another account than its quote’s answers 422 QUOTE_ACCOUNT_MISMATCH and the quote stays open.',
  },
  {
    id: 'QUOTE-UNKNOWN',
    source: 'Spec: Errors 4 (quote unknown to the customer); DESIGN: Errors (422 QUOTE_NOT_FOUND)',
    statement: 'An operation naming a quote the customer does not have answers 422 QUOTE_NOT_FOUND.',
  },
  // Operations
  {
    id: 'OP-REQUESTED',
    source: 'Spec: States and transitions; DESIGN: Operations',
    statement: 'A new deposit, withdrawal, swap or transfer is REQUESTED.',
  },
  {
    id: 'OP-DEPOSIT-FUNDING',
    source: 'Spec: Operations (deposit: intent.fundingInstruction holds the PIX QR payload)',
    statement: 'A deposit answers intent.fundingInstruction with the PIX dynamic QR code payload.',
  },
  {
    id: 'OP-DEPOSIT-PAYER',
    source: 'Spec: Operations (deposit: optional payer details)',
    statement: 'A deposit that names a payer carries it in its intent.',
  },
  {
    id: 'OP-TRANSFER-QUOTE',
    source: 'Spec: Operation (quote; TRANSFER intent)',
    statement: 'A transfer carries its internally made 1:1 quote and names its target account and owner.',
  },
  {
    id: 'OP-TAGS-PROPAGATE',
    source: 'Spec: Operation (tags); DESIGN: Operations',
    statement: 'An account’s propagating tags are stamped on each operation created on it.',
  },
  {
    id: 'OP-SETTLEMENT',
    source: 'Spec: Operation (transactions: only confirmed); DESIGN: Operations',
    statement: 'A settled operation is COMPLETED with its confirmed transactions, and balances move by its amounts.',
  },
  {
    id: 'OP-INSUFFICIENT-BALANCE',
    source: 'Spec: Reason codes (INSUFFICIENT_BALANCE); DESIGN: Operations',
    statement: 'A withdrawal or swap short of funds goes FAILED with reason INSUFFICIENT_BALANCE and moves nothing.',
  },
  // Accounts
  {
    id: 'ACCOUNT-OWNER-REPLACE',
    source: 'Spec: Accounts (PATCH); Owner (identificationDocument in, taxId out)',
    statement: 'PATCH replaces the owner: the sent identificationDocument comes back as taxId; assets are kept.',
  },
  {
    id: 'ACCOUNT-REVIEW-LOCK',
    source: 'Spec: States (updated only until submitted for review); DESIGN: Errors (409 ACCOUNT_NOT_EDITABLE)',
    statement: 'An account submitted for review answers a PATCH with 409 ACCOUNT_NOT_EDITABLE.',
  },
  // Beneficiaries
  {
    id: 'BENEFICIARY-INSTRUCTIONS',
    source: 'Spec: Beneficiary, PaymentInstruction; DESIGN: Paths (beneficiaries, paymentInstructions)',
    statement: 'A beneficiary created or given a PIX instruction reads back with it, and is listed.',
  },
  {
    id: 'BENEFICIARY-REVIEW',
    source: 'Spec: States (payment-instruction transitions); DESIGN: Events',
    statement: 'An approved instruction reads APPROVED; a withdrawal to a rejected one is refused.',
  },
  // Subscriptions
  {
    id: 'SUB-CREATE-DEFAULTS',
    source: 'Spec: Create subscription body (allowRetry false, includeAll)',
    statement: 'allowRetry defaults to false; includeAll covers every resource and event type and ignores resources.',
  },
  {
    id: 'SUB-RESOURCES-RULE',
    source: 'Spec: Create subscription body; Limits (resources at least 1, names unique)',
    statement: 'Without includeAll, a subscription with no resources or a repeated resource name answers 400.',
  },
  {
    id: 'SUB-URL-POLICY',
    source: 'Spec: Create subscription body (HTTPS); DESIGN: Webhook delivery (URL policy)',
    statement: 'A subscription URL must be HTTPS (plain HTTP only on loopback); another answers 400.',
  },
  {
    id: 'SUB-LIFECYCLE',
    source: 'DESIGN: Paths (list, read, update, delete subscriptions)',
    statement: 'A subscription is listed, read, updated (resources replaced) and deleted (then 404), each step showing it as it is.',
  },
  {
    id: 'SUB-REFERENCE',
    source: 'Spec: Event types; DESIGN: Paths (reference look-ups), Events (resource names)',
    statement: 'The reference look-ups list the document’s resource names and every event type, each with its resource.',
  },
  // Webhooks
  {
    id: 'HOOK-DELIVERY',
    source: 'Spec: Events 1-2; DESIGN: Webhook delivery',
    statement: 'Each event is POSTed as JSON with X-Message-Id and X-Event-Type, matching the document’s webhooks.',
  },
  {
    id: 'HOOK-PAYLOAD',
    source: 'Spec: Events (payload: id, customerId, atTime)',
    statement: 'A delivered payload carries the resource id, customerId and atTime (the moment of the transition).',
  },
  {
    id: 'HOOK-EVENT-SELECTION',
    source: 'Spec: Events 1; DESIGN: Events',
    statement: 'A subscriber gets exactly its own customer’s events of the types it named (all with includeAll), in order.',
  },
  {
    id: 'HOOK-LOG-OUTCOME',
    source: 'Spec: Events 3-4; States (delivery attempt); Execution log',
    statement: 'Each attempt is logged: SUCCESS on a 2xx, FAILED otherwise with the httpStatus (0 without an answer) and an error.',
  },
  {
    id: 'HOOK-RETRY',
    source: 'Spec: Events 5; DESIGN: Webhook delivery (schedule)',
    statement:
      'With allowRetry a failed delivery is retried when due, retryAttempts counting the attempts before, until the schedule ends.',
  },
  {
    id: 'HOOK-MESSAGE-ID-STABLE',
    source: 'DESIGN: Webhook delivery (message id stable across retries and resends)',
    statement: 'Retries and resends of a message carry the same X-Message-Id.',
  },
  {
    id: 'HOOK-RESEND',
    source: 'DESIGN: Paths (resend, 202 ExecutionLog)',
    statement: 'Resending a logged message answers 202 and delivers it again at once as a new logged attempt.',
  },
] as const satisfies readonly Rule[];

export type RuleId = (typeof RULES)[number]['id'];
