// What the target lets the suite do, known before any test is registered, so a test that needs
// something the target lacks is registered as skipped with its reason (jest cannot skip at run
// time). The control API is probed once per run, synchronously, in a child process: for the
// in-process mock the child starts the mock as the test files do; for a URL it asks that URL
// (or CONTRACT_CONTROL_URL) and, without a control API, whether the target keeps state at all
// (probe-url.ts: a stateless example server such as `prism mock` runs only the tests that
// check shapes, every other test skips with the probe's evidence as its reason).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from '@jest/globals';
import { projectPath } from '../../spec/project-root';
import { KNOWN_BUG_MARK } from './client';
import { recordsDir, runId } from './run';
import { settings } from './settings';

export interface Capabilities {
  /** The target is started by each test file in-process (no CONTRACT_BASE_URL). */
  inProcess: boolean;
  /** What the target is, for the report. */
  label: string;
  /** GET /_mock/health answered 200. */
  control: boolean;
  controlNote: string;
  /** The target is fos-mock (in-process, or a URL serving the control API): drift is a failure. */
  mock: boolean;
  /** Money-moving operations may be created and account owners changed: a mock, or CONTRACT_ALLOW_WRITES=1. */
  writes: boolean;
  /** A second customer is available (control API, demo customers in-process, or CONTRACT_CLIENT_ID_2). */
  secondCustomer: boolean;
  /** The target can reach a receiver the suite runs (loopback for a local target, or CONTRACT_WEBHOOK_URL). */
  webhooks: boolean;
  /** The receiver is on loopback, so the suite can also offer it a closed port. */
  loopbackReceiver: boolean;
  /** The target keeps what it is told and applies the API's rules (false: a stateless example server). */
  stateful: boolean;
  statefulNote: string;
  /** Requests reach the target byte for byte (false behind Prism's proxy, CONTRACT_PROXY=prism). */
  rawBodies: boolean;
}

export type Need = 'control' | 'writes' | 'secondCustomer' | 'webhooks' | 'loopbackReceiver' | 'stateful' | 'rawBodies';

interface Probe {
  status: number | string;
  ok: boolean;
  /** Only for a URL target without a control API (probe-url.ts); otherwise stateful. */
  stateful?: boolean;
  statefulNote?: string;
}

const CACHE_FRESH_MS = 30 * 60 * 1000;
/**
 * Hang guards of the probe's child process (it ends by itself once it has its answer): starting
 * the mock through tsx takes seconds on a quiet machine and many more on a busy one; a URL's
 * probe makes a few calls, each bounded by probe-url.ts.
 */
const PROBE_GUARD_MS = { inProcess: 120_000, url: 60_000 };

function probe(baseUrl: string | undefined, controlUrl: string | undefined): Probe {
  const dir = recordsDir();
  const cacheFile = join(dir, `probe-${runId()}.json`);
  if (existsSync(cacheFile) && Date.now() - statSync(cacheFile).mtimeMs < CACHE_FRESH_MS) {
    const cached = JSON.parse(readFileSync(cacheFile, 'utf8')) as Probe & { baseUrl?: string; controlUrl?: string };
    if (cached.baseUrl === baseUrl && cached.controlUrl === controlUrl) return cached;
  }
  // The child reads the same environment (settings.ts): the URLs and the customer to probe with.
  // Beside this module: TypeScript run through tsx in a clone, JavaScript in the installed package.
  const compiled = __filename.endsWith('.js');
  const script = join(__dirname, `${baseUrl ? 'probe-url' : 'probe-target'}${compiled ? '.js' : '.ts'}`);
  const child = spawnSync(process.execPath, compiled ? [script] : ['--import', 'tsx', script], {
    cwd: projectPath(),
    encoding: 'utf8',
    timeout: baseUrl ? PROBE_GUARD_MS.url : PROBE_GUARD_MS.inProcess,
  });
  if (child.error && (child.error as NodeJS.ErrnoException).code === 'ETIMEDOUT') {
    const guard = (baseUrl ? PROBE_GUARD_MS.url : PROBE_GUARD_MS.inProcess) / 1000;
    throw new Error(
      `contract suite: gave up waiting for the probe of the target (${baseUrl ?? 'a child process starting the mock'}, ` +
        `GET /_mock/health) after ${guard} s (hang guard): ${child.stderr}`,
    );
  }
  let result: Probe;
  try {
    result = JSON.parse(child.stdout) as Probe;
  } catch {
    throw new Error(
      `contract suite: could not probe the target for a control API (exit ${child.status}): ${child.stderr || child.error?.message}`,
    );
  }
  mkdirSync(dir, { recursive: true });
  writeFileSync(cacheFile, JSON.stringify({ ...result, baseUrl, controlUrl }));
  return result;
}

