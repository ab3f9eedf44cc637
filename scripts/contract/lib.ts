// Shared by the cross-check scripts of scripts/contract/: the mock in this process on an
// ephemeral loopback port (optionally behind a wrapper app), Prism as a child process with its
// log kept, and jest runs of the contract suite as child processes with their JSON results.
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { freePort } from '../free-port';

export { freePort };
import { createServer as createHttpServer, type RequestListener, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import { load, dump } from 'js-yaml';
import { createApp, type AppOptions, type MockApp } from '../../mock/app';
import { projectPath } from '../../spec/project-root';

export const ROOT = projectPath();
export const DEMO = { clientId: 'demo-client', clientSecret: 'demo-secret' };
/** The suite writes this before a skipped test's reason (contract-tests/support/capabilities.ts). */
const SKIP_MARK = ' [skipped: ';

export interface RunningMock {
  url: string;
  mock: MockApp;
  close(): Promise<void>;
}

/** createApp on 127.0.0.1:0; `wrap` may put the app behind another (middleware in front of every route). */
export async function startMock(
  options: AppOptions = {},
  wrap?: (app: RequestListener, mock: MockApp) => RequestListener,
): Promise<RunningMock> {
  const mock = await createApp({ ...options, config: { logLevel: 'silent', ...options.config } });
  const app = wrap ? wrap(mock.app, mock) : mock.app;
  const server: Server = createHttpServer(app).listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    mock,
    async close() {
      await mock.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

export function tempDir(prefix: string): string {
  return mkdtempSync(join(tmpdir(), `fos-contract-${prefix}-`));
}

export interface RunningPrism {
  url: string;
  /** Every line Prism printed (colour off), in order. */
  log: string[];
  child: ChildProcess;
  close(): Promise<void>;
}

/** `prism <args...> -p <port>`, resolved once it says it is listening. */
export async function startPrism(args: string[], readyTimeoutMs = 60_000): Promise<RunningPrism> {
  const port = await freePort();
  const child = spawn(
    process.execPath,
    [projectPath('node_modules', '@stoplight', 'prism-cli', 'dist', 'index.js'), ...args, '-h', '127.0.0.1', '-p', String(port)],
    {
      cwd: ROOT,
      env: { ...process.env, FORCE_COLOR: '0', NO_COLOR: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  const log: string[] = [];
  let partial = '';
  let ready: () => void;
  const listening = new Promise<void>((resolve) => (ready = resolve));
  const take = (chunk: Buffer) => {
    const lines = (partial + chunk.toString('utf8')).split('\n');
    partial = lines.pop() ?? '';
    for (const line of lines) {
      log.push(line);
      if (line.includes('Prism is listening on')) ready();
    }
  };
  child.stdout.on('data', take);
  child.stderr.on('data', take);
  const exited = once(child, 'exit').then(([code]) => {
    throw new Error(`prism exited (code ${code}) before listening:\n${log.slice(-20).join('\n')}`);
  });
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`prism did not listen within ${readyTimeoutMs} ms:\n${log.slice(-20).join('\n')}`)),
      readyTimeoutMs,
    );
  });
  try {
    await Promise.race([listening, exited, timeout]);
  } catch (error) {
    child.kill('SIGTERM');
    throw error;
  } finally {
    clearTimeout(timer);
  }
  exited.catch(() => undefined);
  return {
    url: `http://127.0.0.1:${port}`,
    log,
    child,
    async close() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const gone = once(child, 'exit');
      child.kill('SIGTERM');
      const forced = setTimeout(() => child.kill('SIGKILL'), 5000);
      await gone;
      clearTimeout(forced);
    },
  };
}

/**
 * A copy of spec/openapi.yaml for Prism's proxy: the same paths, schemas and responses, without
 * the security requirements. With them Prism answers a request without a valid-looking bearer
 * header itself (its own 401 problem+json, no X-Request-Id) and the target's 401 is never
 * seen; refusing tokens is the target's job, and the suite checks it.
 */
