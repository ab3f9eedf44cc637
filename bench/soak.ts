// The soak benchmark: a long mixed load on one `fos-mock serve` process (lists, quotes, deposits,
// transfers, and the webhook deliveries they cause to a subscriber that fails every third
// attempt), with POST /_mock/reset every few minutes. It samples the process's resident memory
// (RSS, /proc) all along, and after each reset the live heap after a full collection (a probe
// preloaded into the mock, bench/lib/heap-probe.cjs): a structure that grows without bound shows
// as a reset level that climbs. The verdict: every reset's live heap within 10% of the first one.
// Sizes from the environment (bench/run.ts): SOAK_DURATION_S (default 1800), SOAK_RESET_EVERY_S
// (default 180), SOAK_LOOPS (client loops, default 8).
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { projectPath } from '../spec/project-root';
import { startReceiver, type Receiver } from '../mock/receiver/receiver';
import { freePort, memoryOf, startServer, type Server } from './lib/processes';
import { tokenFrom } from './lib/targets';

export interface SoakOptions {
  durationS: number;
  resetEveryS: number;
  loops: number;
}

export interface SoakSample {
  /** Seconds since the load began. */
  t: number;
  rssMb: number;
  /** The live heap after a full collection, array buffers included (the samples taken after a reset). */
  heapMb?: number;
  /** Of which array buffers (outside the V8 heap). */
  arrayBuffersMb?: number;
}

export interface SoakResult extends SoakOptions {
  samples: SoakSample[];
  /** RSS and the live heap a moment after each reset (the first one is the baseline). */
  resets: SoakSample[];
  /** Largest live heap after a reset over the first one, minus 1 (0.04 = 4% above). */
  worstGrowth: number;
  /** The same for RSS, which V8 gives back to the system slowly: reported, not judged. */
  worstRssGrowth: number;
  met: boolean;
  requests: Record<string, number>;
  /** Answers that are neither 2xx nor an expected refusal: 5xx, network errors. */
  failures: number;
  deliveries: number;
  deliveriesFailed: number;
  chart: string;
}

const SAMPLE_EVERY_MS = 5_000;
/** After a reset, the collector gets this long before the level is read. */
const SETTLE_MS = 3_000;
const BUDGET = 0.1;

interface Client {
  base: string;
  auth: Record<string, string>;
  funded: string;
  other: string;
}

