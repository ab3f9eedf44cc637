// Benchmark 4 of the issue: webhook fan-out. For 1, 10 and 100 subscriptions (made through the
// API, all to one local receiver, mock/receiver answering 200) the mock, in its own process
// (bench/servers/webhook-mock.ts), is made to fire OPERATION_REQUESTED events and deliver them.
// - burst: enough events for `deliveries` deliveries, fired as fast as possible; deliveries/s
//   from the first event to the last arrival (target ≥ 2,000/s).
// - paced: events at a steady `perSecond` deliveries a second for `durationS` (a healthy
//   subscriber under a load it can take); the delay from each event (its atTime) to its arrival,
//   p50 and p99 (target p99 < 50 ms).
// Subscription counts alternate over several rounds, each in its own mock process; medians.
// A delivery that does not arrive within a minute is reported (missing): the run is invalid.
import { randomUUID } from 'node:crypto';
import { median } from './lib/load';
import { tableRow } from './lib/markdown';
import { freePort, memoryOf, startServer, type Server } from './lib/processes';
import { startReceiver, type Receiver } from '../mock/receiver/receiver';
import { tokenFrom } from './lib/targets';
import { tsServer } from './lib/ts-server';

export interface WebhookOptions {
  subscriptions: number[];
  /** Deliveries per burst (events = deliveries / subscriptions). */
  deliveries: number;
  /** Deliveries a second in the paced phase. */
  perSecond: number;
  durationS: number;
  rounds: number;
}

export interface WebhookRow {
  subscriptions: number;
  burstEvents: number;
  /** Burst: deliveries a second, first event to last arrival. */
  deliveriesPerS: number;
  pacedEventsPerS: number;
  /** Paced: deliveries a second achieved (should equal the offered rate). */
  pacedDeliveriesPerS: number;
  p50: number;
  p99: number;
  max: number;
  /** Deliveries that never arrived, over all rounds. */
  missing: number;
  peakRssMb: number;
}

export interface WebhookResult {
  deliveries: number;
  perSecond: number;
  durationS: number;
  rounds: number;
  rows: WebhookRow[];
}

const ARRIVAL_TIMEOUT_MS = 60_000;

/** One subscription count: its mock process and what was measured on it. */
interface Subject {
  subscriptions: number;
  server: Server;
  bursts: number[];
  paced: Array<{ rate: number; p50: number; p99: number; max: number }>;
  missing: number;
}

export async function webhooks(options: WebhookOptions): Promise<WebhookResult> {
  const receiver = await startReceiver();
  const subjects: Subject[] = [];
  try {
    for (const subscriptions of options.subscriptions) subjects.push(await startSubject(subscriptions, receiver));
    // Warm-up (not reported): connections to the receiver open, hot paths compiled.
    for (const subject of subjects) await run(subject, receiver, Math.max(1, Math.round(burstEvents(subject, options) / 10)), 0);
    for (let round = 0; round < options.rounds; round++) {
      // Subscription counts alternate, in reverse order every other round (a shared machine).
      for (const subject of round % 2 === 0 ? subjects : [...subjects].reverse()) {
        const burst = await run(subject, receiver, burstEvents(subject, options), 0);
        subject.bursts.push(burst.delays.length / ((burst.lastArrival - burst.startedAt) / 1000));
        const perS = options.perSecond / subject.subscriptions;
        const steady = await run(subject, receiver, Math.max(1, Math.round(perS * options.durationS)), perS);
        const sorted = steady.delays.sort((a, b) => a - b);
        subject.paced.push({
          rate: sorted.length / ((steady.lastArrival - steady.startedAt) / 1000),
          p50: percentile(sorted, 0.5),
          p99: percentile(sorted, 0.99),
          max: sorted[sorted.length - 1] ?? 0,
        });
      }
    }
    const rows = subjects.map((subject) => ({
      subscriptions: subject.subscriptions,
      burstEvents: burstEvents(subject, options),
      deliveriesPerS: median(subject.bursts),
      pacedEventsPerS: options.perSecond / subject.subscriptions,
      pacedDeliveriesPerS: median(subject.paced.map((p) => p.rate)),
      p50: median(subject.paced.map((p) => p.p50)),
      p99: median(subject.paced.map((p) => p.p99)),
      max: Math.max(...subject.paced.map((p) => p.max)),
      missing: subject.missing,
      peakRssMb: memoryOf(subject.server.child.pid).peakMb,
    }));
    return { deliveries: options.deliveries, perSecond: options.perSecond, durationS: options.durationS, rounds: options.rounds, rows };
  } finally {
    await Promise.all(subjects.map((s) => s.server.stop()));
    await receiver.close();
  }
}