export function documentWithoutSecurity(dir: string): string {
  const doc = load(readFileSync(projectPath('spec', 'openapi.yaml'), 'utf8')) as Record<string, unknown>;
  delete doc.security;
  for (const item of Object.values(isObject(doc.paths) ? doc.paths : {})) {
    if (isObject(item)) for (const op of Object.values(item)) if (isObject(op) && 'responses' in op) delete op.security;
  }
  const file = join(dir, 'openapi.proxy.yaml');
  writeFileSync(file, dump(doc, { lineWidth: -1, noRefs: true }));
  return file;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

export interface TestResult {
  file: string;
  title: string;
  fullName: string;
  status: 'passed' | 'failed' | 'pending' | 'skipped' | 'todo' | 'disabled' | 'focused';
  failureMessages: string[];
}

export interface JestRun {
  code: number | null;
  ms: number;
  passed: number;
  failed: number;
  skipped: number;
  total: number;
  tests: TestResult[];
  /** Files that could not run (a failing beforeAll is reported on its tests; this is worse). */
  brokenFiles: Array<{ file: string; message: string }>;
  output: string;
}

/** Jest's --json output, as far as it is read here. */
interface JestJson {
  testResults: Array<{
    name: string;
    status: string;
    message?: string;
    assertionResults?: Array<{ title: string; fullName: string; status: TestResult['status']; failureMessages?: string[] | null }>;
  }>;
}

export interface JestOptions {
  /** Test path patterns (regexes, as jest's positional arguments); default the whole suite. */
  patterns?: string[];
  env?: Record<string, string | undefined>;
  /** Extra jest arguments (e.g. --reporters). */
  args?: string[];
  /** Echo jest's output as it comes. */
  echo?: boolean;
  /** Test files run at once, each in a jest worker (default: one after another, --runInBand). */
  workers?: number;
  timeoutMs?: number;
}

/** Runs jest in a child process (never synchronously: the mock under test lives in this one). */
export async function runJest(options: JestOptions = {}): Promise<JestRun> {
  const dir = tempDir('jest');
  const outputFile = join(dir, 'results.json');
  const args = [
    projectPath('node_modules', 'jest', 'bin', 'jest.js'),
    ...(options.patterns ?? ['contract-tests']),
    options.workers ? `--maxWorkers=${options.workers}` : '--runInBand',
    '--json',
    `--outputFile=${outputFile}`,
    ...(options.args ?? []),
  ];
  const started = Date.now();
  const child = spawn(process.execPath, args, { cwd: ROOT, env: { ...process.env, ...options.env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const take = (chunk: Buffer) => {
    output += chunk.toString('utf8');
    if (options.echo) process.stdout.write(chunk);
  };
  child.stdout.on('data', take);
  child.stderr.on('data', take);
  const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 15 * 60_000);
  const [code] = (await once(child, 'exit')) as [number | null];
  clearTimeout(timer);
  const ms = Date.now() - started;
  let json: JestJson;
  try {
    json = JSON.parse(readFileSync(outputFile, 'utf8')) as JestJson;
  } catch {
    rmSync(dir, { recursive: true, force: true });
    return {
      code,
      ms,
      passed: 0,
      failed: 0,
      skipped: 0,
      total: 0,
      tests: [],
      brokenFiles: [{ file: '(jest)', message: `no results (exit ${code}): ${output.slice(-2000)}` }],
      output,
    };
  }
  rmSync(dir, { recursive: true, force: true });
  const tests: TestResult[] = [];
  const brokenFiles: JestRun['brokenFiles'] = [];
  for (const file of json.testResults) {
    const rel = file.name.startsWith(ROOT) ? file.name.slice(ROOT.length + 1) : file.name;
    if (file.status === 'failed' && (file.assertionResults ?? []).every((a) => a.status !== 'failed'))
      brokenFiles.push({ file: rel, message: String(file.message ?? '').slice(0, 2000) });
    for (const a of file.assertionResults ?? [])
      tests.push({ file: rel, title: a.title, fullName: a.fullName, status: a.status, failureMessages: a.failureMessages ?? [] });
  }
  const count = (pick: (t: TestResult) => boolean) => tests.filter(pick).length;
  return {
    code,
    ms,
    passed: count((t) => t.status === 'passed'),
    failed: count((t) => t.status === 'failed'),
    skipped: count((t) => t.status === 'pending' || t.status === 'skipped' || t.status === 'todo' || t.status === 'disabled'),
    total: tests.length,
    tests,
    brokenFiles,
    output,
  };
}

/** The reason a skipped test states in its title (or in its describe's: the full name holds both). */
/**
 * The whole contract suite (or the given files) against a URL, as the demo customer, with the
 * suite's reporter, writing its reports to `reportDir`; `env` adds or unsets variables.
 */
export function runSuite(
  baseUrl: string,
  reportDir: string,
  patterns: string[],
  env: Record<string, string | undefined> = {},
  workers?: number,
): Promise<JestRun> {
  return runJest({
    workers,
    patterns: patterns.length ? patterns : ['contract-tests'],
    echo: true,
    args: ['--reporters=default', '--reporters=./contract-tests/support/contract-reporter.js'],
    env: {
      CONTRACT_BASE_URL: baseUrl,
      CONTRACT_CLIENT_ID: DEMO.clientId,
      CONTRACT_CLIENT_SECRET: DEMO.clientSecret,
      CONTRACT_ALLOW_WRITES: '1',
      CONTRACT_REPORT_DIR: reportDir,
      ...env,
    },
  });
}

export function skipReason(test: TestResult): string {
  const at = test.fullName.indexOf(SKIP_MARK);
  if (at < 0) return '(no reason stated)';
  const rest = test.fullName.slice(at + SKIP_MARK.length);
  // The reason ends at the bracket that closes it (reasons may hold parentheses, not brackets).
  const end = rest.indexOf(']');
  return end < 0 ? rest : rest.slice(0, end);
}

/** What a failure says, in one line: its first line and the problem or expected/received after it. */
export function firstFailureLine(test: TestResult): string {
  const text = stripVTControlCharacters(test.failureMessages[0] ?? '');
  const lines = text
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);
  const head = lines[0] ?? '';
  const detail = lines
    .slice(1, 8)
    .filter((l) => /^- |^Expected|^Received/.test(l))
    .slice(0, 2);
  const line = [head.replace(/^(Error|ContractViolation): /, ''), ...detail].join(' ');
  return line.length > 220 ? `${line.slice(0, 217)}...` : line;
}

export function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}

export function pad(text: string, width: number): string {
  return text.length >= width ? text : text + ' '.repeat(width - text.length);
}

/** Runs a script's `main` and exits with its code; a throw prints its stack and exits 1. */
export function runMain(main: () => Promise<number>): void {
  main().then(
    (code) => process.exit(code),
    (error: unknown) => {
      process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
      process.exit(1);
    },
  );
}
