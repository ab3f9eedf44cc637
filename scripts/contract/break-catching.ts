// The contract suite's power, measured: deliberate contract breaks, applied to the mock one at a
// time WITHOUT touching its source, each run against the part of the suite that should notice.
// A break the suite does not fail on is a hole in the suite.
//
// How a break is made (all in this process; the mock's files are not edited):
//   - a front app in front of the mock's request listener that rewrites answers (a field dropped, a
//     type changed, a status changed, a header dropped or mangled, a content type changed) or
//     requests (an idempotency key supplied when the client sent none);
//   - createApp options: `handlers` (a handler wrapped: 200 instead of 201, a leaky lookup, a
//     delete that deletes nothing, totals over every page), `store` (a MemoryStore whose quotes
//     are never marked consumed, whose idempotency keys ignore the body), `deliver` (webhooks
//     without X-Event-Type, payloads without atTime), `config` (another token lifetime);
//   - after start: a service or dependency swapped (a cursor codec that does not check its MAC,
//     a token check that does not check signatures).
// Responses are not validated by the mock itself (config.strictResponses=false), or it would turn
// each break into its own 500. The suite runs as for any URL target (CONTRACT_BASE_URL, control
// API on, --runInBand), only the test files named for the break (jest path patterns).
//
// First a baseline: the same files against the unbroken mock (same options) must pass, or a
// "catch" would mean nothing. Then each break must make at least one test fail.
//
//   npx tsx scripts/contract/break-catching.ts [--all] [--only id,id] [--jobs N]
//     --all      run the whole suite for every break (slow), not just the break's files
//     --only     run only these breaks (ids from the table)
//     --jobs N   breaks run N at a time (default 1; each has its own mock and jest process)
//
// The breaks live in ./breaks/, one file per kind: responses.ts (answers rewritten), records.ts
// (records rewritten within the document), codes.ts (refusals with another status or code),
// requests.ts (requests changed on the way in), headers.ts (headers dropped, mangled or made up),
// handlers.ts (handlers wrapped), stores.ts (a store that keeps too little), services.ts (cursors,
// tokens, webhooks); front.ts holds the apps in front, index.ts the table order, runner.ts the
// baseline, the runs and the table, record.ts the run written as JSON for `npm run rules:table`.
// Each break declares the rules of contract-tests/rules/catalogue.ts it breaks.
import { main } from './breaks/runner';
import { runMain } from './lib';

runMain(main);
