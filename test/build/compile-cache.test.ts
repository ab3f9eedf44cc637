// The command line keeps Node's compile cache (bin/fos-mock.js, decision 0028): on Node 22.1 and
// later a start after the first does not compile the mock's modules again. Node 20 has no such
// cache, and the command line runs the same without it. The real bin/fos-mock.js runs here in a
// folder of its own, beside a stand-in for the compiled CLI it loads (a clone's tests run unbuilt).
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import Module from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from '@jest/globals';
import { projectPath } from '../../spec/project-root';

const hasCompileCache = typeof (Module as { enableCompileCache?: unknown }).enableCompileCache === 'function';
const dirs: string[] = [];

afterEach(() => dirs.splice(0).forEach((dir) => rmSync(dir, { recursive: true, force: true })));

/** The real bin/fos-mock.js, and a dist/mock/main.js whose program() prints `ran`. */
function cliWithStandIn(): string {
  const root = mkdtempSync(join(tmpdir(), 'fos-cli-'));
  dirs.push(root);
  mkdirSync(join(root, 'bin'));
  mkdirSync(join(root, 'dist', 'mock'), { recursive: true });
  copyFileSync(projectPath('bin', 'fos-mock.js'), join(root, 'bin', 'fos-mock.js'));
  writeFileSync(
    join(root, 'dist', 'mock', 'main.js'),
    "exports.program = () => ({ parseAsync: async () => process.stdout.write('ran\\n') });\n",
  );
  return join(root, 'bin', 'fos-mock.js');
}

/**
 * Runs the command line with a temporary folder of its own (TMPDIR; NODE_COMPILE_CACHE would turn
 * the cache on by itself): its exit code, what it printed, and what Node's default cache folder there holds after.
 */
function runWithCacheIn(extraEnv: Record<string, string> = {}): { status: number | null; stdout: string; cached: string[] } {
  const dir = mkdtempSync(join(tmpdir(), 'fos-compile-cache-'));
  dirs.push(dir);
  const run = spawnSync(process.execPath, [cliWithStandIn(), '--version'], {
    encoding: 'utf8',
    env: { ...process.env, NODE_COMPILE_CACHE: '', TMPDIR: dir, ...extraEnv },
  });
  const cache = join(dir, 'node-compile-cache');
  return { status: run.status, stdout: run.stdout, cached: existsSync(cache) ? readdirSync(cache, { recursive: true }).map(String) : [] };
}

describe(`the command line on Node ${process.version}`, () => {
  it(
    hasCompileCache
      ? 'keeps the compiled code of the modules it loaded in the compile cache'
      : 'runs without a compile cache, which this Node does not have',
    () => {
      const { status, stdout, cached } = runWithCacheIn();
      expect({ status, stdout }).toEqual({ status: 0, stdout: 'ran\n' });
      if (hasCompileCache) expect(cached.length).toBeGreaterThan(0);
      else expect(cached).toEqual([]);
    },
  );

  it('keeps nothing when NODE_DISABLE_COMPILE_CACHE is set', () => {
    const { status, cached } = runWithCacheIn({ NODE_DISABLE_COMPILE_CACHE: '1' });
    expect(status).toBe(0);
    expect(cached).toEqual([]);
  });
});
