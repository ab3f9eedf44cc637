// `fos-mock explore --url <target>`: generated stateful runs checked on every answer, the first
// failure shrunk and written as a scenario. Exit 0: nothing found; 1: a failure; 2: the target
// cannot be used. Loaded on first use (fast-check, the receiver), never by `serve`.
import { writeFileSync } from 'node:fs';
import type { Command } from 'commander';
import { parseDuration } from '../domain/duration';
import { UserError } from '../scenarios/errors';
import { CHECK_NAMES } from '../explore/checks';
import { guarded, out, type Env } from './target';

interface Flags {
  url?: string;
  clientId?: string;
  clientSecret?: string;
  foreignClientId?: string;
  foreignClientSecret?: string;
  allowWrites?: boolean;
  rate?: string;
  seed?: string;
  runs?: string;
  time?: string;
  shrinkTime: string;
  maxSteps: string;
  outDir: string;
  reportMd?: string;
  junit?: string;
  allow?: string;
  compareWith?: string;
  receiver: boolean;
}

function whole(flag: string, value: string | undefined, min: number): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value) || Number(value) < min)
    throw new UserError(`${flag} must be a whole number of at least ${min} (got "${value}")`);
  return Number(value);
}

function duration(flag: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  try {
    return parseDuration(value);
  } catch {
    throw new UserError(`${flag} must be a duration such as 30s, 5m or 1h (got "${value}")`);
  }
}

/** The command line that reproduces this search: the target, the seed and the bounds (never a secret). */
function reproduce(url: string, seed: number, flags: Flags, runs: number): string {
  const parts = ['fos-mock explore', `--url ${url}`, `--seed ${seed}`];
  if (flags.runs !== undefined || flags.time === undefined) parts.push(`--runs ${runs}`);
  if (flags.time !== undefined) parts.push(`--time ${flags.time}`);
  if (flags.maxSteps !== '30') parts.push(`--max-steps ${flags.maxSteps}`);
  if (flags.clientId) parts.push(`--client-id ${flags.clientId} --client-secret "$FOS_EXPLORE_CLIENT_SECRET"`);
  if (flags.allowWrites) parts.push('--allow-writes');
  if (flags.compareWith) parts.push(`--compare-with ${flags.compareWith}`);
  // What changes the generated runs or what counts as a failure: the other customer, the pace, the allow-list.
  if (flags.foreignClientId)
    parts.push(`--foreign-client-id ${flags.foreignClientId} --foreign-client-secret "$FOS_EXPLORE_FOREIGN_SECRET"`);
  if (flags.rate !== undefined) parts.push(`--rate ${flags.rate}`);
  if (flags.allow) parts.push(`--allow ${flags.allow}`);
  if (!flags.receiver) parts.push('--no-receiver');
  return parts.join(' ');
}

/** A progress line on stderr every 5 s of a long search (runs and steps so far). */
function progress(): (done: { runs: number; steps: number }) => void {
  let next = Date.now() + 5_000;
  return ({ runs, steps }) => {
    if (Date.now() < next) return;
    next = Date.now() + 5_000;
    process.stderr.write(`explore: ${runs} runs, ${steps} steps so far\n`);
  };
}

