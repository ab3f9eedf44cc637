// `fos-mock serve` with a bad setting: one line on stderr naming it, exit code 2, and nothing
// listening (before this check, CLOCK_START=garbage printed "listening" and the first request
// killed the process).
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from '@jest/globals';
import { freePort } from '../../scripts/free-port';
import { projectPath } from '../../spec/project-root';
import { runToEnd } from '../support/waits';

/** Runs `fos-mock serve` until it ends by itself (it refuses and exits); only a hang guard bounds it. */
function serve(env: Record<string, string>, args: string[] = []) {
  return runToEnd(projectPath('node_modules', '.bin', 'tsx'), [projectPath('mock', 'main.ts'), 'serve', ...args], {
    env: { ...process.env, LOG_LEVEL: 'silent', ...env },
    encoding: 'utf8',
  });
}

describe('fos-mock serve with a bad setting', () => {
  it.each([
    [{ CLOCK_START: 'garbage' }, [], 'CLOCK_START must be an ISO 8601 instant with a zone, such as 2026-01-15T09:00:00Z, got "garbage"'],
    [{ AUTO_SETTLE_MS: 'soon' }, [], 'AUTO_SETTLE_MS must be off or a whole number of milliseconds up to 2147483647, got "soon"'],
    [{}, ['--port', 'abc'], '--port must be a whole number from 0 to 65535, got "abc"'],
  ])('%j %j stops with exit code 2 and one line naming it, and never listens', async (env, args, line) => {
    const port = await freePort();
    const run = serve({ PORT: String(port), ...env }, args);
    expect(run.status).toBe(2);
    expect(run.stderr.trim().split('\n')).toEqual([`fos-mock: ${line}`]);
    expect(run.stdout).not.toContain('listening');
  });

  it('PORT=abc is refused the same way', () => {
    const run = serve({ PORT: 'abc' });
    expect(run.status).toBe(2);
    expect(run.stderr.trim()).toBe('fos-mock: PORT must be a whole number from 0 to 65535, got "abc"');
  });

  it('a fixture file with a rate that is not a number stops start-up naming the entry, and never listens', async () => {
    const demo = JSON.parse(readFileSync(projectPath('fixtures', 'demo.json'), 'utf8')) as { rates: Array<{ rate: string }> };
    demo.rates[1]!.rate = 'five';
    const path = join(mkdtempSync(join(tmpdir(), 'fos-serve-')), 'bad-rate.json');
    writeFileSync(path, JSON.stringify(demo));
    const run = serve({ PORT: String(await freePort()) }, ['--fixtures', path]);
    expect(run.status).toBe(1);
    expect(run.stderr.trim().split('\n')).toEqual([
      `fos-mock: fixtures ${path} are not usable:`,
      '  rates[1].rate must match pattern "^(0|[1-9][0-9]{0,19})(\\.[0-9]{1,18})?$" (DecimalString)',
    ]);
    expect(run.stdout).not.toContain('listening');
  });
});