function isLoopback(url: string): boolean {
  const host = new URL(url).hostname.replace(/^\[|\]$/g, '');
  return host === 'localhost' || host === '::1' || /^127\./.test(host);
}

let cached: Capabilities | undefined;
export function capabilities(): Capabilities {
  if (cached) return cached;
  const s = settings();
  const inProcess = s.baseUrl === undefined;
  const health = probe(s.baseUrl, s.controlUrl);
  const control = health.ok;
  const mock = inProcess || control;
  const loopbackReceiver = !s.webhookUrl && (inProcess || isLoopback(s.baseUrl!));
  cached = {
    inProcess,
    label: inProcess ? 'the in-process mock (mock/app.ts, one server per test file)' : s.baseUrl!,
    control,
    controlNote: control ? 'control API present' : `no control API (GET /_mock/health answered ${health.status})`,
    mock,
    writes: mock || s.allowWrites,
    secondCustomer: control || inProcess || s.otherCustomer !== undefined,
    webhooks: loopbackReceiver || s.webhookUrl !== undefined,
    loopbackReceiver,
    stateful: health.stateful ?? true,
    statefulNote: health.statefulNote ?? (inProcess ? 'the in-process mock keeps state' : 'the control API is there: fos-mock keeps state'),
    rawBodies: s.proxy === undefined,
  };
  return cached;
}

/** Why the target cannot run a test with these needs, or undefined when it can. */
export function missing(needs: readonly Need[]): string | undefined {
  const caps = capabilities();
  const reasons: string[] = [];
  for (const need of needs) {
    if (caps[need]) continue;
    if (need === 'control') reasons.push(`needs the control API (${caps.controlNote})`);
    if (need === 'writes') reasons.push('moves money or changes an account on a target that is not a mock: set CONTRACT_ALLOW_WRITES=1');
    if (need === 'secondCustomer')
      reasons.push('needs a second customer: a control API, or CONTRACT_CLIENT_ID_2 and CONTRACT_CLIENT_SECRET_2');
    if (need === 'webhooks') reasons.push('needs a receiver the target can reach: set CONTRACT_WEBHOOK_URL (and CONTRACT_WEBHOOK_PORT)');
    if (need === 'loopbackReceiver') reasons.push('needs a receiver on loopback (a closed local port)');
    if (need === 'stateful') reasons.push(`needs a target that keeps state and applies the API's rules (${caps.statefulNote})`);
    if (need === 'rawBodies') {
      const proxy = settings().proxy === 'prism' ? "Prism's proxy, which re-parses bodies and refuses one on a GET" : 'a proxy';
      reasons.push(`sends bytes a proxy would not pass on as sent (the target is behind ${proxy})`);
    }
  }
  return reasons.length ? reasons.join('; ') : undefined;
}

export const SKIP_MARK = ' [skipped: ';

/** `it`, or `it.skip` with the reason in its title when the target lacks something the test needs. */
export function itWhen(needs: readonly Need[], name: string, fn: () => Promise<unknown>, timeout?: number): void {
  const reason = missing(needs);
  if (reason) it.skip(`${name}${SKIP_MARK}${reason}]`, fn);
  else it(name, fn, timeout);
}

/** `it.each`, or `it.skip.each` with the reason in each title, for a table of cases. */
export function itEachWhen<const Row extends readonly unknown[]>(needs: readonly Need[], table: readonly Row[]) {
  const reason = missing(needs);
  return (name: string, fn: (...row: [...Row]) => Promise<unknown>, timeout?: number): void => {
    // The callback takes the row as a mutable tuple, so a test's parameters are typed from the
    // table; jest hands each test the row as the table holds it.
    const test = (...row: Row) => fn(...row);
    if (reason) it.skip.each(table)(`${name}${SKIP_MARK}${reason.replace(/%/g, '%%')}]`, test);
    else it.each(table)(name, test, timeout);
  };
}

/** `describe`, or `describe.skip` with the reason in its title. */
export function describeWhen(needs: readonly Need[], name: string, fn: () => void): void {
  const reason = missing(needs);
  if (reason) describe.skip(`${name}${SKIP_MARK}${reason}]`, fn);
  else describe(name, fn);
}

/**
 * A test of something the mock is known to get wrong (see docs/contract-suite.md, "Known mock bugs"):
 * against a mock it is registered with jest's `it.failing`, so the run stays green while the
 * bug stands and turns red the day it is fixed (then drop the marker); against any other
 * target it is an ordinary test.
 */
export function itKnownMockBug(bug: string, name: string, fn: () => Promise<unknown>): void {
  if (capabilities().mock) it.failing(`${name}${KNOWN_BUG_MARK}${bug}]`, fn);
  else it(name, fn);
}
