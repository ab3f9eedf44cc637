// podman as npm run test:container runs it: with the containers.conf beside this file (CONTAINERS_CONF;
// runc, fixed ulimits: see that file for why), output captured, and echoed when asked.
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../contract/lib';

export const CONTAINERS_CONF = join(ROOT, 'scripts', 'container', 'containers.conf');
const env = { ...process.env, CONTAINERS_CONF: process.env.CONTAINERS_CONF ?? CONTAINERS_CONF };

/** The image the Containerfile builds on: the default of its `ARG NODE_IMAGE=`, read from the file itself. */
export function baseImage(): string {
  const match = /^ARG NODE_IMAGE=(\S+)$/m.exec(readFileSync(join(ROOT, 'Containerfile'), 'utf8'));
  if (!match) throw new Error('Containerfile: no `ARG NODE_IMAGE=<image>` line');
  return match[1]!;
}

/** The podman binary on PATH, or undefined. */
export function podmanPath(): string | undefined {
  const found = spawnSync('sh', ['-c', 'command -v podman'], { encoding: 'utf8' });
  return found.status === 0 ? found.stdout.trim() : undefined;
}

export interface Result {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** `podman <args>`; resolves with its exit code and output (never throws on a non-zero exit). */
export async function podman(args: string[], options: { echo?: boolean; timeoutMs?: number } = {}): Promise<Result> {
  const child = spawn('podman', args, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString('utf8');
    if (options.echo) process.stdout.write(chunk);
  });
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString('utf8');
    if (options.echo) process.stderr.write(chunk);
  });
  const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 20 * 60_000);
  const [code] = (await once(child, 'exit')) as [number | null];
  clearTimeout(timer);
  return { code, stdout, stderr };
}

/** `podman <args>`, its stdout trimmed; throws with podman's own message on a non-zero exit. */
export async function podmanOk(args: string[], options: { echo?: boolean; timeoutMs?: number } = {}): Promise<string> {
  const result = await podman(args, options);
  if (result.code !== 0) throw new Error(`podman ${args.join(' ')} exited ${result.code}: ${result.stderr.trim().slice(-2000)}`);
  return result.stdout.trim();
}

export async function imageExists(name: string): Promise<boolean> {
  return (await podman(['image', 'exists', name])).code === 0;
}
