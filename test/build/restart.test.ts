// `npm start` builds first (prestart). A build with nothing changed since the last one does no
// work: tsc's build mode finds every output up to date, the validators' hash matches their
// documents, and the inspector's bundle is newer than its sources. Run in a copy of the project
// (its tracked files, node_modules linked), so this project's own dist/ is never touched.
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, symlinkSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { projectPath } from '../../spec/project-root';

// A guard against a hang, not a measure: a first build of the whole project on a busy machine.
jest.setTimeout(10 * 60 * 1000);

let copy: string;

function build(): { status: number | null; output: string } {
  const run = spawnSync('npm', ['run', 'build', '--silent'], { cwd: copy, encoding: 'utf8', env: { ...process.env, CI: 'true' } });
  return { status: run.status, output: `${run.stdout}${run.stderr}` };
}

/** Every file below `dir` with its modification time. */
function stamps(dir: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const name of readdirSync(dir, { recursive: true, encoding: 'utf8' })) {
    const path = join(dir, name);
    const stat = statSync(path);
    if (stat.isFile()) out.set(name, stat.mtimeMs);
  }
  return out;
}

beforeAll(() => {
  copy = mkdtempSync(join(tmpdir(), 'fos-restart-'));
  const tracked = execFileSync('git', ['ls-files', '-z'], { cwd: projectPath(), encoding: 'utf8' }).split('\0').filter(Boolean);
  for (const file of tracked) {
    mkdirSync(dirname(join(copy, file)), { recursive: true });
    cpSync(projectPath(file), join(copy, file));
  }
  symlinkSync(projectPath('node_modules'), join(copy, 'node_modules'), 'dir');
});

afterAll(() => {
  if (copy) rmSync(copy, { recursive: true, force: true });
});

describe('a restart with nothing changed', () => {
  it('builds nothing again: every output is kept as the first build wrote it', () => {
    const first = build();
    expect(first.status).toBe(0);
    const built = { dist: stamps(join(copy, 'dist')), validators: stamps(join(copy, 'spec', 'generated', 'validators')) };

    const second = build();

    expect(second.status).toBe(0);
    expect(second.output).toContain('spec/generated/validators/openapi.js: up to date');
    expect(second.output).toContain('spec/generated/validators/control-openapi.js: up to date');
    expect(second.output).toContain('dist/mock/inspector/public: up to date');
    expect(second.output).toContain('dist/mock/services/jose.cjs: up to date');
    expect(second.output).toMatch(/dist\/mock\/control\/renderer\/\S+: up to date/);
    expect(stamps(join(copy, 'dist'))).toEqual(built.dist);
    expect(stamps(join(copy, 'spec', 'generated', 'validators'))).toEqual(built.validators);
  });

  it('builds again what a change touches: an edited page is bundled again', () => {
    const page = join(copy, 'mock', 'inspector', 'app', 'main.tsx');
    const later = new Date(Date.now() + 5_000);
    // Touched later than the bundle: the bundle is made again.
    utimesSync(page, later, later);
    const run = build();
    expect(run.status).toBe(0);
    expect(run.output).toMatch(/dist\/mock\/inspector\/public\/app\.js: [\d.]+ KiB/);
  });
});