const burstEvents = (subject: Subject, options: WebhookOptions) => Math.max(1, Math.round(options.deliveries / subject.subscriptions));

/** A mock process with `subscriptions` subscriptions, made through its API, to the receiver. */
async function startSubject(subscriptions: number, receiver: Receiver): Promise<Subject> {
  process.stdout.write(`webhooks: starting a mock with ${subscriptions} subscription(s)\n`);
  const port = await freePort();
  const server = await startServer(
    tsServer({
      name: `fos-mock (${subscriptions} subscriptions)`,
      script: 'webhook-mock.ts',
      args: [String(port)],
      port,
      probe: { path: '/_mock/health' },
    }),
  );
  try {
    const token = await tokenFrom(server.url);
    for (let i = 0; i < subscriptions; i++) {
      const res = await fetch(`${server.url}/api/subscriptions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'x-idempotency-key': randomUUID() },
        body: JSON.stringify({ url: `${receiver.url}/hook/${i}`, resources: [{ name: 'OPERATION', events: ['OPERATION_REQUESTED'] }] }),
      });
      if (res.status !== 201) throw new Error(`webhooks: subscription refused (${res.status}): ${await res.text()}`);
    }
    return { subscriptions, server, bursts: [], paced: [], missing: 0 };
  } catch (error) {
    await server.stop();
    throw error;
  }
}

/** Fires `events` events (`perS` a second, 0: at once) and waits for their deliveries. */
async function run(subject: Subject, receiver: Receiver, events: number, perS: number) {
  receiver.clear();
  const answer = await fetch(`${subject.server.url}/_bench/fire?count=${events}&perSecond=${perS}`, { method: 'POST' });
  if (answer.status !== 200) throw new Error(`webhooks: firing events failed (${answer.status}): ${await answer.text()}`);
  const fired = (await answer.json()) as { startedAt: number };
  const expected = events * subject.subscriptions;
  // Rejects at the time-out: what did not arrive is counted as missing.
  await receiver.waitFor(expected, ARRIVAL_TIMEOUT_MS).catch(() => undefined);
  const arrived = [...receiver.received];
  subject.missing += expected - arrived.length;
  // Each delivery's delay: its arrival (wall clock, sub-millisecond) less the event's own time
  // (atTime, whole milliseconds and truncated, so a delay reads up to 1 ms long).
  const delays = arrived.map((d) => d.at - Date.parse((JSON.parse(d.body) as { atTime: string }).atTime));
  return { startedAt: fired.startedAt, lastArrival: arrived[arrived.length - 1]?.at ?? 0, delays };
}

/** Nearest-rank percentile of ascending values. */
function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))] as number;
}

/** The Markdown section for latest.md. */
export function webhookMarkdown(result: WebhookResult): string[] {
  return [
    '## Webhook fan-out (benchmark 4)',
    '',
    'One local receiver (plain Node http, answers 200 at once), subscriptions to OPERATION_REQUESTED. ' +
      `Burst: ${result.deliveries} deliveries' worth of events fired at once, deliveries/s from the first event to the last arrival. ` +
      `Paced: ${result.perSecond} deliveries/s for ${result.durationS} s, delay from the event's atTime to its arrival. ` +
      `${result.rounds} rounds after a warm-up; medians (max: over all rounds).`,
    '',
    tableRow([
      'subscriptions',
      'burst events',
      'burst deliveries/s',
      'paced events/s',
      'paced deliveries/s',
      'delay p50 ms',
      'delay p99 ms',
      'delay max ms',
      'missing',
      'peak RSS MB',
      'targets (≥ 2,000/s; p99 < 50 ms)',
    ]),
    '|---|---|---|---|---|---|---|---|---|---|---|',
    ...result.rows.map((r) =>
      tableRow([
        r.subscriptions,
        r.burstEvents,
        r.deliveriesPerS.toFixed(0),
        r.pacedEventsPerS.toFixed(1),
        r.pacedDeliveriesPerS.toFixed(0),
        r.p50.toFixed(1),
        r.p99.toFixed(1),
        r.max.toFixed(1),
        r.missing,
        r.peakRssMb.toFixed(0),
        `${r.deliveriesPerS >= 2000 ? 'met' : 'missed'}; ${r.p99 < 50 ? 'met' : 'missed'}`,
      ]),
    ),
  ];
}
