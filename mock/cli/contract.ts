// `fos-mock contract`: the contract suite (contract-tests/) as a command, against the mock or any
// server of the API, with its reports, drift list and exit code. It runs on jest (the suite is
// written as jest tests): the package ships the suite compiled to JavaScript, so jest needs no
// transform at run time. jest and jest-junit are optional peer dependencies of the package, for
// this command alone: without them it says in one line what to install (exit code 2).
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import type { Command } from 'commander';
import { projectPath } from '../../spec/project-root';
import { deferred } from '../lazy/deferred';
import { UserError } from '../scenarios/errors';
import { normaliseBaseUrl } from '../scenarios/http';
import { probeContractTarget, type ProbeTarget } from './contract-probe';
import { guarded, out, type Env } from './target';

// eslint-disable-next-line @typescript-eslint/no-require-imports -- a require inside `deferred` is what defers the load
const jestCli = deferred(() => require('jest') as typeof import('jest'));

/**
 * What to install for the command, the one line it prints when its runner is missing: the newest
 * majors the peer dependencies take (jest 29.7 or 30, jest-junit 16 or 17).
 */
export const RUNNER_INSTALL = 'npm install --save-dev jest@30 jest-junit@17';

/** The runner's packages this run needs and cannot find: jest, and jest-junit for --junit. */
export function missingRunner(flags: ContractFlags, find: (name: string) => unknown = require.resolve): string[] {
  const needed = flags.junit ? ['jest', 'jest-junit'] : ['jest'];
  return needed.filter((name) => {
    try {
      find(name);
      return false;
    } catch {
      return true;
    }
  });
}

/** After the run, what a misbehaving target may have left open gets this long before the process ends anyway. */
const EXIT_GRACE_MS = 10_000;

export interface ContractFlags {
  url?: string;
  controlUrl?: string;
  clientId?: string;
  clientSecret?: string;
  clientId2?: string;
  clientSecret2?: string;
  allowWrites?: boolean;
  junit?: string;
  markdown?: string;
  reportDir?: string;
  webhookUrl?: string;
  webhookPort?: string;
  file?: string[];
}

/**
 * `fos-mock serve` in a child process for a run without --url: the suite probes its target from a
 * child process of its own while jest waits, so the mock cannot live in this process.
 */
