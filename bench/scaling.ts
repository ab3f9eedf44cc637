// Benchmark 3 of the issue: does a request cost the same with 1 thousand or 1 million operations
// in the store? Each size runs in its own process (its own heap, seeded through the Store
// interface: bench/servers/seeded-mock.ts, run as the build compiled it, as `fos-mock serve` is)
// with strict response validation on, and is asked
// for the newest page of 10 operations, for a page of 10 at a random position (a cursor the
// bench signs with the seeded mock's secret), then to create operations (transfers: they need
// no quote from the client, so every request is one create); sizes alternate, several rounds,
// medians. Also the memory a stored operation takes.
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { load, median, type LoadRequest, type LoadResult } from './lib/load';
import { tableRow } from './lib/markdown';
import { freePort, memoryOf, startServer, type Server } from './lib/processes';
import { tokenFrom } from './lib/targets';
import { projectPath } from '../spec/project-root';
import { CursorCodec } from '../mock/domain/pagination/cursor';

export interface ScalingOptions {
  sizes: number[];
  durationS: number;
  rounds: number;
  connections: number;
}

const NEWEST = 'GET /v1/operations?limit=10';
const ANYWHERE = 'GET /v1/operations?limit=10&cursor=(a random page)';
const CREATE = 'POST /v1/operations/transfers';
/** The secret the seeded mock signs tokens and cursors with: the bench makes cursors of its own. */
const SECRET = 'bench-secret';

export interface ScalingRow {
  size: number;
  benchmark: typeof NEWEST | typeof ANYWHERE | typeof CREATE;
  rps: number;
  p50: number;
  p99: number;
  /** Mean latency in ms by Little's law (connections ÷ req/s), over every answer of the run. */
  latencyMs: number;
  non2xx: number;
}

export interface ScalingSize {
  size: number;
  seedS: number;
  heapBeforeMb: number;
  heapAfterSeedMb: number;
  /** (heap after seeding - before) / size, both after a full GC. */
  bytesPerOperation: number;
  /** Creates made over HTTP, warm-up included (the store holds size + creates at the end). */
  creates: number;
  heapAfterRunsMb: number;
  /**
   * What one create over HTTP keeps (the operation, its internal quote, the idempotency entry
   * with the answer): the settled heap across the timed create runs only, over their creates.
   */
  bytesPerCreate: number;
  /** The rest of the growth over the runs: warm-up creates, and what the mock keeps of the pages it listed. */
  otherGrowthMb: number;
  peakRssMb: number;
}

export interface ScalingResult {
  connections: number;
  durationS: number;
  rounds: number;
  rows: ScalingRow[];
  sizes: ScalingSize[];
  /** Each larger size against the smallest, per benchmark: latency ratios (target ≤ 1.5 at 100,000) and the req/s ratio. */
  ratios: Array<{ benchmark: string; from: number; to: number; latency: number; p50: number; p99: number; rps: number }>;
}

const MB = 2 ** 20;

/** One store size: its process and what was measured on it. */
interface Subject {
  size: number;
  server: Server;
  statsFile: string;
  requests: Record<ScalingRow['benchmark'], LoadRequest>;
  samples: Map<ScalingRow['benchmark'], LoadResult[]>;
  creates: number;
  /** Settled heap added across the timed create runs, and their creates. */
  createHeap: number;
  timedCreates: number;
}

