// What the target lets the suite do, known before any test is registered, so a test that needs
// something the target lacks is registered as skipped with its reason (jest cannot skip at run
// time). The control API is probed once per run, synchronously, in a child process: for the
// in-process mock the child starts the mock as the test files do; for a URL it asks that URL.
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
}

export type Need = 'control' | 'writes' | 'secondCustomer' | 'webhooks' | 'loopbackReceiver';

interface Probe {
  status: number | string;
  ok: boolean;
}

const CACHE_FRESH_MS = 30 * 60 * 1000;

function probe(baseUrl: string | undefined): Probe {
  const dir = recordsDir();
  const cacheFile = join(dir, `probe-${runId()}.json`);
  if (existsSync(cacheFile) && Date.now() - statSync(cacheFile).mtimeMs < CACHE_FRESH_MS) {
    const cached = JSON.parse(readFileSync(cacheFile, 'utf8')) as Probe & { baseUrl?: string };
    if (cached.baseUrl === baseUrl) return cached;
  }
  const child = baseUrl
    ? spawnSync(
        process.execPath,
        ['-e', 'fetch(process.argv[1] + "/_mock/health", { signal: AbortSignal.timeout(5000) }).then(async (r) => { const b = await r.json().catch(() => ({})); process.stdout.write(JSON.stringify({ status: r.status, ok: r.status === 200 && b.status === "ok" })) }, (e) => process.stdout.write(JSON.stringify({ status: String(e.cause?.code ?? e.message), ok: false })))', baseUrl],
        { encoding: 'utf8', timeout: 15_000 },
      )
    : spawnSync(process.execPath, ['--import', 'tsx', projectPath('contract-tests', 'support', 'probe-target.ts')], {
        cwd: projectPath(),
        encoding: 'utf8',
        timeout: 60_000,
      });
  let result: Probe;
  try {
    result = JSON.parse(child.stdout) as Probe;
  } catch {
    throw new Error(`contract suite: could not probe the target for a control API (exit ${child.status}): ${child.stderr || child.error?.message}`);
  }
  mkdirSync(dir, { recursive: true });
  writeFileSync(cacheFile, JSON.stringify({ ...result, baseUrl }));
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
  const health = probe(s.baseUrl);
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
    if (need === 'secondCustomer') reasons.push('needs a second customer: a control API, or CONTRACT_CLIENT_ID_2 and CONTRACT_CLIENT_SECRET_2');
    if (need === 'webhooks') reasons.push('needs a receiver the target can reach: set CONTRACT_WEBHOOK_URL (and CONTRACT_WEBHOOK_PORT)');
    if (need === 'loopbackReceiver') reasons.push('needs a receiver on loopback (a closed local port)');
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

/** `describe`, or `describe.skip` with the reason in its title. */
export function describeWhen(needs: readonly Need[], name: string, fn: () => void): void {
  const reason = missing(needs);
  if (reason) describe.skip(`${name}${SKIP_MARK}${reason}]`, fn);
  else describe(name, fn);
}

/**
 * A test of something the mock is known to get wrong (see the README's contract suite section):
 * against a mock it is registered with jest's `it.failing`, so the run stays green while the
 * bug stands and turns red the day it is fixed (then drop the marker); against any other
 * target it is an ordinary test.
 */
export function itKnownMockBug(bug: string, name: string, fn: () => Promise<unknown>): void {
  if (capabilities().mock) it.failing(`${name}${KNOWN_BUG_MARK}${bug}]`, fn);
  else it(name, fn);
}
