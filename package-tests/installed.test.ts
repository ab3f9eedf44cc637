// fos-mock as a team installs it: `npm pack` (the prepack script builds), the tarball installed
// into a fresh project with its runtime dependencies only, and there, without this repository:
// `npx fos-mock serve` answers a token request; a strictly type-checked TypeScript file, a
// CommonJS file and an ES module each make a deposit with startMock() and close it;
// `npx fos-mock contract --url` passes against a served mock and writes a JUnit file;
// `npx fos-mock scenario run` runs a shipped scenario. Run by `npm run test:package` (CI).
import { spawn, spawnSync, type ChildProcess, type SpawnSyncReturns } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { freePort } from '../scripts/free-port';
import { projectPath } from '../spec/project-root';
import { COMMONJS, ES_MODULE, TYPESCRIPT } from './consumer-files';

const MINUTE = 60_000;
let project: string;
let tarball: string;
const children: ChildProcess[] = [];

function run(command: string, args: string[], options: { cwd?: string; timeout?: number } = {}): SpawnSyncReturns<string> {
  const result = spawnSync(command, args, {
    cwd: options.cwd ?? project,
    encoding: 'utf8',
    timeout: options.timeout ?? 5 * MINUTE,
    env: cleanEnv(),
  });
  if (result.error) throw result.error;
  return result;
}

/** The environment of a stranger's shell: none of this repository's or of the test runner's settings. */
function cleanEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (!/^(CONTRACT_|JEST_|FOS_MOCK_|npm_|INIT_CWD$|PORT$|NODE_OPTIONS$)/.test(name)) env[name] = value;
  }
  return env;
}

/** Stops a served mock: its whole process group (npx and the CLI under it), and waits for it. */
async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  try {
    process.kill(-child.pid!, 'SIGTERM');
  } catch {
    return; // already gone
  }
  await exited;
}

const output = (result: SpawnSyncReturns<string>) => `exit ${String(result.status)}\n${result.stdout}\n${result.stderr}`.slice(-4000);

/** `npx fos-mock serve` on a free port, resolved when it says it listens. */
async function serve(): Promise<{ url: string; child: ChildProcess }> {
  const port = await freePort();
  // Its own process group: npx runs the CLI as a child of its own, and both must stop.
  const child = spawn('npx', ['--no-install', 'fos-mock', 'serve', '--port', String(port)], {
    cwd: project,
    env: { ...cleanEnv(), LOG_LEVEL: 'silent' },
    detached: true,
  });
  children.push(child);
  let seen = '';
  await new Promise<void>((resolve, reject) => {
    child.stdout?.on('data', (chunk: Buffer) => {
      seen += chunk.toString();
      if (seen.includes('listening')) resolve();
    });
    child.stderr?.on('data', (chunk: Buffer) => (seen += chunk.toString()));
    child.once('exit', (code) => reject(new Error(`fos-mock serve exited ${String(code)} before listening:\n${seen}`)));
  });
  return { url: `http://127.0.0.1:${port}`, child };
}

beforeAll(() => {
  const packs = mkdtempSync(join(tmpdir(), 'fos-mock-pack-'));
  const packed = run('npm', ['pack', '--pack-destination', packs, '--silent'], { cwd: projectPath(), timeout: 10 * MINUTE });
  expect(packed.status).toBe(0);
  tarball = join(
    packs,
    readdirSync(packs).find((name) => name.endsWith('.tgz'))!,
  );

  project = mkdtempSync(join(tmpdir(), 'fos-mock-consumer-'));
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'consumer', version: '1.0.0', private: true }, null, 2));
  const installed = run('npm', ['install', '--no-audit', '--no-fund', '--omit=dev', tarball], { timeout: 10 * MINUTE });
  if (installed.status !== 0) throw new Error(`npm install of the tarball failed:\n${output(installed)}`);
}, 20 * MINUTE);

afterAll(async () => {
  await Promise.all(children.map(stop));
  if (project) rmSync(project, { recursive: true, force: true });
});