export async function scaling(options: ScalingOptions): Promise<ScalingResult> {
  const dir = mkdtempSync(join(tmpdir(), 'fos-bench-scaling-'));
  const subjects: Subject[] = [];
  try {
    // Every size in its own process, seeded one after the other; an idle process costs no CPU.
    for (const size of options.sizes) subjects.push(await startSubject(size, join(dir, `seed-${size}.json`)));
    // Warm-up (not reported): the JIT has compiled the hot paths before anything is timed.
    for (const subject of subjects) {
      for (const request of Object.values(subject.requests))
        subject.creates += (await load(subject.server.url, request, options.connections, 1)).ok;
    }
    for (let round = 0; round < options.rounds; round++) {
      // Sizes alternate, in reverse order every other round, so a busier moment of a shared
      // machine does not land on one size only.
      const order = round % 2 === 0 ? subjects : [...subjects].reverse();
      for (const subject of order) {
        // The lists first: the creates of a round add to the store the next round lists from.
        for (const [benchmark, request] of Object.entries(subject.requests) as Array<[ScalingRow['benchmark'], LoadRequest]>) {
          // Around a create run, the settled heap (a full GC, outside the timed window): what creates keep.
          const before = request.method === 'POST' ? await settledHeap(subject) : 0;
          const result = await load(subject.server.url, request, options.connections, options.durationS);
          if (request.method === 'POST') {
            subject.creates += result.ok;
            subject.timedCreates += result.ok;
            subject.createHeap += (await settledHeap(subject)) - before;
          }
          subject.samples.set(benchmark, [...(subject.samples.get(benchmark) ?? []), result]);
        }
      }
    }
    const rows: ScalingRow[] = [];
    const sizes: ScalingSize[] = [];
    for (const subject of subjects) {
      rows.push(...rowsOf(subject, options.connections));
      sizes.push(await memoryOfSubject(subject));
    }
    return {
      connections: options.connections,
      durationS: options.durationS,
      rounds: options.rounds,
      rows,
      sizes,
      ratios: ratios(rows, options.sizes),
    };
  } finally {
    await Promise.all(subjects.map((s) => s.server.stop()));
    rmSync(dir, { recursive: true, force: true });
  }
}

async function startSubject(size: number, statsFile: string): Promise<Subject> {
  process.stdout.write(`scaling: seeding ${size} operations\n`);
  const port = await freePort();
  // The compiled server (`npm run bench` builds first), not the TypeScript through tsx: the mock's
  // code as users run it.
  const script = projectPath('dist', 'bench', 'servers', 'seeded-mock.js');
  assertBuilt(script);
  const server = await startServer({
    name: `fos-mock, ${size} operations`,
    command: process.execPath,
    // Each size in its own heap, big enough for a million records and the runs after.
    args: ['--expose-gc', '--max-old-space-size=6144', script, String(port), String(size), statsFile, 'on', SECRET],
    port,
    probe: { path: '/v1/operations', headers: { authorization: 'Bearer x' } },
    readyTimeoutMs: 10 * 60_000,
  });
  try {
    const token = await tokenFrom(server.url);
    const auth = { authorization: `Bearer ${token}` };
    const accounts = (await (await fetch(`${server.url}/api/accounts?limit=10`, { headers: auth })).json()) as {
      data: Array<{ id: string; assets: Array<{ currency: string }> }>;
    };
    const brl = accounts.data.filter((a) => a.assets.some((asset) => asset.currency === 'BRL'));
    if (brl.length < 2) throw new Error('scaling: the demo customer needs two BRL accounts');
    // A page at a random position: mostly records no earlier request listed (at a million),
    // so neither their check nor their JSON is cached yet; the newest page always is.
    const seeded = readSeedStats(statsFile);
    const codec = new CursorCodec(SECRET);
    const span = Math.max(1, seeded.keys.last - seeded.keys.first - 9);
    const randomPage = () => {
      const key = seeded.keys.first + 10 + Math.floor(Math.random() * span);
      const cursor = codec.encode(`operation:${seeded.customerId}`, { key, direction: 'NEXT', order: 'DESCENDING' });
      return `/v1/operations?limit=10&cursor=${cursor}`;
    };
    const requests: Subject['requests'] = {
      [NEWEST]: { method: 'GET', path: '/v1/operations?limit=10', headers: auth },
      [ANYWHERE]: { method: 'GET', path: '/v1/operations?limit=10', headers: auth, pathFor: randomPage },
      [CREATE]: {
        method: 'POST',
        path: '/v1/operations/transfers',
        headers: { ...auth, 'content-type': 'application/json' },
        body: JSON.stringify({ accountId: brl[0]!.id, targetAccountId: brl[1]!.id, asset: 'BRL', amount: '10.00' }),
        freshIdempotencyKey: true,
      },
    };
    return { size, server, statsFile, requests, samples: new Map(), creates: 0, createHeap: 0, timedCreates: 0 };
  } catch (error) {
    await server.stop();
    throw error;
  }
}

