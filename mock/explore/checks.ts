// Every check explore makes, by the name reports, `--allow` files and `--check` use. A check that
// does not hold throws a CheckFailure: fast-check then shrinks the run to the fewest steps that
// still break the same check.

export const CHECKS = {
  'no-5xx': 'no answer is a 5xx, unless a fault the run injected made it',
  'document.status': 'the status is one the document declares for the operation',
  'document.body': 'the body matches the schema the document gives for that status (the Error body for a refusal)',
  'document.headers': 'X-Request-Id and the other headers the document requires are there, with a JSON content type',
  'refusal.invalid-request': 'a request made invalid in one place (type, field, enum, uuid, header, token) is refused with a 4xx',
  'quote.amounts': "a quote's target amount is its source amount times its rate, rounded down to the target asset's scale",
  'token.lifetime': 'a token lasts 23 hours: expiresIn 82800 and an exp claim 82800 s after its iat or the time it was asked for',
  'operation.record':
    'an operation shows what its state means: a transfer its generated quote, a COMPLETED one its transactions, ' +
    'a withdrawal or swap failed at settlement INSUFFICIENT_BALANCE',
  'quote.refusals':
    'an operation on a quote it cannot use is refused with the code that says why: QUOTE_NOT_FOUND, QUOTE_ACCOUNT_MISMATCH, QUOTE_EXPIRED',
  'quote.consumed-once': 'no two operations are accepted on one quote; a quote already used is refused',
  'idempotency.replay': 'a key sent again with the same request answers the first status and body again',
  'idempotency.conflict': 'a key sent again with another body is refused (422 IDEMPOTENCY_KEY_REUSED)',
  'lifecycle.transition': 'an operation moves only along the transitions the document declares',
  'events.payload': "each event delivered to the run's receiver matches the document's webhook schema for its type",
  'lifecycle.events':
    'each transition an operation made emitted its event to a subscription listening (a receiver reachable by the target)',
  'money.balances': "each account's balances are its starting balances plus its settled movements (needs the control API)",
  'pages.complete': 'a list walked page by page with its cursors shows every record once, in order, and every record the run made',
  'records.read-back': 'a record the run made is read back (200); a deleted one stays gone (404)',
  'tenancy.isolation': "another customer's ids are never visible: 404 on each, absent from every list",
  'compare.status': 'with --compare-with: both targets answer a step with the same status',
  'compare.code': 'with --compare-with: both refuse with the same error code',
  'compare.field': 'with --compare-with: both answers have the same fields',
  'compare.type': 'with --compare-with: the same fields have the same JSON types',
  'compare.state': 'with --compare-with: records are in the same states',
  'compare.events': 'with --compare-with: both delivered the same operation events (where a receiver is reachable by both)',
} as const;

export type CheckName = keyof typeof CHECKS;

export const CHECK_NAMES = Object.keys(CHECKS) as CheckName[];

/** A check that did not hold, at a step of the run. */
export class CheckFailure extends Error {
  override name = 'CheckFailure';
  constructor(
    readonly check: CheckName,
    message: string,
    /** 1-based index of the step whose answer broke it (a check at the end of the run: its last step). */
    readonly step: number,
  ) {
    super(`${check}: ${message}`);
  }
}
