// Child processes for benchmarks: each server under test runs alone in its own process, so its
// memory can be read from /proc and one server's garbage does not slow another.
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';

export { freePort } from '../../scripts/free-port';

export interface Server {
  name: string;
  url: string;
  child: ChildProcess;
  /** Milliseconds from spawn to the first good answer. */
  startupMs: number;
  stop(): Promise<void>;
}

export interface ServerSpec {
  name: string;
  command: string;
  args: string[];
  env?: Record<string, string>;
  port: number;
  /** A request the server answers (any status) once it is ready. */
  probe: { path: string; headers?: Record<string, string> };
  /** How long to wait for the first answer (default 60 s; a server that seeds a large store first needs more). */
  readyTimeoutMs?: number;
}

export async function startServer(spec: ServerSpec): Promise<Server> {
  const started = process.hrtime.bigint();
  const child = spawn(spec.command, spec.args, { env: { ...process.env, ...spec.env }, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()).length > 20_000 && (stderr = stderr.slice(-10_000)));
  const url = `http://127.0.0.1:${spec.port}`;
  const readyTimeoutMs = spec.readyTimeoutMs ?? 60_000;
  const deadline = Date.now() + readyTimeoutMs;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${spec.name} exited with ${child.exitCode}: ${stderr.slice(-2000)}`);
    if (Date.now() > deadline) {
      // Never leave a half-started server behind: it would hold the port for the next run.
      child.kill('SIGKILL');
      throw new Error(`${spec.name} did not answer ${spec.probe.path} within ${readyTimeoutMs / 1000} s`);
    }
    try {
      // Any HTTP answer counts: the server is up (a 401 to an anonymous probe is an answer).
      await fetch(url + spec.probe.path, { headers: spec.probe.headers, signal: AbortSignal.timeout(1000) });
      break;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  const startupMs = Number(process.hrtime.bigint() - started) / 1e6;
  return {
    name: spec.name,
    url,
    child,
    startupMs,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
        setTimeout(() => child.kill('SIGKILL'), 3000).unref();
      }),
  };
}

/** Resident memory of a process in MB: now (VmRSS) and its peak (VmHWM). */
export function memoryOf(pid: number | undefined): { rssMb: number; peakMb: number } {
  if (!pid) return { rssMb: 0, peakMb: 0 };
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(status)?.[1] ?? 0);
    return { rssMb: kb('VmRSS') / 1024, peakMb: kb('VmHWM') / 1024 };
  } catch {
    return { rssMb: 0, peakMb: 0 };
  }
}
