// Assertions over a verification's verdict, for jest, vitest or any runner: a failed
// verification throws with a message that reads like WireMock's, every near miss and how it
// differs listed, so a failing test says what was sent instead of only "expected 2, got 1".
// `assertVerified` throws a plain Error (every runner reports it); `verificationMatchers` is
// the same as a matcher for `expect.extend`, which jest and vitest take alike.
import type { DeliveryVerdict, RequestVerdict } from './control-client';

type Verdict = RequestVerdict | DeliveryVerdict;
type Difference = RequestVerdict['nearMisses'][number]['differences'][number];

/** The verdict's own verdict failed. */
export class VerificationError extends Error {
  constructor(readonly verdict: Verdict) {
    super(describeVerdict(verdict));
    this.name = 'VerificationError';
  }
}

const shown = (value: unknown) => (typeof value === 'string' ? JSON.stringify(value) : (JSON.stringify(value) ?? 'nothing'));

function differenceLine(d: Difference): string {
  return `      ${d.field}: expected ${d.expected}, was ${'actual' in d ? shown(d.actual) : 'absent'}`;
}

function requestLine(entry: RequestVerdict['matches'][number]): string {
  return `${entry.method} ${entry.path} → ${entry.status} at ${entry.at} (request ${entry.requestId})`;
}

function deliveryLine(delivery: DeliveryVerdict['matches'][number]): string {
  const outcome = `${delivery.status} after ${delivery.attempts} attempt(s)`;
  return `${delivery.eventType} to subscription ${delivery.subscriptionId}: ${outcome}, at ${delivery.at} (message ${delivery.messageId})`;
}

/** The verdict as a failure message: the sentence, what matched, and each near miss with its differences. */
export function describeVerdict(verdict: Verdict): string {
  const lines = [verdict.message];
  const isDelivery = (item: object): item is DeliveryVerdict['matches'][number] => 'messageId' in item;
  const line = (item: object) => (isDelivery(item) ? deliveryLine(item) : requestLine(item as RequestVerdict['matches'][number]));
  if (verdict.matches.length > 0) {
    lines.push('Matched:');
    for (const item of verdict.matches.slice(0, 10)) lines.push(`  ${line(item)}`);
    if (verdict.matches.length > 10) lines.push(`  … and ${verdict.matches.length - 10} more`);
  }
  if (verdict.nearMisses.length > 0) {
    lines.push('Near misses (closest first):');
    verdict.nearMisses.forEach((miss, i) => {
      const item = 'entry' in miss ? miss.entry : miss.delivery;
      lines.push(`  ${i + 1}. ${line(item)}`, ...miss.differences.map(differenceLine));
    });
  } else if (!verdict.ok && verdict.count === 0) lines.push(`Nothing came close among the ${verdict.searched} searched.`);
  return lines.join('\n');
}

/** Resolves with the verdict when it holds; throws a VerificationError listing the near misses otherwise. */
export async function assertVerified<T extends Verdict>(verdict: T | Promise<T>): Promise<T> {
  const outcome = await verdict;
  if (!outcome.ok) throw new VerificationError(outcome);
  return outcome;
}

/**
 * `expect.extend(verificationMatchers)`, then `expect(await alice.verify(...)).toHold()` (jest or
 * vitest): fails with the same message as assertVerified.
 */
export const verificationMatchers = {
  toHold(received: Verdict) {
    return { pass: received.ok, message: () => describeVerdict(received) };
  },
};
