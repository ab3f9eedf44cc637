// `npm run bench`: runs the benchmarks and writes bench/results/latest.json and latest.md.
// Sizes: BENCH_DURATION (seconds per run, default 5), BENCH_ROUNDS (default 3).
import { writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { projectPath } from '../spec/project-root';
import { throughput, type Row } from './throughput';

function ratioTable(rows: Row[]): string[] {
  const lines = ['| benchmark | connections | target | req/s | p50 ms | p99 ms | peak MB | non-2xx | × prism as shipped | × prism silent |', '|---|---|---|---|---|---|---|---|---|---|'];
  for (const row of rows) {
    const peer = (name: string) => rows.find((r) => r.benchmark === row.benchmark && r.connections === row.connections && r.target === name);
    const ratio = (name: string) => {
      const other = peer(name);
      return other && other.rps > 0 ? (row.rps / other.rps).toFixed(2) : '-';
    };
    lines.push(`| ${row.benchmark} | ${row.connections} | ${row.target} | ${row.rps.toFixed(0)} | ${row.p50} | ${row.p99} | ${row.peakMb.toFixed(0)} | ${row.non2xx} | ${ratio('prism (as shipped)')} | ${ratio('prism (-v silent)')} |`);
  }
  return lines;
}

async function main() {
  const durationS = Number(process.env.BENCH_DURATION ?? 5);
  const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
  const machine = `${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}`;
  process.stdout.write(`fos-mock benchmarks on ${machine}: ${rounds} rounds of ${durationS} s per target\n`);
  const { rows, startup } = await throughput({ durationS, rounds, connections: [10, 50] });
  rows.sort((a, b) => a.benchmark.localeCompare(b.benchmark) || a.connections - b.connections || b.rps - a.rps);
  const md = [
    `# fos-mock benchmarks`,
    '',
    `Machine: ${machine}. ${rounds} rounds of ${durationS} s per target, targets alternating; medians.`,
    '',
    ...ratioTable(rows),
    '',
    '| start-up (launch to first answer) | ms | idle RSS MB |',
    '|---|---|---|',
    ...startup.map((s) => `| ${s.target} | ${s.startupMs.toFixed(0)} | ${s.idleMb.toFixed(0)} |`),
    '',
  ].join('\n');
  writeFileSync(projectPath('bench', 'results', 'latest.json'), JSON.stringify({ machine, durationS, rounds, rows, startup }, null, 2) + '\n');
  writeFileSync(projectPath('bench', 'results', 'latest.md'), md);
  process.stdout.write(md);
  const broken = rows.filter((r) => r.non2xx > 0);
  if (broken.length > 0) {
    // A target answering errors is not measuring what it claims: say so, and fail.
    process.stderr.write(`\nINVALID: non-2xx answers from ${broken.map((r) => `${r.target} (${r.benchmark}, ${r.connections} conn)`).join('; ')}\n`);
    process.exit(1);
  }
}

main().catch((error) => {
  process.stderr.write(`bench failed: ${(error as Error).stack}\n`);
  process.exit(1);
});
