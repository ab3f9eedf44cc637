// Run 1: a replica killed while events are produced. Three replicas on one Redis (appendfsync
// always), a subscriber that fails every third attempt, one subscription with allowRetry for the
// operations' REQUESTED and COMPLETED events. Deposits are made through all three replicas (each
// emits OPERATION_REQUESTED at creation and OPERATION_COMPLETED when its auto-settlement job runs,
// AUTO_SETTLE_MS later); half-way, one replica gets SIGKILL. The clock runs, and AUTO_SETTLE_MS is
// a second, so settlements, first deliveries and early retries are jobs running on every replica
// while it dies. Then the run moves the clock (POST /_mock/clock/advance through a live replica,
// then POST /_mock/webhooks/idle) through the auto-settle delay and the retry schedule, and after
// that waits out the jobs' lease (JOB_LEASE_MS, real time) and moves it again, in rounds, so
// another replica runs whatever the killed one held.
//
// Only 2xx answers count as acknowledged: a request that hit the killed replica and got a network
// error may or may not have made its operation (that one is reported, and its settlement counted
// in the balance if it settled, but nothing is required of it).
//
// "In flight at the kill": an attempt the killed replica had sent (the last request on one of its
// connections to the subscriber, which closed when it died) and did not see through: the
// execution logs hold fewer attempts of that message than the subscriber received, or the
// message was delivered again after a SUCCESS. Such messages are counted and reported, exempt from
// the no-redelivery and logs-equal-attempts rules, and bounded.
import Decimal from 'decimal.js';
import { performance } from 'node:perf_hooks';
import { Findings, type Figures, type RunResult } from './findings';
import { freshCustomer, sleep, startFaultCluster, type FaultCluster } from './fault-cluster';
import { JOB_LEASE_MS, type FaultSizes } from './sizes';
import { startSubscriber, type Attempt, type Subscriber } from './subscriber';
import { CONTROL_TIMEOUT_MS, describeOutcome, expectAnswer, listAll, type Outcome } from './timed-client';

export const WEBHOOK_KILL_RULES = {
  delivered:
    'every event of every deposit the service stored is delivered with SUCCESS at least once: acknowledged ones, and ones ' +
    'the killed replica stored before it could answer',
  oneMessageId: 'each event is delivered under exactly one message id, and a message id always carries the same event and body',
  noRedelivery: 'no message is delivered again after its SUCCESS, except messages in flight on the killed replica at the kill (at most 16)',
  settledOnce: 'every acknowledged deposit is COMPLETED, settled exactly once: the balance is the start plus each settled deposit once',
  logsMatch: 'the execution logs are the attempts the subscriber received, message by message (messages in flight at the kill apart)',
  liveReplicasAnswer: 'the live replicas answer every request with 2xx (no 5xx, no hang, no crash); only the killed replica drops requests',
} as const;

/** At most this many messages may be in flight on the killed replica when it dies (a replica runs 16 jobs at once). */
export const IN_FLIGHT_BOUND = 16;
const EVENT_TYPES = ['OPERATION_REQUESTED', 'OPERATION_COMPLETED'] as const;
const VICTIM = 2;
/** Settlement a second after creation (real time, the clock running): settlements run while the replica is killed. */
const AUTO_SETTLE_MS = 1_000;
/** The subscriber answers after 10 ms, as a real one might: deliveries spend time in flight, where a kill can catch them. */
const ANSWER_DELAY_MS = 10;
/** Rounds after the schedule: each waits out the lease and moves the clock an hour; stops when all is delivered, or twice nothing new. */
const MAX_EXTRA_ROUNDS = 6;
/** A control call answered 503 is asked this many times in all. */
const CONTROL_TRIES = 5;

interface ExecutionLog {
  messageId: string;
  status: 'SUCCESS' | 'FAILED';
  httpStatus: number;
  payload: string;
  retryAttempts: number;
}

interface Operation {
  id: string;
  accountId: string;
  quote?: { id: string };
  targetAmount: { asset: string; value: string };
  currentState: { status: string };
}

