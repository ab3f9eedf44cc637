// STATE_FILE is one mock's at a time: a second mock on the file is refused before it listens, with
// one line naming the file and the process that holds it, and starts once the first has stopped
// cleanly. A lock whose holder is gone is taken over: on this host when its process is not
// running (killed with SIGKILL), from another host (a container gone, its volume kept) when its
// heartbeat has lapsed. Of several mocks taking one stale lock over at once, one wins.
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals';
import { lockStateFile } from '../../mock/control/state-file-lock';
import { startMock } from '../../mock/package';
import { freePort } from '../../scripts/free-port';
import { projectPath } from '../../spec/project-root';
import { startReplicas, type Replicas } from '../support/replicas';
import { until, within } from '../support/waits';

/** A hang guard for tests that start the mock several times. */
const RESTARTS_MS = 600_000;

const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

let folder: string;
beforeAll(() => {
  folder = mkdtempSync(join(tmpdir(), 'fos-state-lock-'));
});
afterAll(() => {
  if (folder) rmSync(folder, { recursive: true, force: true });
});

const mocks: Replicas[] = [];
async function mockOn(file: string): Promise<Replicas> {
  const mock = await startReplicas(1, { redisUrl: undefined, env: { STATE_FILE: file } });
  mocks.push(mock);
  return mock;
}

const holders = new Set<ChildProcess>();
afterEach(async () => {
  await Promise.all(mocks.splice(0).map((mock) => mock.stopAll()));
  for (const child of holders) child.kill('SIGKILL');
  holders.clear();
});

/**
 * `fos-mock serve` on the file, as a second process: what it printed and its exit code once it
 * ends by itself, or `listened` once it says it listens (it is stopped then: that is the failure).
 */
async function secondServe(file: string): Promise<{ listened: boolean; status: number | null; stderr: string }> {
  const { REDIS_URL: _url, STATE_FILE: _file, ...inherited } = process.env;
  const args = ['--import', 'tsx', projectPath('mock', 'main.ts'), 'serve', '--port', String(await freePort())];
  const child = spawn(process.execPath, args, {
    cwd: projectPath(),
    env: { ...inherited, LOG_LEVEL: 'silent', FOS_MOCK_SECRET: 'a-secret-for-the-second-mock', STATE_FILE: file },
  });
  let stdout = '';
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const listening = new Promise<boolean>((resolve) => {
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      if (stdout.includes('fos-mock listening on')) resolve(true);
    });
  });
  const ended = once(child, 'close').then(() => false);
  const listened = await within('the second mock to end or to listen', Promise.race([listening, ended]));
  if (listened) {
    child.kill('SIGKILL');
    await ended;
  }
  return { listened, status: child.exitCode, stderr };
}

/** A process holding the file's lock as a mock does (test/support/state-lock-holder.ts), as `host`. */
function holder(file: string, host: string, heartbeatMs: number, staleAfterMs: number, wait = false) {
  const script = projectPath('test', 'support', 'state-lock-holder.ts');
  const args = ['--import', 'tsx', script, file, host, String(heartbeatMs), String(staleAfterMs), ...(wait ? ['wait'] : [])];
  const child = spawn(process.execPath, args, { cwd: projectPath(), stdio: ['pipe', 'pipe', 'inherit'] });
  holders.add(child);
  const lines: string[] = [];
  let partial = '';
  child.stdout.on('data', (chunk: Buffer) => {
    const parts = (partial + chunk.toString()).split('\n');
    partial = parts.pop()!;
    lines.push(...parts);
  });
  /** The first line it printed that starts with one of `words`. */
  const line = async (...words: string[]): Promise<string> => {
    const printed = () => lines.find((l) => words.some((w) => l.startsWith(`${w} `) || l === w)) ?? '';
    return until(`holder ${host} to print ${words.join(' or ')}`, printed, Boolean);
  };
  return { child, lines, line };
}

/** A lock file left by a mock on another host, its last refresh `ageMs` ago. */
function leftBehind(file: string, ageMs: number): void {
  const lock = `${file}.lock`;
  writeFileSync(lock, JSON.stringify({ pid: 1, host: 'a-container-gone', since: '2026-01-01T00:00:00.000Z', token: 'left-behind' }));
  const then = new Date(Date.now() - ageMs);
  utimesSync(lock, then, then);
}

