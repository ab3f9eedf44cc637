// Run 2: Redis stopped under load. Three replicas on one redis-server (appendfsync always); client
// loops send reads (a page of accounts, a page of operations) and writes (a quote, then a deposit
// with it) to every replica, each with a 10 s client-side time-out. After a warm-up the
// redis-server process is killed (SIGKILL: a crash, the worst way to stop), kept down for a while
// and started again on the same port and data folder; the loads go on throughout.
//
// What must hold: nothing hangs and no replica crashes; every answer is a 2xx or the 503 Error
// body; while Redis is down every answer is 503 SERVICE_UNAVAILABLE with the Error body and an
// X-Request-Id, within a few seconds; once Redis is back every replica serves 200s again by itself
// within a bounded time; and every write acknowledged with a 2xx (before the stop, during the
// edges of the outage, after it) is there afterwards.
import { performance } from 'node:perf_hooks';
import { Findings, type Figures, type RunResult } from './findings';
import { freshCustomer, REPLICAS, sleep, startFaultCluster, type FaultCluster } from './fault-cluster';
import { JOB_LEASE_MS, type FaultSizes } from './sizes';
import { CALL_TIMEOUT_MS, describeOutcome, expectAnswer, listAll, type Outcome } from './timed-client';

export const REDIS_OUTAGE_RULES = {
  noHang: `no request hangs (client time-out ${CALL_TIMEOUT_MS / 1000} s) or meets a closed connection, and no replica crashes`,
  okOr503: 'every answer is a 2xx or 503 SERVICE_UNAVAILABLE with the Error body and an X-Request-Id (never a 500)',
  outage503: 'while Redis is down, every request answers 503 SERVICE_UNAVAILABLE with the Error body and an X-Request-Id',
  fast503: 'every 503 answers within 5 s',
  recovers: 'once Redis is back, every replica answers 200 again by itself within 20 s',
  durable: 'every write acknowledged with a 2xx (before the stop and after) is there afterwards',
} as const;

const MAX_503_MS = 5_000;
const RECOVERY_LIMIT_MS = 20_000;
/** After a non-2xx answer a loop waits this long: the outage is hammered, not spun on. */
const PAUSE_AFTER_ERROR_MS = 25;
/** Load goes on this long once every replica has recovered. */
const AFTER_RECOVERY_MS = 1_000;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

interface Sent {
  replica: number;
  what: 'read accounts' | 'read operations' | 'quote' | 'deposit';
  outcome: Outcome;
}

