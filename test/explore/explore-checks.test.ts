// The checks each generated run makes, one deliberate break of scripts/contract/breaks each: the
// search names the check the break defeats. Up to 200 runs each: the search ends at the first
// failure, so a caught break costs only the runs it takes. Seeds are fixed; no search is bounded
// by time. And without a receiver, the report says the events were not checked.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { explore, formatReport, markdownReport, type ExploreOptions, type ExploreReport } from '../../mock/explore';
import type { RunningMock } from '../../scripts/contract/lib';
import { listeningMock, type ListeningMock } from '../scenarios/support';
import { brokenMock } from './support';

let plain: ListeningMock;
beforeAll(async () => {
  plain = await listeningMock();
});
afterAll(() => plain.stop());

function search(url: string, options: Partial<ExploreOptions> = {}): Promise<ExploreReport> {
  return explore({
    url,
    rate: 0,
    seed: 1,
    runs: 200,
    timeMs: 0,
    shrinkMs: 60_000,
    maxSteps: 20,
    command: 'jest test/explore/explore-checks.test.ts',
    ...options,
  });
}

describe('explore against a mock with a deliberate break', () => {
  it.each([
    ['delete-is-a-no-op', 'records.read-back', 'a deleted subscription is still read', /was deleted, then GET answered 200, not 404/],
    ['quote-rounds-up', 'quote.amounts', "a quote's target amount rounded up", /not [\d.]+ \(rounded down\)/],
    ['token-lifetime-3600', 'token.lifetime', 'a token that lasts an hour', /expiresIn 3600, not 82800/],
    ['webhook-no-attime', 'events.payload', 'events delivered without atTime', /required property 'atTime'/],
    ['replay-unmarked', 'idempotency.replay', 'a replay without X-Idempotent-Replayed', /without X-Idempotent-Replayed: true/],
    ['key-not-required', 'refusal.invalid-request', 'a POST without a key served', /with no-key answered 2\d\d/],
    ['cursor-not-verified', 'refusal.invalid-request', 'a tampered cursor accepted', /with bad-cursor answered 200/],
    ['invalid-client-as-400', 'refusal.invalid-request', 'a wrong secret answered 400', /with bad-secret answered 400/],
    ['version-header-ignored', 'refusal.invalid-request', 'an unknown X-Service-Version served', /with bad-version answered 200/],
    ['same-asset-rate', 'quote.amounts', 'a same-asset quote at another rate', /not 1 \(1:1 for one asset\)/],
    ['unknown-quote-as-404', 'quote.refusals', 'an unknown quote answered 404', /not 422 QUOTE_NOT_FOUND/],
    ['transfer-without-quote', 'operation.record', 'a transfer without its quote', /has no quote/],
    [
      'settled-without-transactions',
      'operation.record',
      'a settled operation without transactions',
      /COMPLETED with no confirmed transaction/,
    ],
    ['sort-default-ascending', 'pages.complete', 'the default order ascending', /without sortOrder/],
    ['key-shared-by-customers', 'tenancy.isolation', "one customer's key taken for another's", /another customer's idempotency key/],
  ])('When the mock has %s, then %s fails (%s)', async (id, check, _what, message) => {
    const broken: RunningMock = await brokenMock(id);
    try {
      const report = await search(broken.url);
      expect(report.result.failed?.failure.check).toBe(check);
      expect(report.result.failed!.failure.message).toMatch(message);
    } finally {
      await broken.close();
    }
  });
});

describe('explore without a receiver', () => {
  it('When --no-receiver is given, then the report says events are not checked and counts no event check as held', async () => {
    const report = await search(plain.url, { runs: 3, maxSteps: 10, noReceiver: true });
    expect(report.result.failed?.failure.message).toBeUndefined();
    expect(report.target.receiver).toBe(false);
    const text = formatReport(report);
    expect(text).toContain('events not checked (no receiver it can reach)');
    expect(text).toMatch(/^not checked: .*lifecycle\.events.*\(no receiver the target can reach\)$/m);
    expect(text).toMatch(/^not checked: .*events\.payload.*\(no receiver the target can reach\)$/m);
    const markdown = markdownReport(report);
    expect(markdown).toContain('| `lifecycle.events` |');
    for (const check of ['lifecycle.events', 'events.payload'])
      expect(markdown).toMatch(new RegExp(`\\| \`${check.replace('.', '\\.')}\` \\|[^\\n]*\\| not checked \\|`));
  });
});
