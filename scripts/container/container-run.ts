// One container of the image as npm run test:container runs it: started detached, waited for
// until the token call answers (the start-up time measured to that answer), its health check run
// by podman, its idle memory read, and stopped with the time the stop took and the exit code.
import { retrying } from '../../test/support/waits';
import { demoToken } from './http';
import { podman, podmanOk } from './podman';

export interface Started {
  name: string;
  url: string;
  /** From `podman run` to the first answered token call. */
  startupMs: number;
}

/** `podman run -d --name <name> <args> <image>`, then the token call polled until it answers. */
export async function startContainer(name: string, url: string, runArgs: string[], image: string): Promise<Started> {
  await podman(['rm', '-f', '-v', name]);
  const started = Date.now();
  await podmanOk(['run', '-d', '--name', name, ...runArgs, image]);
  try {
    await retrying(`the token call of container ${name} at ${url}`, () => demoToken(url), { pauseMs: 50 });
  } catch (error) {
    process.stdout.write(`container ${name} output:\n${(await podman(['logs', name])).stdout}\n`);
    throw error;
  }
  return { name, url, startupMs: Date.now() - started };
}

/** `podman healthcheck run`: the image's HEALTHCHECK, run now; true when it passed. */
export async function healthy(name: string): Promise<boolean> {
  // Exit code 0 is healthy (podman 4 prints nothing then; later versions print "healthy").
  return (await podman(['healthcheck', 'run', name])).code === 0;
}

/** The container's memory use as `podman stats` reports it, in MB. */
export async function memoryMb(name: string): Promise<number> {
  const out = await podmanOk(['stats', '--no-stream', '--format', '{{.MemUsage}}', name]);
  // "63.51MB / 25.28GB": the part before the slash.
  const match = /([\d.]+)\s*([kMG]i?B)/.exec(out);
  if (!match) throw new Error(`podman stats: cannot read the memory use of ${name} from ${JSON.stringify(out)}`);
  const factor: Record<string, number> = { kB: 1e-3, KiB: 1.024e-3, MB: 1, MiB: 1.048576, GB: 1e3, GiB: 1073.741824 };
  return Number(match[1]) * (factor[match[2]!] ?? 1);
}

export interface Stopped {
  stopMs: number;
  exitCode: number;
  output: string;
}

/** `podman stop` (SIGTERM, SIGKILL after 10 s), timed; the exit code and what the container printed. */
export async function stopContainer(name: string, remove = true): Promise<Stopped> {
  const started = Date.now();
  await podmanOk(['stop', '-t', '10', name]);
  const stopMs = Date.now() - started;
  const exitCode = Number(await podmanOk(['inspect', name, '--format', '{{.State.ExitCode}}']));
  const logs = await podman(['logs', name]);
  if (remove) await podman(['rm', '-f', '-v', name]);
  return { stopMs, exitCode, output: logs.stdout + logs.stderr };
}
