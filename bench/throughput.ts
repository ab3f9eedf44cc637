// Benchmarks 1, 2 and 5 of the issue: throughput and latency of fos-mock (strict validation on
// and off) against Prism (as shipped and silent), Mockoon CLI (as shipped), a plain Express res.json
// handler and a bare Node http server; start-up time and idle memory. Targets run alternately, several rounds.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { load, median, serviceRequests, type LoadResult } from './lib/load';
import { freePort, memoryOf, startServer, type Server, type ServerSpec } from './lib/processes';
import { bareHttp, benchFixtures, expressJson, fosMock, mockoon, prism, tokenFrom } from './lib/targets';

export interface Row {
  benchmark: string;
  target: string;
  connections: number;
  rps: number;
  p50: number;
  p99: number;
  peakMb: number;
  non2xx: number;
}

export interface ThroughputOptions {
  durationS: number;
  rounds: number;
  connections: number[];
}

/** Seconds of unmeasured load per target and endpoint before the rounds. */
export const WARM_UP_S = 2;

interface Entry {
  spec: ServerSpec;
  endpoints: Array<'list' | 'quote'>;
}

export async function throughput(
  options: ThroughputOptions,
): Promise<{ rows: Row[]; startup: Array<{ target: string; startupMs: number; idleMb: number }> }> {
  const dir = mkdtempSync(join(tmpdir(), 'fos-bench-'));
  const fixtures = benchFixtures(dir);
  const entries: Entry[] = [
    { spec: fosMock('fos-mock (strict on)', await freePort(), fixtures, true), endpoints: ['list', 'quote'] },
    { spec: fosMock('fos-mock (strict off)', await freePort(), fixtures, false), endpoints: ['list', 'quote'] },
    { spec: prism('prism (as shipped)', await freePort(), false), endpoints: ['list', 'quote'] },
    { spec: prism('prism (-v silent)', await freePort(), true), endpoints: ['list', 'quote'] },
    { spec: mockoon('mockoon (as shipped)', await freePort(), dir), endpoints: ['list', 'quote'] },
  ];
  const servers: Server[] = [];
  const startup: Array<{ target: string; startupMs: number; idleMb: number }> = [];
  try {
    for (const entry of entries) {
      const server = await startServer(entry.spec);
      servers.push(server);
      startup.push({ target: server.name, startupMs: server.startupMs, idleMb: memoryOf(server.child.pid).rssMb });
    }
    // The page fos-mock answers is what the baselines serve, byte for byte.
    const fos = servers[0] as Server;
    const token = await tokenFrom(fos.url);
    const page = await (await fetch(`${fos.url}/api/accounts?limit=10`, { headers: { authorization: `Bearer ${token}` } })).text();
    const pageFile = join(dir, 'page.json');
    writeFileSync(pageFile, page);
    for (const spec of [bareHttp(await freePort(), pageFile), expressJson(await freePort(), pageFile)]) {
      servers.push(await startServer(spec));
      entries.push({ spec, endpoints: ['list'] });
    }
    const accountId = (JSON.parse(page) as { data: Array<{ id: string }> }).data[0]?.id as string;
    const requests = serviceRequests(token, accountId);

    // A warm-up per target and endpoint, not measured, as the scaling benchmark has: the first
    // seconds of a fresh process run unoptimised code (a cold quote run made about half the
    // requests of a warm one), and the median of three rounds, one of them cold, is the slower
    // of the two warm ones.
    for (const [i, entry] of entries.entries()) {
      for (const endpoint of entry.endpoints) await load((servers[i] as Server).url, requests[endpoint], 10, WARM_UP_S);
    }
    const samples = new Map<string, LoadResult[]>();
    for (let round = 0; round < options.rounds; round++) {
      for (const connections of options.connections) {
        for (const endpoint of ['list', 'quote'] as const) {
          // Alternate the order each round so no target always runs on a warmer machine.
          const order = round % 2 === 0 ? entries.map((_, i) => i) : entries.map((_, i) => entries.length - 1 - i);
          for (const i of order) {
            const entry = entries[i] as Entry;
            if (!entry.endpoints.includes(endpoint)) continue;
            const server = servers[i] as Server;
            const result = await load(server.url, requests[endpoint], connections, options.durationS);
            const key = `${endpoint}\u0000${server.name}\u0000${connections}`;
            samples.set(key, [...(samples.get(key) ?? []), result]);
          }
        }
      }
    }
    const rows: Row[] = [];
    for (const [key, results] of samples) {
      const [endpoint, target, connections] = key.split('\u0000') as [string, string, string];
      const server = servers.find((s) => s.name === target) as Server;
      rows.push({
        benchmark: endpoint === 'list' ? 'GET /api/accounts?limit=10' : 'POST /v1/quotes',
        target,
        connections: Number(connections),
        rps: median(results.map((r) => r.rps)),
        p50: median(results.map((r) => r.p50)),
        p99: median(results.map((r) => r.p99)),
        peakMb: memoryOf(server.child.pid).peakMb,
        non2xx: results.reduce((sum, r) => sum + r.non2xx + r.errors, 0),
      });
    }
    return { rows, startup };
  } finally {
    await Promise.all(servers.map((s) => s.stop()));
    // Mockoon's request log is written here and grows with every request.
    rmSync(dir, { recursive: true, force: true });
  }
}