function percentile(values: number[], p: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

export async function runRedisOutage(sizes: FaultSizes): Promise<RunResult> {
  const started = performance.now();
  const findings = new Findings(REDIS_OUTAGE_RULES);
  const figures: Figures = {};
  const cluster: FaultCluster = await startFaultCluster({
    redis: { appendfsync: 'always' },
    env: { JOB_LEASE_MS: String(JOB_LEASE_MS), AUTO_SETTLE_MS: 'off' },
  });
  try {
    const customer = await freshCustomer(cluster);
    const account = customer.accounts[1]!;
    const sent: Sent[] = [];
    const quotes: string[] = [];
    const deposits: string[] = [];
    let stop = false;

    const record = (replica: number, what: Sent['what'], outcome: Outcome) => {
      sent.push({ replica, what, outcome });
      return outcome;
    };
    const loop = async (replica: number, n: number) => {
      const api = customer.on(replica);
      for (let i = n; !stop; i++) {
        let last: Outcome;
        if (i % 2 === 0) {
          const what = i % 4 === 0 ? 'read accounts' : 'read operations';
          last = record(replica, what, await api.get(what === 'read accounts' ? '/api/accounts?limit=5' : '/v1/operations?limit=10'));
        } else {
          last = record(
            replica,
            'quote',
            await api.post('/v1/quotes', { accountId: account, sourceAsset: 'BRL', targetAsset: 'BRL', sourceAmount: '1.00' }),
          );
          if (last.kind === 'answer' && last.status === 201) {
            quotes.push(last.body.id as string);
            last = record(
              replica,
              'deposit',
              await api.post('/v1/operations/deposits', { accountId: account, quoteId: last.body.id, fundingInstruction: { rail: 'PIX' } }),
            );
            if (last.kind === 'answer' && last.status === 201) deposits.push(last.body.id as string);
          }
        }
        if (last.kind !== 'answer' || last.status >= 300) await sleep(PAUSE_AFTER_ERROR_MS);
      }
    };
    const loops = Array.from({ length: REPLICAS * sizes.outageClientsPerReplica }, (_, k) => loop(k % REPLICAS, k));

    await sleep(sizes.warmupMs);
    const stopping = performance.now();
    await cluster.redis.kill();
    const down = performance.now();
    const acknowledgedBefore = { quotes: quotes.length, deposits: deposits.length };
    await sleep(sizes.outageMs);
    const restarting = performance.now();
    await cluster.redis.restart();
    const up = performance.now();

    // Every replica answers a 200 to a request sent after Redis is back, within the bound.
    const recoveredAt: Array<number | undefined> = Array.from({ length: REPLICAS }, () => undefined);
    while (performance.now() - up < RECOVERY_LIMIT_MS && recoveredAt.some((at) => at === undefined)) {
      for (const s of sent)
        if (s.outcome.kind === 'answer' && s.outcome.status < 300 && s.outcome.sentAt >= up)
          recoveredAt[s.replica] = Math.min(recoveredAt[s.replica] ?? Infinity, s.outcome.endedAt);
      await sleep(50);
    }
    await sleep(AFTER_RECOVERY_MS);
    stop = true;
    await Promise.all(loops);

    // noHang, okOr503, outage503, fast503
    const latencies503: number[] = [];
    let duringOutage = 0;
    for (const { replica, what, outcome } of sent) {
      const label = `${what} on replica ${replica}`;
      if (outcome.kind !== 'answer') {
        findings.problem('noHang', `${label}: ${describeOutcome(outcome)}`);
        continue;
      }
      const is503 =
        outcome.status === 503 &&
        outcome.body?.code === 'SERVICE_UNAVAILABLE' &&
        typeof outcome.body?.message === 'string' &&
        UUID.test(String(outcome.headers['x-request-id']));
      if (outcome.status === 503) latencies503.push(outcome.ms);
      if (outcome.status >= 300 && !is503) findings.problem('okOr503', `${label}: ${describeOutcome(outcome)}`);
      // Sent once Redis was down, answered before it was started again: the outage, and nothing else.
      if (outcome.sentAt >= down && outcome.endedAt <= restarting) {
        duringOutage++;
        if (!is503)
          findings.problem(
            'outage503',
            `${label}, sent ${Math.round(outcome.sentAt - down)} ms into the outage: ${describeOutcome(outcome)}`,
          );
      }
      if (outcome.status === 503 && outcome.ms > MAX_503_MS)
        findings.problem('fast503', `${label}: 503 after ${Math.round(outcome.ms)} ms`);
    }
    if (duringOutage === 0) findings.problem('outage503', 'no request was sent and answered while Redis was down: the run proved nothing');
    for (const i of cluster.crashed()) findings.problem('noHang', `replica ${i} is no longer running:\n${cluster.replicas.output[i]}`);

    // recovers
    recoveredAt.forEach((at, i) => {
      if (at === undefined)
        findings.problem('recovers', `replica ${i} answered no 200 within ${RECOVERY_LIMIT_MS / 1000} s of Redis being back`);
    });

    // durable: read back through every replica in turn.
    const readers = cluster.live().map((i) => customer.on(i));
    const listed = new Set((await listAll<{ id: string }>(readers[0]!, '/v1/operations')).map((op) => op.id));
    deposits.forEach((id, k) => {
      if (!listed.has(id)) findings.problem('durable', `acknowledged deposit ${id} (#${k + 1}) is not in the operations list`);
    });
    for (let k = 0; k < quotes.length; k += 16) {
      await Promise.all(
        quotes.slice(k, k + 16).map(async (id, j) => {
          const read = await readers[(k + j) % readers.length]!.get(`/v1/quotes/${id}`);
          if (read.kind !== 'answer' || read.status !== 200)
            findings.problem('durable', `acknowledged quote ${id}: ${describeOutcome(read)}`);
        }),
      );
    }
    expectAnswer(await readers[0]!.get('/api/accounts?limit=5'), 200, 'a read at the end');

    const answered = sent.filter((s) => s.outcome.kind === 'answer');
    figures.requests = sent.length;
    figures.requestsDuringOutage = duringOutage;
    figures.answered503 = latencies503.length;
    figures.max503Ms = Math.round(Math.max(0, ...latencies503));
    figures.p50_503Ms = Math.round(percentile(latencies503, 50));
    figures.answered2xx = answered.filter((s) => s.outcome.kind === 'answer' && s.outcome.status < 300).length;
    figures.redisKillMs = Math.round(down - stopping);
    figures.outageMs = Math.round(up - down);
    figures.redisRestartMs = Math.round(up - restarting);
    const recovery = recoveredAt.map((at) => (at === undefined ? NaN : Math.round(at - up)));
    figures.recoverMs = Math.max(...recovery);
    figures.recoverMsPerReplica = recovery.join(' / ');
    figures.writesAcknowledgedBeforeStop = acknowledgedBefore.quotes + acknowledgedBefore.deposits;
    figures.writesAcknowledged = quotes.length + deposits.length;
    figures.writesFoundAfterwards = quotes.length + deposits.length - findings.count('durable');
  } finally {
    await cluster.close();
  }
  return {
    run: '2',
    title: 'Redis stopped under load',
    sizes: {
      replicas: REPLICAS,
      clientLoops: REPLICAS * sizes.outageClientsPerReplica,
      warmupMs: sizes.warmupMs,
      outageMs: sizes.outageMs,
    },
    figures,
    rules: findings.results(),
    elapsedMs: performance.now() - started,
  };
}
