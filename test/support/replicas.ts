// Several `fos-mock serve` processes on one Redis (`--redis <url>`): replicas of one service, for
// the tests and the script that check they behave as one. Each runs from the sources (TypeScript
// through tsx, so no build is needed) on a loopback port chosen once and kept across restarts, so
// a balancer in front of them keeps its upstreams. Tokens and cursors signed by one replica must
// be read by another, and by a restarted one: on Redis through the secret the first replica keeps
// there (FOS_MOCK_SECRET is not set unless `env` sets it), in memory through one FOS_MOCK_SECRET.
//
// Node runs tsx as a loader (`node --import tsx mock/main.ts serve ...`) rather than through the
// `tsx` command, which starts the server as its own child: killing `tsx` with SIGKILL would leave
// the server running on its port. A watchdog module loaded first ends a replica whose parent (the
// test process) has gone, however it went; an exit handler kills them when the test process exits.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { Agent } from 'node:http';
import { send, type Answer } from '../reliability/support/http-client';
import { freePort } from '../../scripts/free-port';
import { projectPath } from '../../spec/project-root';
import { startRoundRobin, type RoundRobin } from './round-robin';
import { HANG_GUARD_MS } from './waits';

export interface ReplicaOptions {
  /** The Redis every replica keeps its state in; undefined: in-memory replicas (each its own state; for testing this harness). */
  redisUrl: string | undefined;
  /** More environment for every replica (LOG_LEVEL=warn by default). */
  env?: Record<string, string>;
  /** How many replicas start now, the first ones (default all); start(i) starts the others later. */
  initially?: number;
  /**
   * A hang guard on a replica's start: it is waited for until it says it listens and answers GET
   * /_mock/health, however long that takes (tsx compiles, replicas start at once on a shared
   * 2-core machine); only this long without it fails (default 120 s).
   */
  readyTimeoutMs?: number;
  /** Modules replica i loads (`node --import`) after tsx and before the mock: a test's hook into one replica. */
  importsFor?: (i: number) => string[];
}

export interface Replicas {
  /** Each replica's base URL (http://127.0.0.1:<port>), the same across stop and start. */
  urls: string[];
  /** What each replica printed (stdout and stderr), across its restarts; for failure messages. */
  output: string[];
  /** SIGTERM to every running replica; resolves when all have exited. */
  stopAll(): Promise<void>;
  /** SIGTERM to replica i; resolves when it has exited. */
  stop(i: number): Promise<void>;
  /** SIGKILL to replica i (no clean-up of its own); resolves when it has exited. */
  kill(i: number): Promise<void>;
  /** Starts replica i again on its port; resolves when it answers GET /_mock/health. */
  start(i: number): Promise<void>;
  /** Whether replica i's process is running now (false once it has exited, however it ended). */
  running(i: number): boolean;
  /** The process id of replica i's last start (undefined before its first). */
  pid(i: number): number | undefined;
}

/** Ends the process when its parent changes (the test process died): no replica outlives its test. */
const WATCHDOG =
  'data:text/javascript,' +
  encodeURIComponent('const p = process.ppid; setInterval(() => { if (process.ppid !== p) process.exit(1); }, 500).unref();');

const running = new Set<ChildProcess>();
let exitHookInstalled = false;
function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.on('exit', () => {
    for (const child of running) child.kill('SIGKILL');
  });
}

async function exited(child: ChildProcess, signal: NodeJS.Signals, forceAfterMs = 10_000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const gone = once(child, 'exit');
  child.kill(signal);
  const forced = setTimeout(() => child.kill('SIGKILL'), forceAfterMs);
  await gone;
  clearTimeout(forced);
}

async function healthy(url: string): Promise<boolean> {
  try {
    const res = await fetch(`${url}/_mock/health`, { signal: AbortSignal.timeout(2000) });
    await res.arrayBuffer();
    return res.status === 200;
  } catch {
    return false;
  }
}

