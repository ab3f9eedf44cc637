// The rules explore checks on what the run sees of an operation: it starts in a state the
// document declares initial and moves only along declared transitions (a terminal state never
// changes); and the rule of quotes: no two operations accepted on one.
import { initialOf, initialStates, isTerminal, transitionOf, transitionsOf } from '../../spec/lifecycles';
import type { HttpAnswer } from '../scenarios/http';
import type { OperationRecord, QuoteRecord } from './model';
import { code, injected, type RunContext } from './run-context';

/** Whether `to` can be reached from `from` through declared transitions (the run may not see each step). */
function reachable(from: string, to: string): boolean {
  const seen = new Set([from]);
  const queue = [from];
  while (queue.length > 0) {
    const state = queue.shift()!;
    for (const t of transitionsOf('operation')) {
      if (t.from !== state || seen.has(t.to)) continue;
      if (t.to === to) return true;
      seen.add(t.to);
      queue.push(t.to);
    }
  }
  return false;
}

/** The status an operation body shows, if any. */
export function statusOf(body: unknown): string | undefined {
  const status = (body as { currentState?: { status?: unknown } } | undefined)?.currentState?.status;
  return typeof status === 'string' ? status : undefined;
}

interface OperationBody {
  quote?: unknown;
  transactions?: unknown;
  currentState?: { status?: unknown; reason?: { code?: unknown } | null };
  intent?: { type?: unknown };
}

/** What the seed and the document say an operation record shows in its state. */
function checkRecord(run: RunContext, op: OperationRecord, body: OperationBody, status: string, where: string): void {
  // A transfer takes no quote of the customer's: a 1:1 quote is generated for it.
  if (body.intent?.type === 'TRANSFER' && (body.quote === null || body.quote === undefined))
    run.fail('operation.record', `${op.name}, a transfer, has no quote (${where}); the seed gives it a generated 1:1 quote`);
  // Settling records the confirmed rail transactions.
  if (status === 'COMPLETED' && Array.isArray(body.transactions) && body.transactions.length === 0)
    run.fail('operation.record', `${op.name} is COMPLETED with no confirmed transaction (${where})`);
  // A withdrawal or swap that fails at settlement (not failed through the control API) is short of funds.
  const reason = body.currentState?.reason?.code;
  if (status === 'FAILED' && !op.failedByControl && (op.kind === 'withdrawal' || op.kind === 'swap') && reason !== 'INSUFFICIENT_BALANCE')
    run.fail(
      'operation.record',
      `${op.name}, a ${op.kind} failed at settlement, gives reason ${String(reason)}, not INSUFFICIENT_BALANCE (${where})`,
    );
}

/** Records the state the run saw an operation in (an answer's body), checking the move from the last one. */
export function observe(run: RunContext, op: OperationRecord, body: unknown, where: string): void {
  const status = statusOf(body);
  if (status === undefined) return;
  checkRecord(run, op, body as OperationBody, status, where);
  const last = op.statuses[op.statuses.length - 1];
  if (last === undefined) {
    // The first answer may already show a later state (a deposit that settles at once answers
    // COMPLETED): it must be reachable from an initial state, whose move into it is then known.
    if (initialOf('operation', status)) {
      op.statuses.push(status);
      return;
    }
    const from = initialStates('operation').find((entry) => reachable(entry.state, status));
    if (!from) run.fail('lifecycle.transition', `${op.name} was first seen ${status}, not reachable from an initial state (${where})`);
    op.statuses.push(...(transitionOf('operation', from.state, status) ? [from.state] : []), status);
    return;
  }
  if (last !== status) {
    if (isTerminal('operation', last))
      run.fail('lifecycle.transition', `${op.name} left ${last}, a terminal state, for ${status} (${where})`);
    if (!reachable(last, status))
      run.fail('lifecycle.transition', `${op.name} moved ${last} → ${status}, not a declared transition (${where})`);
  }
  if (last !== status) op.statuses.push(status);
}

const accepted = (answer: HttpAnswer) => answer.status >= 200 && answer.status < 300;

/** The quote rule on an operation's answer: a used quote is refused, an accepted one becomes used. */
export function checkQuoteUse(run: RunContext, quote: QuoteRecord, opName: string, answer: HttpAnswer): void {
  if (injected(answer)) return; // a fault the run injected answered: the target never saw the request
  if (quote.usedBy !== undefined) {
    if (accepted(answer))
      run.fail('quote.consumed-once', `${quote.name} was accepted again (${opName}, ${answer.status}) after ${quote.usedBy} consumed it`);
    const refusal = code(answer).trim();
    if (answer.status < 400 || answer.status >= 500 || !['QUOTE_ALREADY_CONSUMED', 'QUOTE_EXPIRED'].includes(refusal))
      run.fail(
        'quote.consumed-once',
        `${quote.name}, consumed by ${quote.usedBy}, was refused with ${answer.status}${code(answer)}, not 409 QUOTE_ALREADY_CONSUMED`,
      );
    return;
  }
  if (accepted(answer)) quote.usedBy = opName;
}
