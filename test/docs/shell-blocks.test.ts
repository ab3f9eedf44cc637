// Commands that work as printed: every ```sh block of the README and docs/ is run here, or marked
// as an illustration by an HTML comment on the line before its fence (`<!-- illustration: why -->`)
// that says where it is tried instead. ```console blocks are transcripts (a prompt and what it
// printed), not commands to paste. So are the start-up banner's "Try" lines, run as printed.
//
// How a document is run, as a reader pastes it: its runnable blocks in order, in one bash session
// (`set -euo pipefail`: an unset variable, or a failure anywhere in a pipe, fails it), in an empty
// project where `npx fos-mock` is this checkout's command and node_modules/fos-mock this checkout (as
// after `npm install fos-mock`), against `fos-mock serve` on a free port. That port stands for 4010
// and a free one for the receiver's 9000; BASE and TOKEN are set as the README's first session leaves
// them, for the pages that continue it. curl answers an HTTP error with a failure (--fail-with-body),
// so a wrong path or a refused body fails the block, not only a command that is not found.
import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { freePort } from '../../scripts/free-port';
import { projectPath } from '../../spec/project-root';
import { describeWithTool, type RequiredTool } from '../support/required-tool';
import { within } from '../support/waits';

interface Block {
  file: string;
  line: number;
  text: string;
  /** Why it is not run (the marker's text), when it is marked as an illustration. */
  illustration?: string;
}

const ILLUSTRATION = /^<!--\s*illustration:\s*(.*?)\s*-->$/;

/** The ```sh (bash, shell) blocks of a Markdown file, with their markers. */
export function shellBlocks(file: string): Block[] {
  const lines = readFileSync(file, 'utf8').split('\n');
  const blocks: Block[] = [];
  for (let i = 0; i < lines.length; i++) {
    const fence = /^```(\w*)\s*$/.exec(lines[i]!);
    if (!fence) continue;
    const end = lines.findIndex((l, k) => k > i && l.startsWith('```'));
    if (['sh', 'bash', 'shell'].includes(fence[1]!)) {
      const marker = ILLUSTRATION.exec(lines[i - 1]?.trim() ?? '');
      const text = lines.slice(i + 1, end).join('\n');
      blocks.push({ file: relative(projectPath(), file), line: i + 1, text, illustration: marker?.[1] });
    }
    i = end;
  }
  return blocks;
}

function markdownFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? markdownFiles(join(dir, entry.name)) : entry.name.endsWith('.md') ? [join(dir, entry.name)] : [],
  );
}

const documents = [projectPath('README.md'), ...markdownFiles(projectPath('docs')).sort()];
const blocks = documents.flatMap(shellBlocks);
const runnable = documents.map((file) => ({
  file: relative(projectPath(), file),
  blocks: shellBlocks(file).filter((b) => !b.illustration),
}));

describe('the shell blocks of the README and docs/', () => {
  it('are each run by this test or marked as an illustration saying where it is tried', () => {
    expect(blocks.length).toBeGreaterThan(10);
    const unexplained = blocks.filter((b) => b.illustration !== undefined && b.illustration.length < 10);
    expect(unexplained.map((b) => `${b.file}:${b.line}`)).toEqual([]);
    expect(runnable.reduce((n, d) => n + d.blocks.length, 0)).toBeGreaterThanOrEqual(5);
  });
});

interface Served {
  child: ChildProcess;
  url: string;
  banner: string[];
}

/** `fos-mock serve` on a free port, as a reader starts it; resolved once its banner is printed. */
async function serve(): Promise<Served> {
  const port = await freePort();
  const child = spawn(projectPath('node_modules', '.bin', 'tsx'), [projectPath('mock', 'main.ts'), 'serve', '--port', String(port)], {
    cwd: projectPath(),
    env: { ...process.env, LOG_LEVEL: 'silent', FOS_MOCK_URL: undefined },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
  await within(
    'fos-mock serve printing its banner',
    new Promise<void>((resolve, reject) => {
      child.stdout.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        if (/^Inspector/m.test(out)) resolve();
      });
      child.once('exit', (code) => reject(new Error(`fos-mock serve exited with ${code}: ${err}`)));
    }),
  );
  return { child, url: `http://127.0.0.1:${port}`, banner: out.split('\n') };
}