export async function startReplicas(n: number, options: ReplicaOptions): Promise<Replicas> {
  installExitHook();
  const ports = await Promise.all(Array.from({ length: n }, () => freePort()));
  const urls = ports.map((port) => `http://127.0.0.1:${port}`);
  const output = ports.map(() => '');
  const children: Array<ChildProcess | undefined> = ports.map(() => undefined);
  // This process's REDIS_URL / REDIS_PREFIX / FOS_MOCK_SECRET are not the replicas' business. On
  // Redis the replicas share the secret the first one keeps there (what is tested); in memory
  // they get one here, as they would need to.
  const { REDIS_URL: _url, REDIS_PREFIX: _prefix, FOS_MOCK_SECRET: _secret, ...inherited } = process.env;
  const env: NodeJS.ProcessEnv = {
    ...inherited,
    LOG_LEVEL: 'warn',
    ...(options.redisUrl === undefined ? { FOS_MOCK_SECRET: randomBytes(32).toString('hex') } : {}),
    ...options.env,
  };
  const readyTimeoutMs = options.readyTimeoutMs ?? 2 * HANG_GUARD_MS;

  async function start(i: number): Promise<void> {
    if (children[i] && children[i].exitCode === null && children[i].signalCode === null) throw new Error(`replica ${i} is already running`);
    const hooks = (options.importsFor?.(i) ?? []).flatMap((module) => ['--import', module]);
    const args = ['--import', WATCHDOG, '--import', 'tsx', ...hooks, projectPath('mock', 'main.ts'), 'serve', '--port', String(ports[i])];
    if (options.redisUrl !== undefined) args.push('--redis', options.redisUrl);
    const child = spawn(process.execPath, args, { cwd: projectPath(), env, stdio: ['ignore', 'pipe', 'pipe'] });
    children[i] = child;
    running.add(child);
    child.on('exit', () => running.delete(child));
    const take = (chunk: Buffer) => (output[i] += chunk.toString('utf8'));
    child.stdout.on('data', take);
    child.stderr.on('data', take);
    const started = Date.now();
    const tail = () => output[i]!.split('\n').slice(-15).join('\n');
    // Listening is announced on stdout; the control API answering is what "ready" means here.
    while (!(output[i]!.includes('fos-mock listening on') && (await healthy(urls[i]!)))) {
      if (child.exitCode !== null || child.signalCode !== null)
        throw new Error(`replica ${i} (${urls[i]}) exited (${child.exitCode ?? child.signalCode}) before it was ready:\n${tail()}`);
      if (Date.now() - started > readyTimeoutMs) {
        await exited(child, 'SIGKILL');
        throw new Error(
          `gave up waiting for replica ${i} (${urls[i]}) to listen and answer GET /_mock/health after ${readyTimeoutMs} ms ` +
            `(hang guard):\n${tail()}`,
        );
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  const stop = async (i: number) => {
    if (children[i]) await exited(children[i], 'SIGTERM');
  };
  const replicas: Replicas = {
    urls,
    output,
    start,
    stop,
    kill: async (i) => {
      if (children[i]) await exited(children[i], 'SIGKILL');
    },
    stopAll: async () => {
      await Promise.all(children.map((_, i) => stop(i)));
    },
    running: (i) => children[i] !== undefined && children[i].exitCode === null && children[i].signalCode === null,
    pid: (i) => children[i]?.pid,
  };
  try {
    await Promise.all(ports.slice(0, options.initially ?? n).map((_, i) => start(i)));
  } catch (error) {
    await replicas.stopAll();
    throw error;
  }
  return replicas;
}

/**
 * JSON calls to one base URL (a replica, or a balancer in front of them) on a keep-alive client:
 * the control API, the token call, and a customer's authorised calls (POST with a fresh
 * X-Idempotency-Key unless one is given). Idle sockets are closed after 3 s, before the mock's
 * 5 s keep-alive time-out (or the balancer's) could close one under a request.
 */
export function serviceClient(baseUrl: string) {
  const url = new URL(baseUrl);
  if (url.hostname !== '127.0.0.1') throw new Error(`serviceClient: loopback 127.0.0.1 only, got ${baseUrl}`);
  const port = Number(url.port);
  const agent = new Agent({ keepAlive: true, maxSockets: 256, timeout: 3_000 });
  const call = (method: string, path: string, headers: Record<string, string> = {}, body?: unknown): Promise<Answer> =>
    send(port, agent, { method, path, headers: { accept: 'application/json', ...headers }, body });
  const expectOk = (answer: Answer, what: string): Answer => {
    if (answer.status >= 300) throw new Error(`${what}: answered ${answer.status} ${answer.text.slice(0, 500)}`);
    return answer;
  };
  return {
    baseUrl,
    call,
    /** A control call (path relative to /_mock); a status of 300 or more throws with the answer. */
    control: async (method: string, path: string, body?: unknown) =>
      expectOk(await call(method, `/_mock${path}`, {}, body), `${method} /_mock${path}`),
    /** A fresh customer (POST /_mock/customers): ids of its accounts (fixture order) and beneficiaries. */
    customer: async (): Promise<{
      customerId: string;
      clientId: string;
      clientSecret: string;
      accounts: string[];
      beneficiaries: string[];
    }> => expectOk(await call('POST', '/_mock/customers', {}, {}), 'POST /_mock/customers').body,
    token: async (clientId: string, clientSecret: string): Promise<string> =>
      expectOk(await call('POST', '/api/oauth/client/token', {}, { clientId, clientSecret }), `token of ${clientId}`).body.accessToken,
    /** A customer's calls with its bearer token. */
    as: (token: string) => {
      const auth = { authorization: `Bearer ${token}` };
      return {
        get: (path: string) => call('GET', path, auth),
        post: (path: string, body?: unknown, key: string = randomUUID()) => call('POST', path, { ...auth, 'x-idempotency-key': key }, body),
        patch: (path: string, body: unknown, key: string = randomUUID()) =>
          call('PATCH', path, { ...auth, 'x-idempotency-key': key }, body),
        delete: (path: string) => call('DELETE', path, auth),
      };
    },
    close: () => agent.destroy(),
  };
}

export type ServiceClient = ReturnType<typeof serviceClient>;
export type CustomerClient = ReturnType<ServiceClient['as']>;

export interface BalancedReplicas {
  replicas: Replicas;
  balancer: RoundRobin;
  /** Calls through the balancer. */
  service: ServiceClient;
  close(): Promise<void>;
}

/** `n` replicas on one Redis behind the strict round-robin balancer, with a client through it. */
export async function startBalancedReplicas(n: number, options: ReplicaOptions): Promise<BalancedReplicas> {
  const replicas = await startReplicas(n, options);
  const balancer = await startRoundRobin(replicas.urls);
  const service = serviceClient(balancer.url);
  return {
    replicas,
    balancer,
    service,
    async close() {
      service.close();
      await balancer.close();
      await replicas.stopAll();
    },
  };
}
