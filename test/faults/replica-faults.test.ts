// Fault runs with real processes: replicas of the mock (`fos-mock serve --redis`) killed with
// SIGKILL, and their Redis stopped, while clients and a webhook subscriber keep working. Each run
// is a scenario in test/faults/support/ (shared with `npm run test:faults`, which runs them at full
// size and writes bench/results/fault-runs.md); here at small sizes (FAULTS_* variables scale them).
// A run goes once, in beforeAll, and each test is one rule it must leave holding, failing with the
// problems seen against that rule (the first ones and a count).
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { problemsOf, summaryLine, type RunResult } from './support/findings';
import { REDIS_OUTAGE_RULES, runRedisOutage } from './support/run-redis-outage';
import { QUOTE_RACE_RULES, runQuoteRaceKill } from './support/run-quote-race-kill';
import { runWebhooksThroughKill, WEBHOOK_KILL_RULES } from './support/run-webhooks-kill';
import { faultSizes } from './support/sizes';
import { redisServerPath } from '../support/redis-server';
import { describeWithRedis } from '../support/redis-suite';

const SIZES = faultSizes(false);
/** A hang guard for one run (its beforeAll): the runs wait for what they need, for minutes on a busy machine. */
const RUN_MS = 600_000;

/** A describe that needs redis-server: without it, skipped with one line (failed under CI=true), as describeWithRedis does. */
function describeFaults(name: string, body: () => void): void {
  // The runs start their own redis-server (with the options each needs); describeWithRedis's is only for its skip and CI rules.
  if (redisServerPath() === undefined) describeWithRedis(name, () => body());
  else describe(name, body);
}

/** Runs the scenario once, then one test per rule: the rule's problems must be none. */
function rules(run: () => Promise<RunResult>, texts: Readonly<Record<string, string>>): void {
  let result: RunResult | undefined;
  beforeAll(async () => {
    result = await run();
  }, RUN_MS);
  afterAll(() => {
    if (result) console.log(summaryLine(result));
  });
  for (const [id, text] of Object.entries(texts))
    it(text, () => {
      if (!result) throw new Error('the run did not finish (see the error of its beforeAll)');
      expect(problemsOf(result, id)).toEqual([]);
    });
}

describeFaults(
  `run 1: three replicas on one Redis, one killed with SIGKILL half-way through producing ${SIZES.events} events ` +
    'for a subscriber that fails every third attempt',
  () => rules(() => runWebhooksThroughKill(SIZES), WEBHOOK_KILL_RULES),
);

describeFaults(
  `run 2: Redis killed for ${SIZES.outageMs / 1000} s and started again while ${SIZES.outageClientsPerReplica * 3} client loops ` +
    'send reads and deposits to three replicas',
  () => rules(() => runRedisOutage(SIZES), REDIS_OUTAGE_RULES),
);

describeFaults(
  `run 3: a replica killed with SIGKILL during a ${SIZES.racers}-way race on one quote over three replicas (${SIZES.raceRounds} races)`,
  () => rules(() => runQuoteRaceKill(SIZES), QUOTE_RACE_RULES),
);
