// The command line keeps Node's compile cache (bin/fos-mock.js, decision 0028): on Node 22.1 and
// later a start after the first does not compile the mock's modules again. Node 20 has no such
// cache, and the command line runs the same without it. Runs the built CLI (npm ci builds it).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import Module from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from '@jest/globals';
import { projectPath } from '../../spec/project-root';

const hasCompileCache = typeof (Module as { enableCompileCache?: unknown }).enableCompileCache === 'function';
const dirs: string[] = [];

afterEach(() => dirs.splice(0).forEach((dir) => rmSync(dir, { recursive: true, force: true })));

/**
 * Runs `fos-mock --version` with a temporary folder of its own (TMPDIR; NODE_COMPILE_CACHE would
 * turn the cache on by itself): what Node's default cache folder there holds after.
 */
function versionWithCacheIn(extraEnv: Record<string, string> = {}): { status: number | null; stdout: string; cached: string[] } {
  const dir = mkdtempSync(join(tmpdir(), 'fos-compile-cache-'));
  dirs.push(dir);
  const run = spawnSync(process.execPath, [projectPath('bin', 'fos-mock.js'), '--version'], {
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
      const { status, stdout, cached } = versionWithCacheIn();
      expect(status).toBe(0);
      expect(stdout).toMatch(/^\d+\.\d+\.\d+/);
      if (hasCompileCache) expect(cached.length).toBeGreaterThan(0);
      else expect(cached).toEqual([]);
    },
  );

  it('keeps nothing when NODE_DISABLE_COMPILE_CACHE is set', () => {
    const { status, cached } = versionWithCacheIn({ NODE_DISABLE_COMPILE_CACHE: '1' });
    expect(status).toBe(0);
    expect(cached).toEqual([]);
  });
});