/** An empty project in which `npx fos-mock` is this checkout's command, as after `npm install fos-mock`. */
function consumerProject(): string {
  const dir = mkdtempSync(join(tmpdir(), 'fos-docs-'));
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'docs-as-printed', private: true }));
  mkdirSync(join(dir, 'node_modules', '.bin'), { recursive: true });
  symlinkSync(projectPath(), join(dir, 'node_modules', 'fos-mock'), 'dir');
  const bin = join(dir, 'node_modules', '.bin', 'fos-mock');
  writeFileSync(bin, `#!/bin/sh\nexec "${projectPath('node_modules', '.bin', 'tsx')}" "${projectPath('mock', 'main.ts')}" "$@"\n`);
  chmodSync(bin, 0o755);
  return dir;
}

/** Runs a script in bash the way a reader's terminal would, with curl failing on HTTP errors. */
function bash(script: string, cwd: string, env: NodeJS.ProcessEnv): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const preamble = [
    'set -euo pipefail',
    'curl() { command curl --fail-with-body "$@"; }',
    // A receiver a block started in the background does not outlive it.
    "trap 'kill $(jobs -p) 2>/dev/null || true' EXIT",
  ].join('\n');
  return new Promise((resolve) => {
    const child = spawn('bash', ['-c', `${preamble}\n${script}\n`], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

const curlTool: RequiredTool<Served> = {
  name: 'curl',
  missing: 'not found on PATH',
  install: 'apt-get install curl',
  found: process.env.PATH?.split(':').some((dir) => readdirSafe(dir).includes('curl')) ?? false,
  start: serve,
  stop: async ({ child }) => {
    child.kill('SIGTERM');
    if (child.exitCode === null) await new Promise((resolve) => child.once('exit', resolve));
  },
  startTimeoutMs: 120_000,
};

function readdirSafe(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

describeWithTool('commands as printed', curlTool, (served) => {
  let project: string;
  let env: NodeJS.ProcessEnv;
  let receiverPort: number;

  beforeAll(async () => {
    project = consumerProject();
    receiverPort = await freePort();
    const { url } = served();
    const token = await fetch(`${url}/api/oauth/client/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ clientId: 'demo-client', clientSecret: 'demo-secret' }),
    }).then(async (res) => ((await res.json()) as { accessToken: string }).accessToken);
    env = { ...process.env, BASE: url, TOKEN: token, FOS_MOCK_URL: url };
  });

  afterAll(() => {
    if (project) rmSync(project, { recursive: true, force: true });
  });

  /** A block's text with this run's addresses in place of the documented ones. */
  const localised = (text: string) =>
    text
      .replaceAll('http://127.0.0.1:4010', served().url)
      .replaceAll('localhost:4010', served().url.replace('http://', ''))
      .replaceAll(':9000', `:${receiverPort}`);

  it("the banner's Try lines get a token, then the accounts", async () => {
    const at = served().banner.findIndex((line) => line.startsWith('Try'));
    const commands = served()
      .banner.slice(at + 1)
      .filter((line, i, all) => all.slice(0, i + 1).every((l) => l.startsWith('  ')))
      .map((line) => line.trim());
    expect(commands).toHaveLength(2);
    const { BASE: _base, TOKEN: _token, ...withoutSession } = env;
    const result = await bash(commands.join('\n'), project, withoutSession);
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect((JSON.parse(result.stdout) as { data: unknown[] }).data.length).toBeGreaterThan(0);
  });

  const documented = runnable.filter((d) => d.blocks.length > 0).map((d) => [d.file, d.blocks] as const);
  it.each(documented)('the blocks of %s run in order, as printed', async (_file, fileBlocks) => {
    const script = fileBlocks.map((b) => `# ${b.file}:${b.line}\n${localised(b.text)}`).join('\n');
    const result = await bash(script, project, env);
    if (result.code !== 0) {
      throw new Error(`exit code ${result.code}\n--- script\n${script}\n--- stderr\n${result.stderr}\n--- stdout\n${result.stdout}`);
    }
  });
});
