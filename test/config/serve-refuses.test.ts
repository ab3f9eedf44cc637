// `fos-mock serve` with a bad setting: one line on stderr naming it, exit code 2, and nothing
// listening (before this check, CLOCK_START=garbage printed "listening" and the first request
// killed the process).
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from '@jest/globals';
import { freePort } from '../../scripts/free-port';
import { projectPath } from '../../spec/project-root';
import { runToEnd } from '../support/waits';

/** `fos-mock serve` as a real process, without blocking (a test keeps a port busy meanwhile). */
async function serveAsync(
  env: Record<string, string>,
  args: string[] = [],
): Promise<{ status: number | null; stdout: string; stderr: string }> {
  const child = spawn(projectPath('node_modules', '.bin', 'tsx'), [projectPath('mock', 'main.ts'), 'serve', ...args], {
    env: { ...process.env, LOG_LEVEL: 'silent', ...env },
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const [status] = (await once(child, 'close')) as [number | null];
  return { status, stdout, stderr };
}

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
    [{ LOG_FORMAT: 'pretty' }, [], 'LOG_FORMAT must be auto, text or json, got "pretty"'],
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

  it('a port in use stops start-up with one line naming the port and --port, not a log record with a stack', async () => {
    const busy = createServer().listen(0, '127.0.0.1');
    await once(busy, 'listening');
    const port = (busy.address() as { port: number }).port;
    try {
      const run = await serveAsync({}, ['--port', String(port)]);
      expect(run.status).toBe(1);
      expect(run.stderr.trim().split('\n')).toEqual([
        `fos-mock: port ${port} is in use on 127.0.0.1: stop what listens there, ` +
          'or choose another with --port (env PORT; 0 picks a free one)',
      ]);
      expect(run.stdout).not.toContain('listening');
    } finally {
      busy.close();
    }
  });

  it('a HOST that is not an address of this machine stops start-up with one line naming it and --host', async () => {
    // 192.0.2.1 is TEST-NET-1 (RFC 5737): never an address of this machine.
    const run = await serveAsync({ HOST: '192.0.2.1', PORT: String(await freePort()) });
    expect(run.status).toBe(1);
    expect(run.stderr.trim().split('\n')).toEqual([
      'fos-mock: cannot listen on host "192.0.2.1": it is not an address of this machine; ' +
        'choose one with --host (env HOST), such as 127.0.0.1 or 0.0.0.0',
    ]);
  });
});