/**
 * The compiled server is there and the build is not older than the mock's sources: an old build
 * would measure old code without a word (`npx tsx bench/run.ts` skips the build that `npm run
 * bench` runs). The build's record (dist/.tsbuildinfo) is written by every build that found a
 * source changed or touched, where an output is written only when its own source changed.
 */
function assertBuilt(script: string): void {
  const rebuild = 'run `npm run build` first (npm run bench does)';
  const record = projectPath('dist', '.tsbuildinfo');
  if (!existsSync(script) || !existsSync(record)) throw new Error(`scaling: ${script} is missing: ${rebuild}`);
  const built = statSync(record).mtimeMs;
  const newer = ['mock', join('bench', 'servers'), join('bench', 'lib')]
    .flatMap((dir) => readdirSync(projectPath(dir), { recursive: true, encoding: 'utf8' }).map((file) => join(projectPath(dir), file)))
    .find((file) => file.endsWith('.ts') && statSync(file).mtimeMs > built);
  if (newer) throw new Error(`scaling: ${newer} is newer than the build: ${rebuild}`);
}

/** The V8 heap in use plus array buffers (seeded-mock.ts) of the subject's process after a full GC. */
async function settledHeap(subject: Subject): Promise<number> {
  return ((await (await fetch(`${subject.server.url}/_bench/heap`)).json()) as { heapUsed: number }).heapUsed;
}

interface SeedStats {
  seedMs: number;
  heapBefore: number;
  heapAfter: number;
  customerId: string;
  keys: { first: number; last: number };
}

function readSeedStats(file: string): SeedStats {
  return JSON.parse(readFileSync(file, 'utf8')) as SeedStats;
}

function rowsOf(subject: Subject, connections: number): ScalingRow[] {
  return [...subject.samples].map(([benchmark, results]) => {
    const rps = median(results.map((r) => r.rps));
    return {
      size: subject.size,
      benchmark,
      rps,
      p50: median(results.map((r) => r.p50)),
      p99: median(results.map((r) => r.p99)),
      latencyMs: (connections * 1000) / rps,
      non2xx: results.reduce((sum, r) => sum + r.non2xx + r.errors, 0),
    };
  });
}

async function memoryOfSubject(subject: Subject): Promise<ScalingSize> {
  const seeded = readSeedStats(subject.statsFile);
  const after = await settledHeap(subject);
  const { size, creates } = subject;
  return {
    size,
    seedS: seeded.seedMs / 1000,
    heapBeforeMb: seeded.heapBefore / MB,
    heapAfterSeedMb: seeded.heapAfter / MB,
    bytesPerOperation: size > 0 ? (seeded.heapAfter - seeded.heapBefore) / size : 0,
    creates,
    heapAfterRunsMb: after / MB,
    bytesPerCreate: subject.timedCreates > 0 ? subject.createHeap / subject.timedCreates : 0,
    otherGrowthMb: (after - seeded.heapAfter - subject.createHeap) / MB,
    peakRssMb: memoryOf(subject.server.child.pid).peakMb,
  };
}

/** The size whose page cost is held to RATIO_TARGET against the smallest one's; larger sizes are reported. */
const TARGET_SIZE = 100_000;
const RATIO_TARGET = 1.5;

