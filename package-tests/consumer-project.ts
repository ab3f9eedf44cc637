// A fresh project of a team's, as the package test makes one in a temporary folder: the tarball
// packed from this repository (`npm pack`, whose prepack script builds), installed there with npm,
// and the commands a user types run in it with a stranger's environment.
import { spawn, spawnSync, type ChildProcess, type SpawnSyncReturns } from 'node:child_process';
import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../scripts/free-port';
import { projectPath } from '../spec/project-root';

export const MINUTE = 60_000;

/** The environment of a stranger's shell: none of this repository's or of the test runner's settings. */
export function cleanEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (!/^(CONTRACT_|JEST_|FOS_MOCK_|npm_|INIT_CWD$|PORT$|NODE_OPTIONS$|VITEST)/.test(name)) env[name] = value;
  }
  return env;
}

export function run(cwd: string, command: string, args: string[], timeout = 5 * MINUTE): SpawnSyncReturns<string> {
  const result = spawnSync(command, args, { cwd, encoding: 'utf8', timeout, env: cleanEnv() });
  if (result.error) throw result.error;
  return result;
}

/** Exit code (or signal), then standard output and error, their last 4000 characters: what a failed expectation shows. */
export const output = (result: SpawnSyncReturns<string>) =>
  `exit ${String(result.status ?? result.signal)}\n${`${result.stdout}\n${result.stderr}`.slice(-4000)}`;

/** `npm pack` of this repository into a temporary folder; the tarball's path. */
export function pack(): string {
  const packs = mkdtempSync(join(tmpdir(), 'fos-mock-pack-'));
  const packed = run(projectPath(), 'npm', ['pack', '--pack-destination', packs, '--silent'], 10 * MINUTE);
  if (packed.status !== 0) throw new Error(`npm pack failed:\n${output(packed)}`);
  return join(
    packs,
    readdirSync(packs).find((name) => name.endsWith('.tgz'))!,
  );
}

/** An empty project with the tarball installed as a plain `npm install` does; its folder and npm's summary line. */
export function freshProject(tarball: string): { project: string; summary: string } {
  const project = mkdtempSync(join(tmpdir(), 'fos-mock-consumer-'));
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'consumer', version: '1.0.0', private: true }, null, 2));
  const installed = run(project, 'npm', ['install', '--no-audit', '--no-fund', tarball], 10 * MINUTE);
  if (installed.status !== 0) throw new Error(`npm install of the tarball failed:\n${output(installed)}`);
  return { project, summary: installed.stdout };
}

/** `npm install --save-dev` of these packages into the project, as a team adds its test runners. */
export function addDevPackages(project: string, packages: string[]): void {
  const installed = run(project, 'npm', ['install', '--save-dev', '--no-audit', '--no-fund', ...packages], 10 * MINUTE);
  if (installed.status !== 0) throw new Error(`npm install ${packages.join(' ')} failed:\n${output(installed)}`);
}

/** Stops a served mock: its whole process group (npx and the CLI under it), and waits for it. */
export async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  try {
    process.kill(-child.pid!, 'SIGTERM');
  } catch {
    return; // already gone
  }
  await exited;
}

/** `npx fos-mock serve` on a free port in the project, resolved when it says it listens. */
export async function serve(project: string): Promise<{ url: string; child: ChildProcess }> {
  const port = await freePort();
  // Its own process group: npx runs the CLI as a child of its own, and both must stop.
  const child = spawn('npx', ['--no-install', 'fos-mock', 'serve', '--port', String(port)], {
    cwd: project,
    env: { ...cleanEnv(), LOG_LEVEL: 'silent' },
    detached: true,
  });
  let seen = '';
  await new Promise<void>((resolve, reject) => {
    child.stdout?.on('data', (chunk: Buffer) => {
      seen += chunk.toString();
      if (seen.includes('listening')) resolve();
    });
    child.stderr?.on('data', (chunk: Buffer) => (seen += chunk.toString()));
    child.once('exit', (code) => reject(new Error(`fos-mock serve exited ${String(code)} before listening:\n${seen}`)));
  });
  return { url: `http://127.0.0.1:${port}`, child };
}
