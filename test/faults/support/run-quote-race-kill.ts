// Run 3: a replica killed during a race on one quote. Three replicas on one Redis; in each round a
// fresh quote, and `racers` deposits with it sent at once, spread over the three replicas (each
// with its own idempotency key); while they run, one replica gets SIGKILL (a different one each
// round, after a different delay, so the kill lands at different points of the race). The killed
// replica is started again before the next round. The delays are fractions of how long a race
// without a kill takes on this machine (one is run first, under the same rules, to measure it).
//
// Still exactly one winner: at most one 201 among the answers, every other answer 409
// QUOTE_ALREADY_CONSUMED (or a network error on the killed replica), and, listed afterwards
// through a live replica, exactly one operation referencing the quote, whether or not the
// winner's answer reached its client; the quote reads CONSUMED by that operation.
import { performance } from 'node:perf_hooks';
import { Findings, type Figures, type RunResult } from './findings';
import { freshCustomer, REPLICAS, sleep, startFaultCluster, type FaultCluster } from './fault-cluster';
import { JOB_LEASE_MS, type FaultSizes } from './sizes';
import { describeOutcome, expectAnswer, listAll, type Outcome } from './timed-client';

export const QUOTE_RACE_RULES = {
  oneWinnerAnswer: 'at most one racer gets 201',
  losersRefused: 'every other racer gets 409 QUOTE_ALREADY_CONSUMED, or a network error from the killed replica (no 5xx, no hang)',
  oneOperation: 'exactly one operation references the quote afterwards (the 201 one, if it was answered), and the quote is CONSUMED by it',
  noCrash: 'the replicas that were not killed keep running',
} as const;

/** When a round kills its replica, as a fraction of a race's length (real time after the racers are sent), taken in turn. */
const KILL_AT = [0.25, 0.5, 0.1, 0.75, 0.4, 0.6, 0.05, 0.9];
/** Races without a kill first; the last one's length is the race's length. */
const CALIBRATION_RACES = 2;

interface Operation {
  id: string;
  quote?: { id: string };
}

export async function runQuoteRaceKill(sizes: FaultSizes): Promise<RunResult> {
  const started = performance.now();
  const findings = new Findings(QUOTE_RACE_RULES);
  const figures: Figures = {};
  const cluster: FaultCluster = await startFaultCluster({ env: { JOB_LEASE_MS: String(JOB_LEASE_MS), AUTO_SETTLE_MS: 'off' } });
  const totals = { created: 0, refused: 0, networkErrors: 0, winnerAnswered: 0, winnerUnanswered: 0 };
  const rounds: string[] = [];
  try {
    const customer = await freshCustomer(cluster);
    const account = customer.accounts[1]!;
    let raceMs = 0;
    // Rounds up to 0 kill nothing: they measure how long a race takes here, once the replicas are warm (the last one counts).
    for (let round = 1 - CALIBRATION_RACES; round <= sizes.raceRounds; round++) {
      const victim = (round + REPLICAS) % REPLICAS;
      const delay = round <= 0 ? 0 : Math.round(raceMs * KILL_AT[(round - 1) % KILL_AT.length]!);
      const label = round <= 0 ? 'a race without a kill' : `round ${round} (replica ${victim} killed after ${delay} ms)`;
      const quote = expectAnswer(
        await customer
          .on((victim + 1) % REPLICAS)
          .post('/v1/quotes', { accountId: account, sourceAsset: 'BRL', targetAsset: 'USDT', sourceAmount: '10.00' }),
        201,
        'quote',
      ).body.id as string;
      const body = { accountId: account, quoteId: quote, fundingInstruction: { rail: 'PIX' } };
      const racing: Array<Promise<{ replica: number; outcome: Outcome }>> = Array.from({ length: sizes.racers }, async (_, k) => ({
        replica: k % REPLICAS,
        outcome: await customer.on(k % REPLICAS).post('/v1/operations/deposits', body),
      }));
      const sentAt = performance.now();
      let answers: Array<{ replica: number; outcome: Outcome }>;
      if (round <= 0) {
        answers = await Promise.all(racing);
        raceMs = performance.now() - sentAt;
        figures.raceWithoutKillMs = Math.round(raceMs);
      } else {
        await sleep(delay);
        const killing = cluster.kill(victim);
        killing.catch(() => undefined); // awaited below, where a failure is thrown
        answers = await Promise.all(racing);
        await killing;
      }

      const winners = answers.filter((a) => a.outcome.kind === 'answer' && a.outcome.status === 201);
      if (winners.length > 1) findings.problem('oneWinnerAnswer', `${label}: ${winners.length} racers got 201`);
      let networkErrors = 0;
      for (const { replica, outcome } of answers) {
        if (outcome.kind === 'answer' && outcome.status === 201) continue;
        if (outcome.kind === 'answer' && outcome.status === 409 && outcome.body?.code === 'QUOTE_ALREADY_CONSUMED') continue;
        if (outcome.kind === 'network' && replica === victim && round > 0) {
          networkErrors++;
          continue;
        }
        findings.problem('losersRefused', `${label}, a racer on replica ${replica}: ${describeOutcome(outcome)}`);
      }

      // What the service holds, read through a live replica.
      const api = customer.on(cluster.live()[0]!);
      const consumers = (await listAll<Operation>(api, '/v1/operations')).filter((op) => op.quote?.id === quote);
      const winnerId = winners[0]?.outcome.kind === 'answer' ? (winners[0].outcome.body.id as string) : undefined;
      const read = expectAnswer(await api.get(`/v1/quotes/${quote}`), 200, 'read the quote').body;
      if (consumers.length !== 1)
        findings.problem(
          'oneOperation',
          `${label}: ${consumers.length} operations reference the quote (${winners.length} answered 201); ` +
            `the quote reads ${read.status} by ${read.operationId ?? 'no operation'}`,
        );
      else if (winnerId !== undefined && consumers[0]!.id !== winnerId)
        findings.problem('oneOperation', `${label}: the operation is ${consumers[0]!.id}, the 201 said ${winnerId}`);
      if (consumers.length === 1 && (read.status !== 'CONSUMED' || read.operationId !== consumers[0]!.id))
        findings.problem(
          'oneOperation',
          `${label}: the quote reads ${read.status} by ${read.operationId}, not CONSUMED by ${consumers[0]!.id}`,
        );

      for (const i of cluster.crashed())
        findings.problem('noCrash', `${label}: replica ${i} is no longer running:\n${cluster.replicas.output[i]}`);
      if (round <= 0) continue;
      totals.created += winners.length;
      totals.refused += answers.length - winners.length - networkErrors;
      totals.networkErrors += networkErrors;
      if (consumers.length === 1) totals[winnerId === undefined ? 'winnerUnanswered' : 'winnerAnswered']++;
      rounds.push(`${round}: replica ${victim} at ${delay} ms, ${winners.length}×201 ${networkErrors}×dropped ${consumers.length} op`);
      await cluster.restart(victim);
    }
    figures.answered201 = totals.created;
    figures.answered409 = totals.refused;
    figures.droppedByTheKill = totals.networkErrors;
    figures.winnerAnswered = totals.winnerAnswered;
    figures.winnerNotAnswered = totals.winnerUnanswered;
    figures.roundDetails = rounds.join('; ');
  } finally {
    await cluster.close();
  }
  return {
    run: '3',
    title: 'a replica killed during a race on one quote',
    sizes: { replicas: REPLICAS, racers: sizes.racers, rounds: sizes.raceRounds },
    figures,
    rules: findings.results(),
    elapsedMs: performance.now() - started,
  };
}