describe('two mocks on one state file', () => {
  it(
    "the second is refused with one line naming the file and the first's process, never listening; it starts once the first stops cleanly",
    async () => {
      const file = join(folder, 'shared.json');
      const first = await mockOn(file);

      const second = await secondServe(file);

      expect(second.listened).toBe(false);
      expect(second.status).toBe(1);
      const lines = second.stderr.trim().split('\n');
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(
        new RegExp(`^fos-mock: state file ${escaped(file)} is in use by another mock: process ${first.pid(0)} on host \\S+ `),
      );
      expect(lines[0]).toContain('nothing was started');

      await first.stop(0);
      expect(existsSync(`${file}.lock`)).toBe(false);
      const after = await mockOn(file);
      expect(after.output[0]).toContain(`state in memory and in ${file}, loaded from it`);
    },
    RESTARTS_MS,
  );

  it('startMock({ stateFile }) on a file a mock in this process holds rejects with the same sentence', async () => {
    const file = join(folder, 'in-process.json');
    const first = await startMock({ stateFile: file, isolatedCustomer: false });
    try {
      await expect(startMock({ stateFile: file, isolatedCustomer: false })).rejects.toThrow(
        new RegExp(`^fos-mock: state file ${escaped(file)} is in use by another mock in this process \\(pid ${process.pid}, `),
      );
    } finally {
      await first.close();
    }
    const again = await startMock({ stateFile: file, isolatedCustomer: false });
    await again.close();
  });
});

describe('a lock whose mock is gone is taken over', () => {
  it(
    'left by a mock killed with SIGKILL: the next mock starts on the file, loads it and holds it (a third is refused naming it)',
    async () => {
      const file = join(folder, 'killed.json');
      const mock = await mockOn(file);
      await mock.kill(0);
      // The killed mock let go of nothing.
      expect(existsSync(`${file}.lock`)).toBe(true);

      await mock.start(0);

      expect(mock.output[0]).toContain(`state in memory and in ${file}, loaded from it`);
      const third = await secondServe(file);
      expect(third.listened).toBe(false);
      expect(third.stderr).toContain(`is in use by another mock: process ${mock.pid(0)} on host `);
    },
    RESTARTS_MS,
  );

  it(
    'left on another host and not refreshed for three heartbeats (15 s): the mock starts on the file and holds it',
    async () => {
      const file = join(folder, 'other-host.json');
      leftBehind(file, 60_000);

      const mock = await mockOn(file);

      const third = await secondServe(file);
      expect(third.listened).toBe(false);
      expect(third.stderr).toContain(`is in use by another mock: process ${mock.pid(0)} on host `);
      expect(third.stderr).not.toContain('a-container-gone');
    },
    RESTARTS_MS,
  );

  it('held on another host by a mock that keeps refreshing it: startMock rejects naming that process and host', async () => {
    const file = join(folder, 'live-other-host.json');
    const live = holder(file, 'container-a', 50, 60_000);
    await live.line('held');

    await expect(startMock({ stateFile: file, isolatedCustomer: false })).rejects.toThrow(
      new RegExp(`^fos-mock: state file ${escaped(file)} is in use by another mock: process ${live.child.pid} on host container-a `),
    );
  });

  it('held on another host by a stopped mock (SIGSTOP): taken over; the old holder, running again, writes no more', async () => {
    const file = join(folder, 'stopped-other-host.json');
    const old = holder(file, 'container-a', 50, 60_000);
    await old.line('held');
    old.child.kill('SIGSTOP');

    const lock = await lockStateFile(file, { heartbeatMs: 50, staleAfterMs: 150 });
    try {
      old.child.kill('SIGCONT');
      const lost = await old.line('lost');
      expect(lost).toContain(`state file ${file} was taken over: process ${process.pid} on host `);
      expect(lost).toContain('this mock writes it no more');
      expect(lock.lost).toBeUndefined();
    } finally {
      await lock.release();
    }
    expect(existsSync(`${file}.lock`)).toBe(false);
  });

  it(
    'by several mocks at once: one holds the file, every other is refused naming it',
    async () => {
      const file = join(folder, 'raced.json');
      leftBehind(file, 10 * 60_000);
      const racers = ['racer-0', 'racer-1', 'racer-2', 'racer-3'].map((host) => holder(file, host, 50, 60_000, true));
      await Promise.all(racers.map((racer) => racer.line('ready')));

      for (const racer of racers) racer.child.stdin.write('go\n');
      const outcomes = await Promise.all(racers.map((racer) => racer.line('held', 'refused')));

      const held = outcomes.filter((line) => line.startsWith('held '));
      expect(held).toHaveLength(1);
      const winner = held[0]!.slice('held '.length);
      for (const line of outcomes.filter((l) => !l.startsWith('held ')))
        expect(line).toMatch(
          new RegExp(`^refused fos-mock: state file ${escaped(file)} is in use by another mock: process ${winner} on host racer-`),
        );
    },
    RESTARTS_MS,
  );
});
