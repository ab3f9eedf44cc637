// A throwaway redis-server (Debian's package) for tests, benchmarks and scripts: no config file,
// loopback only, a fresh temporary folder as its `dir`, nothing saved unless the append-only file
// is asked for. No jest here, so a bench or a script can start one too. A server is never left
// behind: stop() waits for the process to end, and a process 'exit' hook kills any still running.
import { spawn, type ChildProcess } from 'node:child_process';
import { accessSync, constants, existsSync, mkdirSync, rmSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createConnection } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort } from '../../scripts/free-port';
import { HANG_GUARD_MS } from './waits';

export interface RedisServerOptions {
  /** Append-only file on or off; on by default when `appendfsync` is given, else off. */
  appendonly?: boolean;
  /** When the append-only file is fsynced (Redis's default: 'everysec'). */
  appendfsync?: 'always' | 'everysec' | 'no';
  /** The server's working folder (kept on stop: it is the caller's); a fresh temporary one by default. */
  dir?: string;
  /** A free loopback port by default. */
  port?: number;
}

export interface RedisServer {
  /** `redis://127.0.0.1:<port>` */
  url: string;
  port: number;
  dir: string;
  /** SIGTERM, then waits for the exit (SIGKILL after 5 s); removes a temporary dir unless `keepDir` (then it is yours). */
  stop(options?: { keepDir?: boolean }): Promise<void>;
  /** SIGKILL (a crash), waits for the exit; the dir is kept, so restart() finds its data. */
  kill(): Promise<void>;
  /** Starts again on the same port and dir (stopping it first, dir kept, if it still runs). */
  restart(): Promise<void>;
}

/** A hang guard: the server is waited for until it answers PING; only this long without it fails. */
const READY_TIMEOUT_MS = HANG_GUARD_MS;
const STOP_GRACE_MS = 5_000;

/** Servers still running in this process, killed by the 'exit' hook if nobody stopped them. */
const running = new Set<ChildProcess>();
/** Temporary dirs made here and not yet removed (nor handed over by stop({ keepDir })): the hook removes them. */
const temporaryDirs = new Set<string>();
let exitHookInstalled = false;

function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.on('exit', () => {
    for (const child of running) child.kill('SIGKILL');
    for (const dir of temporaryDirs) rmSync(dir, { recursive: true, force: true });
  });
}

function executable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * The redis-server binary: `$REDIS_SERVER` when set (a path; one that does not exist means "none",
 * which is how the skip and CI paths are tried), else the first on PATH, else /usr/bin/redis-server.
 */
export function redisServerPath(): string | undefined {
  const forced = process.env.REDIS_SERVER;
  if (forced !== undefined && forced !== '') return executable(forced) ? forced : undefined;
  for (const folder of (process.env.PATH ?? '').split(path.delimiter)) {
    if (folder === '') continue;
    const candidate = path.join(folder, 'redis-server');
    if (executable(candidate)) return candidate;
  }
  return executable('/usr/bin/redis-server') ? '/usr/bin/redis-server' : undefined;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** One PING on a fresh connection: true on +PONG, false on anything else (refused, -LOADING, …). */
function ping(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ host: '127.0.0.1', port });
    let answer = '';
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(1000, () => done(false));
    socket.on('error', () => done(false));
    socket.on('connect', () => socket.write('PING\r\n'));
    socket.on('data', (chunk) => {
      answer += chunk.toString('latin1');
      if (answer.includes('\r\n')) done(answer.startsWith('+PONG'));
    });
  });
}

interface Running {
  child: ChildProcess;
  exited: Promise<void>;
  output: () => string;
}