async function call(c: Client, method: string, path: string, body?: unknown): Promise<{ status: number; json: unknown }> {
  const headers: Record<string, string> = { ...c.auth, 'content-type': 'application/json' };
  if (method !== 'GET') headers['x-idempotency-key'] = randomUUID();
  const res = await fetch(c.base + path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  return { status: res.status, json: text ? (JSON.parse(text) as unknown) : undefined };
}

/** One step of the mix; answers the name of what it did and whether it failed (5xx, or no answer). */
async function step(c: Client, i: number): Promise<[string, boolean]> {
  const quote = { accountId: c.funded, sourceAsset: 'BRL', targetAsset: 'BRL', sourceAmount: '1.00' };
  switch (i % 5) {
    case 0:
      return ['list accounts', (await call(c, 'GET', '/api/accounts?limit=10')).status >= 500];
    case 1:
      return ['list operations', (await call(c, 'GET', '/v1/operations?limit=10')).status >= 500];
    case 2:
      return ['quote', (await call(c, 'POST', '/v1/quotes', quote)).status >= 500];
    case 3: {
      const made = await call(c, 'POST', '/v1/quotes', quote);
      if (made.status !== 201) return ['deposit', made.status >= 500];
      const quoteId = (made.json as { id: string }).id;
      const body = { accountId: c.funded, quoteId, fundingInstruction: { rail: 'PIX' } };
      return ['deposit', (await call(c, 'POST', '/v1/operations/deposits', body)).status >= 500];
    }
    default: {
      // Back and forth between two accounts, so the funded one keeps its balance.
      const [from, to] = i % 10 < 5 ? [c.funded, c.other] : [c.other, c.funded];
      const body = { accountId: from, targetAccountId: to, asset: 'BRL', amount: '1.00' };
      return ['transfer', (await call(c, 'POST', '/v1/operations/transfers', body)).status >= 500];
    }
  }
}

/** The demo customer's client: its token, a funded BRL account and another BRL account; a subscription to the receiver. */
async function prepare(server: Server, receiver: Receiver): Promise<Client> {
  const auth = { authorization: `Bearer ${await tokenFrom(server.url)}` };
  const c: Client = { base: server.url, auth, funded: '', other: '' };
  const accounts = (await call(c, 'GET', '/api/accounts?limit=100')).json as {
    data: Array<{ id: string; assets: Array<{ currency: string }> }>;
  };
  const brl = accounts.data.filter((a) => a.assets.some((asset) => asset.currency === 'BRL'));
  if (brl.length < 2) throw new Error('soak: the demo customer needs two BRL accounts');
  const balances = await Promise.all(
    brl.map(async (a) =>
      Number(
        ((await (await fetch(`${server.url}/_mock/accounts/${a.id}/balances`)).json()) as { balances: { BRL?: string } }).balances.BRL ?? 0,
      ),
    ),
  );
  const order = brl.map((a, k) => ({ id: a.id, balance: balances[k] ?? 0 })).sort((x, y) => y.balance - x.balance);
  c.funded = order[0]!.id;
  c.other = order[1]!.id;
  const sub = await call(c, 'POST', '/api/subscriptions', { url: receiver.url, includeAll: true, allowRetry: true });
  if (sub.status !== 201) throw new Error(`soak: subscription refused (${sub.status})`);
  return c;
}

/** RSS over time as an SVG line, with a mark at each reset and the 10% band over the first reset. */
function chart(result: Pick<SoakResult, 'samples' | 'resets' | 'durationS'>): string {
  const [w, h, pad] = [640, 240, 40];
  const maxMb = Math.max(...result.samples.map((s) => s.rssMb), ...result.resets.map((s) => s.rssMb), 1) * 1.1;
  const x = (t: number) => pad + (t / Math.max(result.durationS, 1)) * (w - 2 * pad);
  const y = (mb: number) => h - pad - (mb / maxMb) * (h - 2 * pad);
  const caption = `RSS MB (0 to ${maxMb.toFixed(0)}) over ${(result.durationS / 60).toFixed(0)} min`;
  const line = result.samples.map((s) => `${x(s.t).toFixed(1)},${y(s.rssMb).toFixed(1)}`).join(' ');
  const first = result.resets[0]?.rssMb;
  const band =
    first === undefined
      ? ''
      : `<rect x="${pad}" y="${y(first * (1 + BUDGET)).toFixed(1)}" width="${w - 2 * pad}" ` +
        `height="${(y(first) - y(first * (1 + BUDGET))).toFixed(1)}" fill="#d9f2d9"/>`;
  const marks = result.resets
    .map(
      (r) =>
        `<circle cx="${x(r.t).toFixed(1)}" cy="${y(r.rssMb).toFixed(1)}" r="3" fill="#b00">` +
        `<title>reset: ${r.rssMb.toFixed(0)} MB</title></circle>`,
    )
    .join('');
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}" role="img" aria-label="fos-mock RSS over the soak">
<title>fos-mock resident memory over the soak (MB); red dots: levels after each reset; green band: within 10% of the first</title>
<rect width="${w}" height="${h}" fill="#fff"/>${band}
<polyline points="${line}" fill="none" stroke="#1a4f9c" stroke-width="1.5"/>${marks}
<text x="${pad}" y="${pad - 10}" font-family="sans-serif" font-size="12">${caption}</text>
</svg>
`;
}

export async function soak(options: SoakOptions): Promise<SoakResult> {
  // Counted here rather than kept: the receiver's record is cleared as the soak goes.
  let deliveries = 0;
  let deliveriesFailed = 0;
  const receiver = await startReceiver({
    fallback: () => {
      const fail = deliveries++ % 3 === 2;
      if (fail) deliveriesFailed++;
      return fail ? 500 : 200;
    },
  });
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'fos-soak-'));
  const probeFile = join(dir, 'heap');
  writeFileSync(probeFile, '');
  const server = await startServer({
    name: 'fos-mock (soak)',
    command: process.execPath,
    args: ['--expose-gc', '--require', projectPath('bench', 'lib', 'heap-probe.cjs'), projectPath('dist', 'mock', 'main.js'), 'serve'],
    env: { LOG_LEVEL: 'silent', AUTO_SETTLE_MS: '1000', PORT: String(port), HEAP_PROBE_FILE: probeFile },
    port,
    probe: { path: '/_mock/health' },
  });
  /** The live heap after a full collection, array buffers included, in MB (the probe appends a line per signal). */
  const liveHeap = async (): Promise<{ heapMb: number; arrayBuffersMb: number }> => {
    const before = readFileSync(probeFile, 'utf8').split('\n').filter(Boolean).length;
    server.child.kill('SIGUSR2');
    for (let i = 0; i < 400; i++) {
      const lines = readFileSync(probeFile, 'utf8').split('\n').filter(Boolean);
      if (lines.length > before) {
        const [heapUsed, arrayBuffers] = lines[lines.length - 1]!.split(' ').map(Number) as [number, number];
        return { heapMb: (heapUsed + arrayBuffers) / 2 ** 20, arrayBuffersMb: arrayBuffers / 2 ** 20 };
      }
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    throw new Error('soak: the mock did not report its heap within 10 s');
  };
  const samples: SoakSample[] = [];
  const resets: SoakSample[] = [];
  const requests: Record<string, number> = {};
  let failures = 0;
  try {
    let client = await prepare(server, receiver);
    const started = Date.now();
    const deadline = started + options.durationS * 1000;
    const t = () => (Date.now() - started) / 1000;
    const rss = () => memoryOf(server.child.pid).rssMb;
    const sampler = setInterval(() => {
      samples.push({ t: t(), rssMb: rss() });
      receiver.clear();
    }, SAMPLE_EVERY_MS);
    let resetting: Promise<void> | undefined;
    const loop = async (n: number) => {
      for (let i = n; Date.now() < deadline; i += options.loops) {
        if (resetting) await resetting;
        const [name, failed] = await step(client, i).catch((): [string, boolean] => ['network error', true]);
        requests[name] = (requests[name] ?? 0) + 1;
        if (failed) failures++;
      }
    };
    const resetter = (async () => {
      // The first reset after one period of load: its level (a warm process) is the baseline.
      for (let next = started + options.resetEveryS * 1000; next < deadline; next += options.resetEveryS * 1000) {
        await new Promise((resolve) => setTimeout(resolve, Math.max(0, next - Date.now())));
        if (Date.now() >= deadline) break;
        // The loops wait while the state is reset and the subscription made again.
        let done: () => void = () => undefined;
        resetting = new Promise<void>((resolve) => (done = resolve));
        await fetch(`${server.url}/_mock/reset`, { method: 'POST' });
        client = await prepare(server, receiver);
        await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
        resets.push({ t: t(), rssMb: rss(), ...(await liveHeap()) });
        resetting = undefined;
        done();
      }
    })();
    await Promise.all([...Array.from({ length: options.loops }, (_, n) => loop(n)), resetter]);
    clearInterval(sampler);
  } finally {
    await server.stop();
    await receiver.close();
    rmSync(dir, { recursive: true, force: true });
  }
  const growth = (of: (s: SoakSample) => number) => {
    const base = resets[0] ? of(resets[0]) : 0;
    return base > 0 ? Math.max(...resets.map((r) => of(r) / base - 1)) : 0;
  };
  const worstGrowth = growth((r) => r.heapMb ?? 0);
  const worstRssGrowth = growth((r) => r.rssMb);
  const result = {
    ...options,
    samples,
    resets,
    worstGrowth,
    worstRssGrowth,
    met: worstGrowth <= BUDGET,
    requests,
    failures,
    deliveries,
    deliveriesFailed,
  };
  const svg = chart(result);
  writeFileSync(projectPath('bench', 'results', 'soak-rss.svg'), svg);
  return { ...result, chart: 'bench/results/soak-rss.svg' };
}

export function soakMarkdown(r: SoakResult): string[] {
  const total = Object.values(r.requests).reduce((a, b) => a + b, 0);
  return [
    '## Soak',
    '',
    `One \`fos-mock serve\` (in memory, strict on, auto-settlement 1 s) under ${r.loops} client loops ` +
      `for ${(r.durationS / 60).toFixed(0)} min, ` +
      `POST /_mock/reset every ${r.resetEveryS} s; a subscriber (every change, retries on) failing every third attempt.`,
    '',
    `Requests: ${total} (${Object.entries(r.requests)
      .map(([name, n]) => `${name} ${n}`)
      .join(
        ', ',
      )}); failures (5xx or no answer): ${r.failures}; webhook attempts received: ${r.deliveries} (${r.deliveriesFailed} answered 500).`,
    '',
    '| after reset | at s | live heap MB (after a full GC, array buffers included) | of which array buffers MB | over the first ' +
      '| RSS MB | over the first |',
    '|---|---|---|---|---|---|---|',
    ...r.resets.map((s, k) => {
      const first = r.resets[0] ?? s;
      const over = (a: number, b: number) => `${((a / b - 1) * 100).toFixed(1)}%`;
      const heap = s.heapMb ?? 0;
      const cells = [
        k + 1,
        s.t.toFixed(0),
        heap.toFixed(1),
        s.arrayBuffersMb === undefined ? '-' : s.arrayBuffersMb.toFixed(1),
        over(heap, first.heapMb ?? heap),
        s.rssMb.toFixed(0),
        over(s.rssMb, first.rssMb),
      ];
      return `| ${cells.join(' | ')} |`;
    }),
    '',
    `Worst live heap after a reset: ${(r.worstGrowth * 100).toFixed(1)}% over the first (budget 10%): ${r.met ? 'met' : 'MISSED'}; ` +
      `worst RSS after a reset ${(r.worstRssGrowth * 100).toFixed(1)}% over the first (RSS falls back slowly; not judged). ` +
      `RSS over time: [${r.chart}](soak-rss.svg).`,
  ];
}