function ratios(rows: ScalingRow[], sizes: number[]): ScalingResult['ratios'] {
  const from = Math.min(...sizes);
  const out: ScalingResult['ratios'] = [];
  const ratio = (a: number, b: number) => (b > 0 ? a / b : Number.NaN);
  for (const to of [...new Set(sizes)].sort((x, y) => x - y).filter((size) => size !== from)) {
    for (const benchmark of new Set(rows.map((r) => r.benchmark))) {
      const small = rows.find((r) => r.benchmark === benchmark && r.size === from);
      const large = rows.find((r) => r.benchmark === benchmark && r.size === to);
      if (!small || !large) continue;
      out.push({
        benchmark,
        from,
        to,
        latency: ratio(large.latencyMs, small.latencyMs),
        p50: ratio(large.p50, small.p50),
        p99: ratio(large.p99, small.p99),
        rps: ratio(large.rps, small.rps),
      });
    }
  }
  return out;
}

/** The Markdown section for latest.md. */
export function scalingMarkdown(result: ScalingResult): string[] {
  const n = (size: number) => size.toLocaleString('en-US');
  const lines = [
    `## Scaling (benchmark 3)`,
    '',
    `fos-mock (strict on), one process per store size, sizes alternating, ${result.connections} connections, ` +
      `${result.rounds} rounds of ${result.durationS} s per benchmark after a 1 s warm-up; medians. ` +
      'The creates add to the store as they go.',
    '',
    '| operations stored | benchmark | req/s | mean latency ms (connections ÷ req/s) | p50 ms | p99 ms | non-2xx |',
    '|---|---|---|---|---|---|---|',
    ...result.rows.map(
      (r) => `| ${n(r.size)} | ${r.benchmark} | ${r.rps.toFixed(0)} | ${r.latencyMs.toFixed(2)} | ${r.p50} | ${r.p99} | ${r.non2xx} |`,
    ),
    '',
    tableRow([
      'operations stored',
      'seeding s',
      'heap before MB',
      'heap seeded MB',
      'bytes per stored operation',
      'creates',
      'heap after runs MB',
      'bytes per create over HTTP',
      'other growth MB (warm-up, listed pages)',
      'peak RSS MB',
    ]),
    '|---|---|---|---|---|---|---|---|---|---|',
    ...result.sizes.map((s) =>
      tableRow([
        n(s.size),
        s.seedS.toFixed(1),
        s.heapBeforeMb.toFixed(0),
        s.heapAfterSeedMb.toFixed(0),
        s.bytesPerOperation.toFixed(0),
        n(s.creates),
        s.heapAfterRunsMb.toFixed(0),
        s.bytesPerCreate.toFixed(0),
        s.otherGrowthMb.toFixed(0),
        s.peakRssMb.toFixed(0),
      ]),
    ),
  ];
  if (result.ratios.length > 0) {
    lines.push(
      '',
      `| benchmark | sizes | mean latency × | p50 × | p99 × | req/s × | target (≤ ${RATIO_TARGET}× mean and p99 at ${n(TARGET_SIZE)}) |`,
      '|---|---|---|---|---|---|---|',
    );
    for (const r of result.ratios) {
      const met = r.to !== TARGET_SIZE ? 'reported' : r.latency <= RATIO_TARGET && r.p99 <= RATIO_TARGET ? 'met' : 'missed';
      const x = (v: number) => (Number.isFinite(v) ? v.toFixed(2) : '-');
      lines.push(`| ${r.benchmark} | ${n(r.to)} / ${n(r.from)} | ${x(r.latency)} | ${x(r.p50)} | ${x(r.p99)} | ${x(r.rps)} | ${met} |`);
    }
    lines.push(
      '',
      'The newest page is the same ten records on every request; ' +
        'a random page of a small store is records listed many times before, of a large one mostly records listed for the first time, ' +
        'so whatever the mock keeps of what it has sent helps the small store more.',
    );
  }
  const million = result.sizes.find((s) => s.size === 1_000_000);
  if (million) {
    lines.push(
      '',
      `With 1,000,000 operations: heap ${(million.heapAfterSeedMb / 1024).toFixed(2)} GiB seeded, ` +
        `${(million.heapAfterRunsMb / 1024).toFixed(2)} GiB after the runs; peak RSS ${(million.peakRssMb / 1024).toFixed(2)} GiB.`,
    );
  }
  return lines;
}