async function servedMock(): Promise<{ url: string; stop: () => void }> {
  const main = join(__dirname, '..', `main${__filename.endsWith('.ts') ? '.ts' : '.js'}`);
  const child = spawn(process.execPath, [...process.execArgv, main, 'serve', '--port', '0'], {
    env: { ...process.env, LOG_LEVEL: 'silent' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const url = await new Promise<string>((resolve, reject) => {
    let seen = '';
    child.stdout.on('data', (chunk: Buffer) => {
      seen += chunk.toString();
      const found = /listening on (http:\/\/\S+)/.exec(seen);
      if (found?.[1]) resolve(found[1]);
    });
    child.once('exit', (code) => reject(new UserError(`the mock for the run stopped before it listened (exit ${String(code)})`)));
  });
  child.stdout.resume();
  return { url, stop: () => child.kill('SIGTERM') };
}

/** The suite next to this module: compiled (.js) in the package and after a build, TypeScript in a clone run with tsx. */
function suite(): { dir: string; typescript: boolean } {
  const dir = resolve(__dirname, '..', '..', 'contract-tests');
  const files = existsSync(dir) ? readdirSync(dir) : [];
  if (files.some((f) => f.endsWith('.test.js'))) return { dir, typescript: false };
  if (files.some((f) => f.endsWith('.test.ts'))) return { dir, typescript: true };
  throw new UserError(`the contract suite is not where it should be (${dir}); reinstall fos-mock`);
}

/** The suite's settings are its environment variables (contract-tests/support/settings.ts). */
export function suiteEnvironment(flags: ContractFlags, baseUrl: string, reportDir: string): Env {
  const env: Env = { CONTRACT_BASE_URL: baseUrl, CONTRACT_REPORT_DIR: reportDir };
  if (flags.controlUrl) env.CONTRACT_CONTROL_URL = normaliseBaseUrl(flags.controlUrl);
  if (flags.clientId !== undefined || flags.clientSecret !== undefined) {
    if (!flags.clientId || !flags.clientSecret) throw new UserError('give both --client-id and --client-secret, or neither');
    Object.assign(env, { CONTRACT_CLIENT_ID: flags.clientId, CONTRACT_CLIENT_SECRET: flags.clientSecret });
  }
  if (flags.clientId2 !== undefined || flags.clientSecret2 !== undefined) {
    if (!flags.clientId2 || !flags.clientSecret2) throw new UserError('give both --client-id-2 and --client-secret-2, or neither');
    Object.assign(env, { CONTRACT_CLIENT_ID_2: flags.clientId2, CONTRACT_CLIENT_SECRET_2: flags.clientSecret2 });
  }
  if (flags.allowWrites) env.CONTRACT_ALLOW_WRITES = '1';
  if (flags.webhookUrl) env.CONTRACT_WEBHOOK_URL = flags.webhookUrl;
  if (flags.webhookPort) {
    if (!/^\d+$/.test(flags.webhookPort) || Number(flags.webhookPort) < 1 || Number(flags.webhookPort) > 65_535) {
      throw new UserError(`--webhook-port must be a port number, got "${flags.webhookPort}"`);
    }
    env.CONTRACT_WEBHOOK_PORT = flags.webhookPort;
  }
  return env;
}

/** The customers given on the command line, with the flags that name them. */
function customersOf(flags: ContractFlags): ProbeTarget['customers'] {
  const customers: ProbeTarget['customers'] = [];
  if (flags.clientId && flags.clientSecret)
    customers.push({ clientId: flags.clientId, clientSecret: flags.clientSecret, flags: '--client-id and --client-secret' });
  if (flags.clientId2 && flags.clientSecret2)
    customers.push({ clientId: flags.clientId2, clientSecret: flags.clientSecret2, flags: '--client-id-2 and --client-secret-2' });
  return customers;
}

/** Runs the suite; resolves with the exit code (0 when every test passed and the report found nothing wrong). */
export async function runContractSuite(flags: ContractFlags, env: Env): Promise<number> {
  const { dir, typescript } = suite();
  const reportDir = resolve(flags.reportDir ?? env.CONTRACT_REPORT_DIR ?? 'reports');
  mkdirSync(reportDir, { recursive: true });
  if (flags.url) {
    // A target the run could mean nothing against ends here, in seconds, saying why (exit code 2).
    const baseUrl = normaliseBaseUrl(flags.url);
    suiteEnvironment(flags, baseUrl, reportDir);
    await probeContractTarget({
      baseUrl,
      controlUrl: flags.controlUrl && normaliseBaseUrl(flags.controlUrl),
      customers: customersOf(flags),
    });
  }
  // Without --url: a mock of its own for the run, on an ephemeral port, the demo data, time running.
  const local = flags.url ? undefined : await servedMock();
  const baseUrl = flags.url ? normaliseBaseUrl(flags.url) : (local as { url: string }).url;
  if (local) out(`fos-mock: started an in-process mock at ${baseUrl} for the run`);
  try {
    Object.assign(process.env, suiteEnvironment(flags, baseUrl, reportDir));
    const reporters: unknown[] = [
      'default',
      [projectPath('contract-tests', 'support', 'contract-reporter.js'), { summaryFile: flags.markdown && resolve(flags.markdown) }],
    ];
    if (flags.junit) {
      const junit = resolve(flags.junit);
      mkdirSync(dirname(junit), { recursive: true });
      reporters.push(['jest-junit', { outputDirectory: dirname(junit), outputName: junit.slice(dirname(junit).length + 1) }]);
    }
    const config = {
      rootDir: dirname(dir),
      roots: [dir],
      testMatch: [`**/*.test.${typescript ? 'ts' : 'js'}`],
      testEnvironment: 'node',
      // Installed, the suite lives under node_modules/fos-mock/, which jest skips by default.
      testPathIgnorePatterns: [],
      haste: { retainAllFiles: true },
      testTimeout: 30_000,
      // Compiled JavaScript runs as it is; from a clone the TypeScript goes through ts-jest.
      transform: typescript
        ? {
            '^.+\\.ts$': [
              'ts-jest',
              { tsconfig: { isolatedModules: true, module: 'commonjs', moduleResolution: 'node', esModuleInterop: true } },
            ],
          }
        : {},
      reporters,
      cacheDirectory: join(reportDir, '.jest-cache'),
    };
    const { results } = await jestCli().runCLI(
      { $0: 'fos-mock contract', _: flags.file ?? [], config: JSON.stringify(config), runInBand: true, ci: true, watchman: false },
      // The one project is the working directory: jest then reads the config above as its own.
      [process.cwd()],
    );
    return results.success ? 0 : 1;
  } finally {
    local?.stop();
  }
}

export function registerContractCommand(cli: Command, env: Env): void {
  cli
    .command('contract')
    .summary('run the contract suite against a target (the mock, or any server of the API)')
    .description(
      [
        'Run the contract suite (every operation of the API document, every documented status it can provoke) against',
        '--url: the mock, or the real sandbox. Without --url an in-process mock is started for the run.',
        '',
        'Against a fos-mock (its control API answers at /_mock) every test runs: the suite makes a customer per',
        'test file and drives the clock, settlement, balances and faults. Against another server, tests that need',
        'the control API (expired tokens and quotes, webhook retries, settlement, balances, the review lock,',
        'instruction review) are skipped with that reason in their names, money-moving tests are skipped unless',
        '--allow-writes, tenancy tests need a second customer, and webhook tests need a receiver the target reaches',
        '(--webhook-url).',
        '',
        'Before the run, a few calls check the target: something answers at --url, it is a server of this API, and the',
        'suite has a customer (a control API, or --client-id and --client-secret the target accepts). If not, the command',
        'ends in seconds with what to change and exit code 2. Exit code 0 when every test passed and every operation was',
        'exercised; 1 otherwise.',
      ].join('\n'),
    )
    .option('--url <base>', 'the target: base URL of the service (default: an in-process mock)')
    .option('--control-url <url>', 'where the control API is, when not at the target (e.g. behind a proxy)')
    .option('--client-id <id>', 'the customer to act as (not needed against a fos-mock: it makes its own)')
    .option('--client-secret <secret>', "that customer's secret")
    .option('--client-id-2 <id>', 'a second customer, for the tenancy tests against a server without a control API')
    .option('--client-secret-2 <secret>', "the second customer's secret")
    .option('--allow-writes', 'create deposits, withdrawals, swaps and transfers and replace account owners on a target that is not a mock')
    .option('--junit <file>', 'write a JUnit XML report there')
    .option('--markdown <file>', 'write the Markdown summary (coverage, drift, violations, skips) there')
    .option('--report-dir <dir>', "where the run's records go (default ./reports)")
    .option('--webhook-url <url>', "a public URL (a tunnel) that reaches the suite's webhook receiver, for a remote target")
    .option('--webhook-port <port>', 'the local port the receiver listens on behind --webhook-url (default: its port)')
    .option('--file <name...>', 'run only these test files (e.g. quotes pagination)')
    .action((flags: ContractFlags) => {
      const missing = missingRunner(flags);
      if (missing.length > 0) {
        // 2, like a usage error: nothing ran, and one command fixes it.
        process.stderr.write(`fos-mock: the contract command runs on ${missing.join(' and ')}, not installed here: ${RUNNER_INSTALL}\n`);
        process.exitCode = 2;
        return;
      }
      return guarded(async () => {
        const code = await runContractSuite(flags, env);
        process.exitCode = code;
        // The suite closes what it opens; should a misbehaving target keep a socket open anyway,
        // the command still ends (a CI job must never hang on it).
        setTimeout(() => process.exit(code), EXIT_GRACE_MS).unref();
      });
    });
}