export function registerExploreCommand(cli: Command, env: Env): void {
  cli
    .command('explore')
    .summary('generated stateful runs against a target, every answer checked; a failure shrunk to a scenario')
    .description(
      'Sends random sequences of calls built from the API document and chained on real answers (quotes, operations on them, ' +
        "replayed idempotency keys, invalid requests, another customer's ids, lists walked with their cursors; on a fos-mock also " +
        'its clock, settlement and faults) and checks every answer: ' +
        CHECK_NAMES.join(', ') +
        '. The first failure is shrunk to the fewest steps that still fail and written to --out-dir as a scenario ' +
        '(`fos-mock scenario run` replays it). Exit code 0: nothing found; 1: a failure; 2: the target cannot be used.',
    )
    .requiredOption('--url <base>', 'the target: a fos-mock, or a sandbox (then --client-id and --client-secret)', env.FOS_MOCK_URL)
    .option('--client-id <id>', 'the customer to log in as (env FOS_EXPLORE_CLIENT_ID); on a fos-mock, a fresh customer per run by default')
    .option('--client-secret <secret>', 'its secret (env FOS_EXPLORE_CLIENT_SECRET); written to no report or scenario')
    .option(
      '--foreign-client-id <id>',
      'another customer, whose ids must stay invisible (env FOS_EXPLORE_FOREIGN_CLIENT_ID; a fos-mock makes one itself)',
    )
    .option('--foreign-client-secret <secret>', 'its secret (env FOS_EXPLORE_FOREIGN_SECRET)')
    .option(
      '--allow-writes',
      'on a target that is not a fos-mock: send POST, PATCH and DELETE (quotes, operations of small amounts, records)',
    )
    .option('--rate <n>', 'requests per second at most (default: unpaced on a fos-mock, 5 elsewhere)')
    .option('--seed <n>', 'the seed of the generated runs (default: random; printed to reproduce)')
    .option('--runs <n>', 'runs at most (default 100 without --time)')
    .option('--time <duration>', 'search for this long at most, e.g. 60s or 10m')
    .option('--shrink-time <duration>', 'time for shrinking a failure at most', '2m')
    .option('--max-steps <n>', 'generated steps per run at most', '30')
    .option('--out-dir <dir>', 'where a failing run is written as a scenario', 'explore-failures')
    .option('--report-md <file>', 'write the report as Markdown')
    .option('--junit <file>', 'write the report as JUnit XML (one test case per check)')
    .option('--allow <file>', 'failures to accept: a YAML list of {check, contains?, reason?}')
    .option('--no-receiver', "check no events, even on a fos-mock on loopback (one in a container cannot reach this machine's loopback)")
    .option(
      '--compare-with <base>',
      'send every step to this second target too (mock: an in-process fos-mock) and fail on the first difference (compare.* checks)',
    )
    .action(async (flags: Flags) =>
      guarded(async () => {
        // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on first use, not by `serve`
        const tools = require('../explore') as typeof import('../explore');
        // eslint-disable-next-line @typescript-eslint/no-require-imports -- the oracle, started only when a failure is written
        const { startLocalMock } = require('./local-mock') as typeof import('./local-mock');
        const clientId = flags.clientId ?? env.FOS_EXPLORE_CLIENT_ID;
        const clientSecret = flags.clientSecret ?? env.FOS_EXPLORE_CLIENT_SECRET;
        if (Boolean(clientId) !== Boolean(clientSecret)) throw new UserError('--client-id and --client-secret go together');
        const foreignId = (flags.foreignClientId ??= env.FOS_EXPLORE_FOREIGN_CLIENT_ID);
        const foreignSecret = flags.foreignClientSecret ?? env.FOS_EXPLORE_FOREIGN_SECRET;
        if (Boolean(foreignId) !== Boolean(foreignSecret))
          throw new UserError('--foreign-client-id and --foreign-client-secret go together');
        const seed = whole('--seed', flags.seed, 0) ?? Math.floor(Math.random() * 2 ** 31);
        const timeMs = duration('--time', flags.time) ?? 0;
        const runs = whole('--runs', flags.runs, 1) ?? (timeMs > 0 ? Number.MAX_SAFE_INTEGER : 100);
        const shrinkMs = duration('--shrink-time', flags.shrinkTime) ?? 120_000;
        const maxSteps = whole('--max-steps', flags.maxSteps, 1)!;
        const rateGiven = flags.rate === undefined ? undefined : Number(flags.rate);
        if (rateGiven !== undefined && !(rateGiven >= 0))
          throw new UserError(`--rate must be a number of requests per second (got "${flags.rate}")`);
        const allow = flags.allow ? tools.readAllowances(flags.allow) : [];
        const url = flags.url!;
        const command = reproduce(url, seed, flags, runs);
        let oracle: { url: string; stop(): Promise<void> } | undefined;
        try {
          const compareWith = flags.compareWith === 'mock' ? (oracle ??= await startLocalMock()).url : flags.compareWith;
          const report = await tools.explore({
            ...(compareWith ? { compareWith } : {}),
            url,
            ...(clientId && clientSecret ? { credentials: { clientId, clientSecret } } : {}),
            ...(foreignId && foreignSecret ? { foreign: { clientId: foreignId, clientSecret: foreignSecret } } : {}),
            allowWrites: flags.allowWrites,
            // A fos-mock is ours to load; anything else is paced unless told.
            rate: rateGiven ?? -1,
            seed,
            runs,
            timeMs,
            shrinkMs,
            maxSteps,
            allow,
            outDir: flags.outDir,
            oracle: async () => (oracle ??= await startLocalMock()).url,
            command,
            noReceiver: !flags.receiver,
            onRun: progress(),
          });
          out(tools.formatReport(report));
          if (flags.reportMd) writeFileSync(flags.reportMd, tools.markdownReport(report));
          if (flags.junit) writeFileSync(flags.junit, tools.junitReport(report));
          if (report.result.failed) process.exitCode = 1;
        } finally {
          await oracle?.stop();
        }
      }),
    );
}
