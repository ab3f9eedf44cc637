// Benchmark 7: the container image beside the npm package. The image is built from the
// Containerfile (scripts/container/image.ts: the base podman has, or the local stand-in), then,
// rounds alternating, the image and the package are started and timed from launch to the first
// answered token call; idle memory is read 2 s after that answer (the container's from its
// cgroup, `podman stats`; the package's as the process's RSS). Without podman it is skipped with
// a line saying so.
import { spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { projectPath } from '../spec/project-root';
import { freePort } from '../scripts/contract/lib';
import { memoryMb, startContainer, stopContainer } from '../scripts/container/container-run';
import { demoToken } from '../scripts/container/http';
import { buildImage, imageSizes, prepareBase } from '../scripts/container/image';
import { podmanPath } from '../scripts/container/podman';
import { retrying } from '../test/support/waits';
import { median } from './lib/load';
import { memoryOf } from './lib/processes';

const IMAGE = 'localhost/fos-mock:bench';
const SETTLE_MS = 2_000;

export interface ContainerResult {
  base: string;
  imageMb: number;
  baseMb: number;
  rounds: number;
  rows: Array<{ target: string; startupMs: number[]; idleMb: number[] }>;
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function containerRound(): Promise<{ startupMs: number; idleMb: number }> {
  const port = await freePort();
  const name = `fos-mock-bench-${process.pid}`;
  const started = await startContainer(name, `http://127.0.0.1:${port}`, ['-p', `127.0.0.1:${port}:4010`], IMAGE);
  await pause(SETTLE_MS);
  const idleMb = await memoryMb(name);
  await stopContainer(name);
  return { startupMs: started.startupMs, idleMb };
}

async function packageRound(): Promise<{ startupMs: number; idleMb: number }> {
  const port = await freePort();
  const begun = Date.now();
  const child = spawn(process.execPath, [projectPath('bin', 'fos-mock.js'), 'serve', '--port', String(port)], { stdio: 'ignore' });
  try {
    await retrying('the npm package’s token call', () => demoToken(`http://127.0.0.1:${port}`), { pauseMs: 5 });
    const startupMs = Date.now() - begun;
    await pause(SETTLE_MS);
    return { startupMs, idleMb: memoryOf(child.pid).rssMb };
  } finally {
    child.kill('SIGTERM');
  }
}

/** Undefined when podman is not on this machine (the line printed says so). */
export async function containerBench(rounds: number): Promise<ContainerResult | undefined> {
  if (!podmanPath()) {
    process.stdout.write('container benchmark SKIPPED: podman not found (Debian: apt-get install podman runc)\n');
    return undefined;
  }
  const say = (line: string) => process.stdout.write(`${line}\n`);
  const base = await prepareBase(say);
  mkdirSync(projectPath('reports'), { recursive: true });
  await buildImage(IMAGE, join(projectPath('reports'), 'bench-container-build.log'));
  const sizes = await imageSizes(IMAGE);
  const rows = [
    { target: 'container image (podman run, bridge network)', startupMs: [] as number[], idleMb: [] as number[] },
    { target: 'npm package (fos-mock serve)', startupMs: [] as number[], idleMb: [] as number[] },
  ];
  for (let round = 0; round < rounds; round++) {
    for (const [row, run] of [
      [rows[0]!, containerRound],
      [rows[1]!, packageRound],
    ] as const) {
      const { startupMs, idleMb } = await run();
      row.startupMs.push(startupMs);
      row.idleMb.push(idleMb);
    }
  }
  return { base, imageMb: sizes.image / 1e6, baseMb: sizes.base / 1e6, rounds, rows };
}

export function containerMarkdown(result: ContainerResult): string[] {
  const [image, npm] = result.rows as [ContainerResult['rows'][number], ContainerResult['rows'][number]];
  const ours = (result.imageMb - result.baseMb).toFixed(1);
  const row = (r: ContainerResult['rows'][number]) => {
    const startup = median(r.startupMs);
    return `| ${r.target} | ${startup.toFixed(0)} | ${median(r.idleMb).toFixed(0)} | ${(startup / median(npm.startupMs)).toFixed(2)} |`;
  };
  return [
    '## Container image (benchmark 7)',
    '',
    `${result.base}. Image ${result.imageMb.toFixed(1)} MB (uncompressed), of which ${ours} MB over the base.`,
    `${result.rounds} rounds, alternating; medians. Start-up: launch to the first answered token call.`,
    `Idle memory ${SETTLE_MS / 1000} s after it: the container's (its cgroup, \`podman stats\`), the package's process RSS.`,
    '',
    '| target | start-up ms | idle MB | start-up × the package |',
    '|---|---|---|---|',
    row(image),
    row(npm),
  ];
}