describe('the packed tarball', () => {
  it('holds what a user runs and nothing else: no tests of ours, no benches, no TypeScript sources', () => {
    const listed = run('tar', ['-tzf', tarball]).stdout.split('\n').filter(Boolean);
    expect(listed).toEqual(
      expect.arrayContaining(['package/dist/mock/package/index.js', 'package/dist/mock/package/index.d.ts', 'package/LICENSE']),
    );
    expect(listed.filter((file) => /^package\/(test|bench|scripts|mock|package-tests)\//.test(file))).toEqual([]);
    expect(listed.filter((file) => /\.ts$/.test(file) && !/\.d\.ts$/.test(file))).toEqual([]);
    // The generated validators require the formats module by a path relative to them.
    expect(listed).toEqual(
      expect.arrayContaining([
        'package/spec/generated/validators/openapi.js',
        'package/spec/contract/formats.cjs',
        'package/spec/openapi.yaml',
      ]),
    );
    expect(listed.filter((file) => /^package\/fixtures\/scenarios\/.+\.yaml$/.test(file)).length).toBeGreaterThan(0);
    const inspector = ['package/dist/mock/inspector/public/main.js', 'package/dist/mock/inspector/public/main.css'];
    expect(listed).toEqual(expect.arrayContaining(inspector));
    console.log(`[package] ${listed.length} files, ${(statSync(tarball).size / 1024).toFixed(0)} KiB packed`);
  });

  it('installs only runtime dependencies: no TypeScript compiler, no ts-jest, no test tools of ours', () => {
    const devTools = [
      'typescript',
      'ts-jest',
      'tsx',
      'supertest',
      '@stoplight/prism-cli',
      'eslint',
      'esbuild',
      'preact',
      'playwright-core',
    ];
    for (const dev of devTools) {
      expect(existsSync(join(project, 'node_modules', dev))).toBe(false);
    }
  });
});

describe('npx fos-mock serve', () => {
  it(
    'answers a token request for the demo customer',
    async () => {
      const { url, child } = await serve();
      const res = await fetch(`${url}/api/oauth/client/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ clientId: 'demo-client', clientSecret: 'demo-secret' }),
      });
      expect(res.status).toBe(200);
      expect(await res.json()).toMatchObject({ tokenType: 'Bearer', expiresIn: 82800, accessToken: expect.any(String) });
      await stop(child);
    },
    2 * MINUTE,
  );

  it(
    'serves the inspector page and its bundle, built at pack time (no esbuild or Preact installed)',
    async () => {
      const { url, child } = await serve();
      const page = await fetch(`${url}/_mock/inspector`);
      expect(page.status).toBe(200);
      expect(await page.text()).toContain('<title>fos-mock inspector</title>');
      for (const asset of ['app.js', 'app.css']) {
        const res = await fetch(`${url}/_mock/inspector/${asset}`);
        expect(res.status).toBe(200);
        expect((await res.arrayBuffer()).byteLength).toBeGreaterThan(100);
      }
      await stop(child);
    },
    2 * MINUTE,
  );
});

describe('startMock() in a team’s own code', () => {
  it(
    'a strictly type-checked TypeScript file compiles against the shipped types and makes a deposit',
    () => {
      writeFileSync(join(project, 'consumer.ts'), TYPESCRIPT);
      const tsc = projectPath('node_modules', 'typescript', 'bin', 'tsc');
      const compiled = run(process.execPath, [
        tsc,
        '--strict',
        '--noUncheckedIndexedAccess',
        '--module',
        'node20',
        '--moduleResolution',
        'node16',
        '--target',
        'es2022',
        '--typeRoots',
        projectPath('node_modules', '@types'),
        '--types',
        'node',
        '--outDir',
        'out',
        'consumer.ts',
      ]);
      expect(output(compiled)).toMatch(/^exit 0/);
      const ran = run(process.execPath, [join('out', 'consumer.js')]);
      expect(output(ran)).toMatch(/^exit 0\ndeposit REQUESTED -> COMPLETED\nclock 2026-01-15T09:05:/);
    },
    5 * MINUTE,
  );

  it(
    'a CommonJS file requires it and makes a deposit',
    () => {
      writeFileSync(join(project, 'consumer.cjs'), COMMONJS);
      expect(output(run(process.execPath, ['consumer.cjs']))).toMatch(/^exit 0\ndeposit REQUESTED -> COMPLETED\n/);
    },
    5 * MINUTE,
  );

  it(
    'an ES module imports it by name, a bad option is refused naming it, and it makes a deposit',
    () => {
      writeFileSync(join(project, 'consumer.mjs'), ES_MODULE);
      expect(output(run(process.execPath, ['consumer.mjs']))).toMatch(
        /^exit 0\nrefused: port must be a whole number from 0 to 65535, got "abc"\ndeposit REQUESTED -> COMPLETED\n/,
      );
    },
    5 * MINUTE,
  );
});

describe('npx fos-mock contract', () => {
  it(
    'passes against a served mock, writes a JUnit file and the Markdown summary, and ends by itself',
    async () => {
      const { url, child } = await serve();
      mkdirSync(join(project, 'out'), { recursive: true });
      const result = run(
        'npx',
        ['--no-install', 'fos-mock', 'contract', '--url', url, '--junit', 'out/junit.xml', '--markdown', 'out/summary.md'],
        {
          timeout: 10 * MINUTE,
        },
      );
      await stop(child);
      expect(output(result)).toMatch(/^exit 0/);
      const junit = readFileSync(join(project, 'out', 'junit.xml'), 'utf8');
      expect(junit).toMatch(/<testsuites [^>]*tests="[1-9]\d*"[^>]*failures="0"/);
      expect(readFileSync(join(project, 'out', 'summary.md'), 'utf8')).toContain('operations exercised');
    },
    12 * MINUTE,
  );

  it('--help explains each flag and which tests need the control API', () => {
    const help = run('npx', ['--no-install', 'fos-mock', 'contract', '--help']).stdout;
    for (const flag of ['--url', '--client-id', '--client-secret', '--junit', '--markdown', '--allow-writes']) expect(help).toContain(flag);
    expect(help).toContain('need');
    expect(help).toContain('control API');
  });
});

describe('npx fos-mock scenario run', () => {
  it(
    'runs a shipped scenario from the package',
    () => {
      const scenarios = join(project, 'node_modules', 'fos-mock', 'fixtures', 'scenarios');
      const first = readdirSync(scenarios).filter((name) => name.endsWith('.yaml'))[0]!;
      const result = run('npx', ['--no-install', 'fos-mock', 'scenario', 'run', join(scenarios, first)]);
      expect(output(result)).toMatch(/^exit 0/);
      expect(result.stdout).toContain('✓');
    },
    5 * MINUTE,
  );
});