interface Deposit {
  id: string;
  amount: string;
}

function groupBy<T>(items: readonly T[], key: (item: T) => string): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const item of items) {
    const k = key(item);
    const list = out.get(k);
    if (list) list.push(item);
    else out.set(k, [item]);
  }
  return out;
}

/** The event an attempt or a log carries: `<resource id>/<event type>` from its body. */
function eventOf(body: string): string | undefined {
  try {
    const payload = JSON.parse(body) as { id?: unknown; eventType?: unknown };
    return typeof payload.id === 'string' && typeof payload.eventType === 'string' ? `${payload.id}/${payload.eventType}` : undefined;
  } catch {
    return undefined;
  }
}

const sortedNumbers = (values: number[]) => [...values].sort((a, b) => a - b);

/** `kill: false` runs the same scenario without the kill: the control that the harness itself holds the rules. */
export async function runWebhooksThroughKill(sizes: FaultSizes, options: { kill?: boolean } = {}): Promise<RunResult> {
  const killing = options.kill ?? true;
  const started = performance.now();
  const findings = new Findings(WEBHOOK_KILL_RULES);
  const figures: Figures = {};
  const cluster: FaultCluster = await startFaultCluster({
    redis: { appendfsync: 'always' },
    env: { JOB_LEASE_MS: String(JOB_LEASE_MS), AUTO_SETTLE_MS: String(AUTO_SETTLE_MS) },
  });
  let subscriber: Subscriber | undefined;
  try {
    const config = (await cluster.any().control('GET', '/config')).body;
    const schedule = config.retryScheduleMs as number[];
    subscriber = await startSubscriber({ neverFailFrom: schedule.length, answerDelayMs: ANSWER_DELAY_MS });
    const customer = await freshCustomer(cluster);
    const account = customer.accounts[1]!;
    const subscriptionId = expectAnswer(
      await customer.on(0).post('/api/subscriptions', {
        url: subscriber.url,
        allowRetry: true,
        resources: [{ name: 'OPERATION', events: [...EVENT_TYPES] }],
      }),
      201,
      'subscription',
    ).body.id as string;
    const balance = async () =>
      new Decimal(((await cluster.any().control('GET', `/accounts/${account}/balances`)).body.balances.BRL as string | undefined) ?? '0');
    const startBalance = await balance();

    // Deposits through all three replicas until enough are acknowledged; one replica killed half-way.
    const target = Math.ceil(sizes.events / 2);
    const acknowledged: Deposit[] = [];
    const lost = { quotes: 0, deposits: 0 };
    let pending = 0;
    let next = 0;
    let kill: Promise<{ startedAt: number; exitedAt: number }> | undefined;
    let killedAtAcknowledged = 0;
    const refused = (outcome: Outcome, replica: number, what: string) => {
      if (replica === VICTIM && kill !== undefined && outcome.kind === 'network') return true; // hit the killed replica
      findings.problem('liveReplicasAnswer', `${what} on replica ${replica}: ${describeOutcome(outcome)}`);
      return false;
    };
    const produce = async () => {
      while (acknowledged.length + pending < target && next < target * 3) {
        const j = next++;
        if (killing && kill === undefined && acknowledged.length >= target / 2) {
          killedAtAcknowledged = acknowledged.length;
          kill = cluster.kill(VICTIM);
          kill.catch(() => undefined); // awaited after the producers, where a failure is thrown
        }
        pending++;
        try {
          const live = cluster.live();
          const quoteOn = live[j % live.length]!;
          const depositOn = live[(j + 1) % live.length]!;
          const amount = (1 + (j % 100) / 100).toFixed(2);
          const quote = await customer
            .on(quoteOn)
            .post('/v1/quotes', { accountId: account, sourceAsset: 'BRL', targetAsset: 'BRL', sourceAmount: amount });
          if (quote.kind !== 'answer' || quote.status !== 201) {
            if (refused(quote, quoteOn, 'quote')) lost.quotes++;
            continue;
          }
          const deposit = await customer
            .on(depositOn)
            .post('/v1/operations/deposits', { accountId: account, quoteId: quote.body.id, fundingInstruction: { rail: 'PIX' } });
          if (deposit.kind === 'answer' && deposit.status === 201) acknowledged.push({ id: deposit.body.id as string, amount });
          else if (refused(deposit, depositOn, 'deposit')) lost.deposits++;
        } finally {
          pending--;
        }
      }
    };
    await Promise.all(Array.from({ length: sizes.producers }, produce));
    if (killing && kill === undefined) throw new Error('the replica was never killed (too few deposits to reach half-way?)');
    // Without a kill, no moment is the kill's: no connection closed at it.
    const killed = kill ? await kill : { startedAt: Infinity, exitedAt: -Infinity };
    figures.depositsAcknowledged = acknowledged.length;
    figures.killedAfterAcknowledged = killedAtAcknowledged;
    figures.quotesLostAtKill = lost.quotes;
    figures.depositsLostAtKill = lost.deposits;

    // The clock through the auto-settle delay and the retry schedule, through a live replica.
    // A control call that fails is a finding (the live replicas must answer), and the run goes on to see what was lost. A
    // 503 is asked again a few times: idle answers 503 when a replica's part takes over 30 s (a backlog of deliveries, all
    // of one subscription, so one at a time).
    const control = cluster.any();
    let retried503 = 0;
    let slowest = 0;
    const attempt = async (method: string, path: string, body?: unknown) => {
      for (let tries = 1; ; tries++) {
        const outcome = await control.call(method, `/_mock${path}`, { body, timeoutMs: CONTROL_TIMEOUT_MS });
        slowest = Math.max(slowest, outcome.ms);
        if (outcome.kind === 'answer' && outcome.status < 300) return;
        if (outcome.kind === 'answer' && outcome.status === 503 && tries < CONTROL_TRIES) {
          retried503++;
          continue;
        }
        findings.problem('liveReplicasAnswer', `${method} /_mock${path} (try ${tries}): ${describeOutcome(outcome)}`);
        return;
      }
    };
    const idle = () => attempt('POST', '/webhooks/idle');
    const advance = async (ms: number) => {
      await attempt('POST', '/clock/advance', { by: ms });
      await idle();
    };
    await idle();
    let advanced = 0;
    for (const step of [AUTO_SETTLE_MS, ...schedule]) {
      await advance(step);
      advanced += step;
    }
    const successes = () => new Set(subscriber!.attempts.filter((a) => a.status === 200).map((a) => eventOf(a.body)));
    // Every deposit stored, whether its request was answered or its replica died first (no more are made now).
    const listedIds = (await listAll<Operation>(customer.on(cluster.live()[0]!), '/v1/operations?sortOrder=ASCENDING'))
      .filter((op) => op.accountId === account)
      .map((op) => op.id);
    const storedIds = [...new Set([...acknowledged.map((d) => d.id), ...listedIds])];
    const allDelivered = () => {
      const ok = successes();
      return storedIds.every((id) => EVENT_TYPES.every((type) => ok.has(`${id}/${type}`)));
    };
    // Then wait out the lease (the killed replica's claims) and move the clock again, until all is
    // delivered or two rounds bring nothing new; at least one round, so a job re-claimed late is seen.
    let rounds = 0;
    for (let quiet = 0; rounds < MAX_EXTRA_ROUNDS && (rounds === 0 || (!allDelivered() && quiet < 2)); rounds++) {
      const before = subscriber.attempts.length;
      await sleep(JOB_LEASE_MS + 1_000);
      await advance(Math.max(...schedule));
      advanced += Math.max(...schedule);
      quiet = subscriber.attempts.length === before ? quiet + 1 : 0;
    }
    figures.mockTimeAdvancedS = advanced / 1000;
    figures.controlCallsAskedAgainAfter503 = retried503;
    figures.slowestControlCallMs = Math.round(slowest);
    figures.roundsAfterSchedule = rounds;

    // What the service says now, read through a live replica.
    const api = customer.on(cluster.live()[0]!);
    const logs = await listAll<ExecutionLog>(api, `/v1/subscriptions/${subscriptionId}/executionLogs?sortOrder=ASCENDING`);
    const operations = (await listAll<Operation>(api, '/v1/operations?sortOrder=ASCENDING')).filter((op) => op.accountId === account);
    const endBalance = await balance();
    const attempts = [...subscriber.attempts];

    // In flight at the kill: the last attempt on each connection that closed as the killed replica died.
    const byMessage = groupBy(attempts, (a) => a.messageId);
    const logsByMessage = groupBy(logs, (l) => l.messageId);
    const redeliveredAfterSuccess = (list: Attempt[]) => {
      const first = list.findIndex((a) => a.status === 200);
      return first >= 0 && first < list.length - 1;
    };
    const closedAtKill = subscriber.connections.filter(
      (c) => c.closedAt !== undefined && c.closedAt >= killed.startedAt && c.closedAt <= killed.exitedAt + 1_000 && c.attempts.length > 0,
    );
    const inFlight = new Set<string>();
    for (const connection of closedAtKill) {
      const last = attempts[connection.attempts[connection.attempts.length - 1]! - 1]!;
      const seen = byMessage.get(last.messageId) ?? [];
      const logged = logsByMessage.get(last.messageId) ?? [];
      if (logged.length < seen.length || redeliveredAfterSuccess(seen)) inFlight.add(last.messageId);
    }
    figures.connectionsClosedAtKill = closedAtKill.length;
    figures.inFlightAtKill = inFlight.size;
    figures.inFlightMessages = [...inFlight].join(' ') || '-';
    if (inFlight.size > IN_FLIGHT_BOUND)
      findings.problem(
        'noRedelivery',
        `${inFlight.size} messages in flight on the killed replica at the kill, more than ${IN_FLIGHT_BOUND}`,
      );

    // delivered
    const byEvent = groupBy(attempts, (a) => eventOf(a.body) ?? `unreadable body of ${a.messageId}`);
    const acknowledgedIds = new Set(acknowledged.map((d) => d.id));
    for (const id of new Set([...storedIds, ...operations.map((op) => op.id)]))
      for (const type of EVENT_TYPES) {
        const seen = byEvent.get(`${id}/${type}`) ?? [];
        const which = acknowledgedIds.has(id) ? 'acknowledged' : 'stored, unanswered';
        if (!seen.some((a) => a.status === 200))
          findings.problem('delivered', `${id} (${which}) ${type}: no SUCCESS (${seen.length} attempts received)`);
      }

    // oneMessageId
    for (const [event, list] of byEvent) {
      const ids = new Set(list.map((a) => a.messageId));
      if (ids.size !== 1) findings.problem('oneMessageId', `${event} arrived under ${ids.size} message ids: ${[...ids].join(', ')}`);
    }
    for (const [messageId, list] of byMessage) {
      const events = new Set(list.map((a) => eventOf(a.body)));
      const bodies = new Set(list.map((a) => a.body));
      if (events.size !== 1 || bodies.size !== 1)
        findings.problem('oneMessageId', `message ${messageId} carried ${events.size} events and ${bodies.size} bodies`);
    }
    for (const [event, list] of groupBy(logs, (l) => eventOf(l.payload) ?? `unreadable payload of ${l.messageId}`)) {
      const ids = new Set(list.map((l) => l.messageId));
      if (ids.size !== 1) findings.problem('oneMessageId', `${event} is logged under ${ids.size} message ids: ${[...ids].join(', ')}`);
    }

    // noRedelivery
    let redeliveredInFlight = 0;
    for (const [messageId, list] of byMessage) {
      if (!redeliveredAfterSuccess(list)) continue;
      if (inFlight.has(messageId)) redeliveredInFlight++;
      else {
        const first = list.findIndex((a) => a.status === 200);
        findings.problem('noRedelivery', `message ${messageId}: ${list.length - first - 1} more attempts after its SUCCESS`);
      }
    }
    figures.redeliveredAfterSuccessInFlight = redeliveredInFlight;

    // settledOnce
    const listed = groupBy(operations, (op) => op.id);
    for (const [id, list] of listed) if (list.length > 1) findings.problem('settledOnce', `operation ${id} listed ${list.length} times`);
    let expected = startBalance;
    for (const deposit of acknowledged) {
      const op = listed.get(deposit.id)?.[0];
      if (!op) findings.problem('settledOnce', `acknowledged deposit ${deposit.id} is not in the operations list`);
      else if (op.currentState.status !== 'COMPLETED')
        findings.problem('settledOnce', `acknowledged deposit ${deposit.id} is ${op.currentState.status}, not COMPLETED`);
      expected = expected.plus(deposit.amount);
    }
    const unacknowledged = operations.filter((op) => !acknowledgedIds.has(op.id));
    for (const op of unacknowledged) if (op.currentState.status === 'COMPLETED') expected = expected.plus(op.targetAmount.value);
    if (!endBalance.equals(expected))
      findings.problem(
        'settledOnce',
        `balance ${endBalance.toFixed(2)} BRL, expected ${expected.toFixed(2)} ` +
          `(start ${startBalance.toFixed(2)} plus each settled deposit once); difference ${endBalance.minus(expected).toFixed(2)}`,
      );
    const states = groupBy(unacknowledged, (op) => op.currentState.status);
    figures.unacknowledgedOperationsFound = unacknowledged.length;
    figures.unacknowledgedOperationStates = [...states].map(([status, list]) => `${status} ${list.length}`).join(', ') || '-';
    figures.balanceChange = endBalance.minus(startBalance).toFixed(2);

    // logsMatch
    let exempt = 0;
    for (const messageId of new Set([...byMessage.keys(), ...logsByMessage.keys()])) {
      const seen = byMessage.get(messageId) ?? [];
      const logged = logsByMessage.get(messageId) ?? [];
      const seenStatuses = sortedNumbers(seen.map((a) => a.status));
      const loggedStatuses = sortedNumbers(logged.map((l) => l.httpStatus));
      const same = seenStatuses.join(',') === loggedStatuses.join(',') && logged.every((l) => seen.some((a) => a.body === l.payload));
      if (same) continue;
      if (inFlight.has(messageId)) {
        exempt++;
        continue;
      }
      findings.problem(
        'logsMatch',
        `message ${messageId}: the subscriber got ${seen.length} attempts [${seenStatuses.join(',')}], ` +
          `the logs hold ${logged.length} [${loggedStatuses.join(',')}]`,
      );
    }
    figures.inFlightLogsDiffer = exempt;

    // liveReplicasAnswer: none of them crashed either.
    for (const i of cluster.crashed())
      findings.problem('liveReplicasAnswer', `replica ${i} is no longer running:\n${cluster.replicas.output[i]}`);

    figures.eventsExpected = storedIds.length * EVENT_TYPES.length;
    figures.eventsDelivered = storedIds.length * EVENT_TYPES.length - findings.count('delivered');
    figures.attemptsReceived = attempts.length;
    figures.answered500 = attempts.filter((a) => a.status === 500).length;
    figures.retriesReceived = attempts.filter((a) => a.attempt > 0).length;
    figures.messages = byMessage.size;
    figures.executionLogs = logs.length;
    figures.killToExitMs = kill ? Math.round(killed.exitedAt - killed.startedAt) : '-';
  } finally {
    await subscriber?.close();
    await cluster.close();
  }
  return {
    run: '1',
    title: killing ? 'a replica killed while events are produced' : 'events produced, no replica killed (control)',
    sizes: { events: sizes.events, producers: sizes.producers, replicas: 3, jobLeaseMs: JOB_LEASE_MS },
    figures,
    rules: findings.results(),
    elapsedMs: performance.now() - started,
  };
}
