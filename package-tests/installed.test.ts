// fos-mock as a team installs it: `npm pack` (the prepack script builds), the tarball installed
// into a fresh project by a plain `npm install`, and there, without this repository: the install
// stays light; `npx fos-mock serve` answers a token request and serves its pages; a strictly
// type-checked TypeScript file, a CommonJS file and an ES module each make a deposit with
// startMock(); the shipped declarations pass a strict compile without skipLibCheck and bring in no
// other package's types; `npx fos-mock contract` says what to install while jest is missing; then,
// with the newest jest 30, jest-junit and vitest added as a team adds them, a startMock() test
// passes under jest's defaults (CommonJS, and its ES module mode), vitest and node --test, and the
// contract command passes against a served mock; then on the oldest versions the package takes
// (jest 29.7, jest-junit 16). Run by `npm run test:package` (CI).
import { type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, realpathSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { projectPath } from '../spec/project-root';
import {
  COMMONJS,
  ES_MODULE,
  JEST_COMMONJS,
  JEST_ES_MODULE,
  NODE_TEST_COMMONJS,
  NODE_TEST_ES_MODULE,
  TYPED_EVERY_EXPORT,
  TYPESCRIPT,
  VITEST_ES_MODULE,
} from './consumer-files';
import { MINUTE, addDevPackages, freshProject, output, pack, run as runIn, serve as serveIn, stop } from './consumer-project';

/** What a plain `npm install fos-mock` may bring at most (issue: "the first hour without a stumble"). */
const MAX_PACKAGES = 150;
const MAX_MEBIBYTES = 50;
/** The one line `fos-mock contract` prints while its runner is missing. */
const RUNNER_INSTALL = 'npm install --save-dev jest@30 jest-junit@17';

let project: string;
let tarball: string;
let installSummary: string;
const children: ChildProcess[] = [];

const run = (command: string, args: string[], timeout?: number) => runIn(project, command, args, timeout);

async function serve(): Promise<{ url: string; child: ChildProcess }> {
  const served = await serveIn(project);
  children.push(served.child);
  return served;
}

/** The version of a package installed in the project. */
const installedVersion = (name: string) =>
  (JSON.parse(readFileSync(join(project, 'node_modules', name, 'package.json'), 'utf8')) as { version: string }).version;

/** Writes a file into the project, its folder made first. */
function write(file: string, text: string): void {
  mkdirSync(join(project, file, '..'), { recursive: true });
  writeFileSync(join(project, file), text);
}

beforeAll(() => {
  tarball = pack();
  ({ project, summary: installSummary } = freshProject(tarball));
}, 20 * MINUTE);

afterAll(async () => {
  await Promise.all(children.map(stop));
  if (project) rmSync(project, { recursive: true, force: true });
  if (tarball) rmSync(dirname(tarball), { recursive: true, force: true });
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
    expect(listed).toContain('package/dist/mock/control/renderer/redoc.standalone.js');
    console.log(`[package] ${listed.length} files, ${(statSync(tarball).size / 1024).toFixed(0)} KiB packed`);
  });

  it('installs only runtime dependencies: no TypeScript compiler, no test runner, no redoc, no test tools of ours', () => {
    const devTools = [
      'typescript',
      'ts-jest',
      'tsx',
      'jest',
      'jest-junit',
      'redoc',
      'react',
      'supertest',
      '@stoplight/prism-cli',
      'eslint',
      'esbuild',
      'preact',
      'playwright-core',
    ];
    expect(devTools.filter((dev) => existsSync(join(project, 'node_modules', dev)))).toEqual([]);
  });

  it(`is a light install: under ${MAX_PACKAGES} packages and ${MAX_MEBIBYTES} MB of node_modules`, () => {
    const added = /added (\d+) packages?/.exec(installSummary);
    expect(added).not.toBeNull();
    const kib = Number(run('du', ['-sk', 'node_modules']).stdout.split('\t')[0]);
    console.log(`[package] npm install: ${added![1]} packages, ${(kib / 1024).toFixed(1)} MiB in node_modules`);
    expect(Number(added![1])).toBeLessThan(MAX_PACKAGES);
    expect(kib).toBeLessThan(MAX_MEBIBYTES * 1024);
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

  it(
    'serves the API reference at /docs with its renderer from the package (no redoc installed, nothing from a CDN)',
    async () => {
      const { url, child } = await serve();
      const page = await fetch(`${url}/docs`);
      expect(page.status).toBe(200);
      const html = await page.text();
      expect(html).toContain('src="/docs/redoc.standalone.js"');
      expect(html).not.toMatch(/https?:\/\//);
      const renderer = await fetch(`${url}/docs/redoc.standalone.js`);
      expect(renderer.status).toBe(200);
      expect((await renderer.arrayBuffer()).byteLength).toBeGreaterThan(500 * 1024);
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
    'every export type-checks under --strict --skipLibCheck false (nodenext, .mts and .cts), reading no other package’s types',
    () => {
      writeFileSync(join(project, 'every-export.mts'), TYPED_EVERY_EXPORT);
      writeFileSync(join(project, 'every-export.cts'), TYPED_EVERY_EXPORT);
      const tsc = projectPath('node_modules', 'typescript', 'bin', 'tsc');
      for (const file of ['every-export.mts', 'every-export.cts']) {
        const compiled = run(process.execPath, [
          tsc,
          '--noEmit',
          '--strict',
          '--module',
          'nodenext',
          '--moduleResolution',
          'nodenext',
          '--skipLibCheck',
          'false',
          '--typeRoots',
          projectPath('node_modules', '@types'),
          '--types',
          'node',
          '--listFiles',
          file,
        ]);
        // Node's own types come from this repository (--typeRoots); any other declaration read from
        // the project's node_modules is a package the shipped types drag in (ioredis's need skipLibCheck).
        const ownModules = join(realpathSync(project), 'node_modules') + '/';
        const reached = compiled.stdout
          .split('\n')
          .filter((line) => line.startsWith(ownModules))
          .map((line) => /^(@[^/]+\/)?[^/]+/.exec(line.slice(ownModules.length))![0]);
        expect({ file, errors: compiled.stdout.split('\n').filter((line) => /error TS\d+/.test(line)) }).toEqual({ file, errors: [] });
        expect({ file, status: compiled.status }).toEqual({ file, status: 0 });
        expect({ file, packages: [...new Set(reached)] }).toEqual({ file, packages: ['fos-mock'] });
      }
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

describe('npx fos-mock contract, before jest is installed', () => {
  it('exits 2 with one line saying what to install', () => {
    const result = run('npx', ['--no-install', 'fos-mock', 'contract', '--url', 'http://127.0.0.1:9', '--junit', 'out/junit.xml']);
    expect(result.status).toBe(2);
    expect(result.stderr.trim().split('\n')).toEqual([expect.stringContaining(RUNNER_INSTALL)]);
    expect(result.stderr).toContain('jest and jest-junit');
  });

  it('--help explains each flag and which tests need the control API', () => {
    const help = run('npx', ['--no-install', 'fos-mock', 'contract', '--help']).stdout;
    for (const flag of ['--url', '--client-id', '--client-secret', '--junit', '--markdown', '--allow-writes']) expect(help).toContain(flag);
    expect(help).toContain('need');
    expect(help).toContain('control API');
  });
});

describe('startMock() under each test runner, as a team adds them', () => {
  beforeAll(() => addDevPackages(project, ['jest@30', 'jest-junit@17', 'vitest@4']), 10 * MINUTE);

  it('the runner installed is the newest jest major the package takes, with the newest jest-junit', () => {
    expect(installedVersion('jest')).toMatch(/^30\./);
    expect(installedVersion('jest-junit')).toMatch(/^17\./);
  });

  it(
    'jest with its defaults (no configuration): a CommonJS test file',
    () => {
      write('jest-tests/deposit.test.js', JEST_COMMONJS);
      const result = run('npx', ['--no-install', 'jest', 'jest-tests/']);
      expect(output(result)).toMatch(/^exit 0/);
      expect(result.stderr).toMatch(/Tests:\s+1 passed, 1 total/);
    },
    5 * MINUTE,
  );

  it(
    'jest in its ES module mode (node --experimental-vm-modules, as jest documents it): an ES module test file',
    () => {
      write('jest-esm-tests/package.json', JSON.stringify({ type: 'module' }));
      write('jest-esm-tests/deposit.test.js', JEST_ES_MODULE);
      const result = run(process.execPath, ['--experimental-vm-modules', 'node_modules/jest/bin/jest.js', 'jest-esm-tests/']);
      expect(output(result)).toMatch(/^exit 0/);
      expect(result.stderr).toMatch(/Tests:\s+1 passed, 1 total/);
    },
    5 * MINUTE,
  );

  it(
    'vitest with its defaults: an ES module test file',
    () => {
      write('vitest-tests/deposit.test.mjs', VITEST_ES_MODULE);
      const result = run('npx', ['--no-install', 'vitest', 'run', 'vitest-tests/']);
      expect(output(result)).toMatch(/^exit 0/);
      expect(stripVTControlCharacters(result.stdout)).toMatch(/Tests\s+1 passed \(1\)/);
    },
    5 * MINUTE,
  );

  it(
    'node --test: a CommonJS and an ES module test file',
    () => {
      write('node-tests/deposit.test.cjs', NODE_TEST_COMMONJS);
      write('node-tests/deposit.test.mjs', NODE_TEST_ES_MODULE);
      const result = run(process.execPath, ['--test', 'node-tests/deposit.test.cjs', 'node-tests/deposit.test.mjs']);
      expect(output(result)).toMatch(/^exit 0/);
      expect(result.stdout).toMatch(/# pass 2\n/);
      expect(result.stdout).toMatch(/# fail 0\n/);
    },
    5 * MINUTE,
  );
});

describe('npx fos-mock contract, with jest 30 and jest-junit 17 installed', () => {
  it(
    'passes against a served mock, writes a JUnit file and the Markdown summary, and ends by itself',
    async () => {
      const { url, child } = await serve();
      mkdirSync(join(project, 'out'), { recursive: true });
      const result = run(
        'npx',
        ['--no-install', 'fos-mock', 'contract', '--url', url, '--junit', 'out/junit.xml', '--markdown', 'out/summary.md'],
        10 * MINUTE,
      );
      await stop(child);
      expect(output(result)).toMatch(/^exit 0/);
      const junit = readFileSync(join(project, 'out', 'junit.xml'), 'utf8');
      expect(junit).toMatch(/<testsuites [^>]*tests="[1-9]\d*"[^>]*failures="0"/);
      expect(readFileSync(join(project, 'out', 'summary.md'), 'utf8')).toContain('operations exercised');
    },
    12 * MINUTE,
  );
});

describe('with the oldest versions the package takes instead: jest 29.7 and jest-junit 16', () => {
  beforeAll(() => addDevPackages(project, ['jest@29.7', 'jest-junit@16']), 10 * MINUTE);

  it(
    'the startMock() test passes under its defaults, and npx fos-mock contract runs on it',
    async () => {
      expect(installedVersion('jest')).toMatch(/^29\.7\./);
      expect(installedVersion('jest-junit')).toMatch(/^16\./);
      const tests = run('npx', ['--no-install', 'jest', 'jest-tests/']);
      expect(output(tests)).toMatch(/^exit 0/);
      expect(tests.stderr).toMatch(/Tests:\s+1 passed, 1 total/);
      const { url, child } = await serve();
      const contract = run('npx', ['--no-install', 'fos-mock', 'contract', '--url', url, '--file', 'auth', '--junit', 'out/auth.xml']);
      await stop(child);
      expect(output(contract)).toMatch(/^exit 0/);
      expect(readFileSync(join(project, 'out', 'auth.xml'), 'utf8')).toMatch(/<testsuites [^>]*tests="[1-9]\d*"[^>]*failures="0"/);
    },
    10 * MINUTE,
  );
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