function launch(binary: string, port: number, dir: string, appendonly: boolean, appendfsync: string): Running {
  const args = [
    '--port',
    String(port),
    '--bind',
    '127.0.0.1',
    '--dir',
    dir,
    '--save',
    '',
    '--appendonly',
    appendonly ? 'yes' : 'no',
    '--appendfsync',
    appendfsync,
    '--protected-mode',
    'no',
    '--daemonize',
    'no',
    '--loglevel',
    'warning',
  ];
  const child = spawn(binary, args, { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
  running.add(child);
  // Its log (warnings only) is drained so the pipe never fills, and its tail kept for errors.
  let log = '';
  const keep = (chunk: Buffer) => {
    log = (log + chunk.toString('utf8')).slice(-4000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const exited = new Promise<void>((resolve) => {
    child.once('exit', () => {
      running.delete(child);
      resolve();
    });
    child.once('error', (error) => {
      log += `\nspawn failed: ${error.message}`;
      running.delete(child);
      resolve();
    });
  });
  return { child, exited, output: () => log };
}

function isRunning(server: Running | undefined): boolean {
  return server !== undefined && running.has(server.child);
}

/** Waits for +PONG; rejects (after killing it) if the process ends first or the time runs out. */
async function waitReady(server: Running, port: number): Promise<void> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (!isRunning(server)) throw new Error(`redis-server on port ${port} exited before answering PING:\n${server.output()}`);
    if (await ping(port)) return;
    await sleep(25);
  }
  server.child.kill('SIGKILL');
  await server.exited;
  throw new Error(
    `gave up waiting for redis-server on port ${port} to answer PING after ${READY_TIMEOUT_MS} ms (hang guard):\n${server.output()}`,
  );
}

async function terminate(server: Running | undefined, signal: 'SIGTERM' | 'SIGKILL'): Promise<void> {
  if (server === undefined || !isRunning(server)) return;
  server.child.kill(signal);
  if (signal === 'SIGKILL') return server.exited;
  const timer = setTimeout(() => server.child.kill('SIGKILL'), STOP_GRACE_MS);
  await server.exited;
  clearTimeout(timer);
}

export async function startRedisServer(options: RedisServerOptions = {}): Promise<RedisServer> {
  const binary = redisServerPath();
  if (!binary) throw new Error('redis-server not found (PATH, /usr/bin/redis-server): apt-get install redis-server');
  installExitHook();
  const appendfsync = options.appendfsync ?? 'everysec';
  const appendonly = options.appendonly ?? options.appendfsync !== undefined;
  const ownDir = options.dir === undefined;
  const dir = options.dir ?? (await mkdtemp(path.join(tmpdir(), 'fos-redis-')));
  if (ownDir) temporaryDirs.add(dir);

  let port = options.port ?? 0;
  let current: Running | undefined;
  // A port found free may be taken before redis binds it: try another, unless the caller chose it.
  for (let attempt = 1; ; attempt++) {
    if (options.port === undefined) port = await freePort();
    current = launch(binary, port, dir, appendonly, appendfsync);
    try {
      await waitReady(current, port);
      break;
    } catch (error) {
      await terminate(current, 'SIGKILL');
      if (options.port !== undefined || attempt >= 3) {
        if (ownDir) {
          temporaryDirs.delete(dir);
          await rm(dir, { recursive: true, force: true });
        }
        throw error;
      }
    }
  }

  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    dir,
    async stop(stopOptions = {}) {
      await terminate(current, 'SIGTERM');
      if (!temporaryDirs.has(dir)) return;
      temporaryDirs.delete(dir);
      if (!stopOptions.keepDir) await rm(dir, { recursive: true, force: true });
    },
    async kill() {
      await terminate(current, 'SIGKILL');
    },
    async restart() {
      await terminate(current, 'SIGTERM');
      if (!existsSync(dir)) mkdirSync(dir, { recursive: true });
      if (ownDir) temporaryDirs.add(dir);
      current = launch(binary, port, dir, appendonly, appendfsync);
      try {
        await waitReady(current, port);
      } catch (error) {
        await terminate(current, 'SIGKILL');
        throw error;
      }
    },
  };
}
