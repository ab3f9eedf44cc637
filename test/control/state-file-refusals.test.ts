// `fos-mock serve` with a state file it cannot use stops before it listens, with one line that
// names the file (or the setting) and the problem, and leaves the file as it was: a file that is
// there but cut short or not a snapshot never becomes an empty state written over the user's.
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { freePort } from '../../scripts/free-port';
import { projectPath } from '../../spec/project-root';
import { runToEnd } from '../support/waits';

/** Runs `fos-mock serve` until it ends by itself (it refuses and exits); only a hang guard bounds it. */
async function serve(env: Record<string, string>) {
  const { REDIS_URL: _url, STATE_FILE: _file, ...inherited } = process.env;
  return runToEnd(projectPath('node_modules', '.bin', 'tsx'), [projectPath('mock', 'main.ts'), 'serve'], {
    env: { ...inherited, LOG_LEVEL: 'silent', PORT: String(await freePort()), ...env },
    encoding: 'utf8',
  });
}

let folder: string;
beforeAll(() => {
  folder = mkdtempSync(join(tmpdir(), 'fos-state-refused-'));
});
afterAll(() => {
  if (folder) rmSync(folder, { recursive: true, force: true });
});

describe('fos-mock serve with a state file it cannot load', () => {
  it('a file cut short (half of a snapshot) stops start-up with exit code 1 naming the file, and is left as it was', async () => {
    const file = join(folder, 'half.json');
    // Half of a snapshot, as a write that stopped mid-way would leave it (the mock's own writes never do: renamed whole).
    const whole = JSON.stringify({
      version: 1,
      takenAt: '2026-01-01T00:00:00.000Z',
      clock: { now: '2026-01-01T00:00:00.000Z', frozen: true },
      sequence: 0,
      records: {},
      balances: [],
      idempotency: [],
    });
    writeFileSync(file, whole.slice(0, Math.floor(whole.length / 2)));
    const before = readFileSync(file, 'utf8');

    const run = await serve({ STATE_FILE: file });

    expect(run.status).toBe(1);
    const lines = run.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      new RegExp(`^fos-mock: state file ${file.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')} cannot be loaded: it is not JSON`),
    );
    expect(run.stdout).not.toContain('listening');
    expect(readFileSync(file, 'utf8')).toBe(before);
  });

  it('JSON that is not a snapshot stops start-up naming the file and what is missing', async () => {
    const file = join(folder, 'other.json');
    copyFileSync(projectPath('package.json'), file);

    const run = await serve({ STATE_FILE: file });

    expect(run.status).toBe(1);
    expect(run.stderr.trim()).toContain(`fos-mock: state file ${file} cannot be loaded: it is not a snapshot:`);
    expect(run.stderr).toContain("clock must have required property 'clock'");
    expect(run.stdout).not.toContain('listening');
    expect(readFileSync(file, 'utf8')).toBe(readFileSync(projectPath('package.json'), 'utf8'));
  });
});

describe('fos-mock serve with a state file it must not use', () => {
  it('in a folder that does not exist: exit code 2, one line naming STATE_FILE', async () => {
    const file = join(folder, 'no-such-folder', 'state.json');
    const run = await serve({ STATE_FILE: file });
    expect(run.status).toBe(2);
    const accepted = 'a file path in a folder that exists and can be written, the file (if there is one) readable and writable';
    expect(run.stderr.trim()).toBe(`fos-mock: STATE_FILE must be ${accepted}, got ${JSON.stringify(file)}`);
  });

  it('together with REDIS_URL: exit code 2, one line saying Redis keeps the state itself', async () => {
    const file = join(folder, 'beside-redis.json');
    const run = await serve({ STATE_FILE: file, REDIS_URL: 'redis://127.0.0.1:1' });
    expect(run.status).toBe(2);
    const accepted = 'unset when REDIS_URL or --redis is set (Redis keeps the state across restarts itself)';
    expect(run.stderr.trim()).toBe(`fos-mock: STATE_FILE must be ${accepted}, got ${JSON.stringify(file)}`);
  });
});
