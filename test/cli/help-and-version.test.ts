// The command line as people expect it: a version, help when given nothing, every setting of
// `serve` in its help, and help texts that say what a command does.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from '@jest/globals';
import { CommanderError, type Command } from 'commander';
import { SETTINGS } from '../../mock/config';
import { program } from '../../mock/main';
import { projectPath } from '../../spec/project-root';

const packageVersion = (JSON.parse(readFileSync(projectPath('package.json'), 'utf8')) as { version: string }).version;

function everyCommand(command: Command): Command[] {
  return [command, ...command.commands.flatMap(everyCommand)];
}

/** Runs `fos-mock <args>` in-process: what it wrote, and the exit code commander would have ended with. */
async function fosMock(...args: string[]): Promise<{ out: string; err: string; exitCode: number }> {
  const cli = program();
  let out = '';
  let err = '';
  for (const command of everyCommand(cli)) {
    command.exitOverride();
    command.configureOutput({ writeOut: (text) => void (out += text), writeErr: (text) => void (err += text) });
  }
  try {
    await cli.parseAsync(args, { from: 'user' });
    return { out, err, exitCode: 0 };
  } catch (error) {
    if (!(error instanceof CommanderError)) throw error;
    return { out, err, exitCode: error.exitCode };
  }
}

describe('fos-mock, as people expect a command line', () => {
  it.each(['--version', '-V'])('prints its version with %s', async (flag) => {
    const { out, exitCode } = await fosMock(flag);
    expect(out).toBe(`${packageVersion}\n`);
    expect(exitCode).toBe(0);
  });

  it('alone, prints its help naming every command (and starts nothing)', async () => {
    const { out, exitCode } = await fosMock();
    expect(exitCode).toBe(0);
    expect(out).toContain('Usage: fos-mock [options] [command]');
    for (const name of ['serve', 'contract', 'scenario', 'snapshot', 'clock', 'trigger'])
      expect(out).toMatch(new RegExp(`^  ${name}\\b`, 'm'));
  });

  it('fos-mock help <command> prints that command’s help', async () => {
    const { out, exitCode } = await fosMock('help', 'clock');
    expect(exitCode).toBe(0);
    expect(out).toContain('Usage: fos-mock clock [options] [command]');
  });

  it('refuses a word that is no command, naming the commands', async () => {
    const { err, exitCode } = await fosMock('serv');
    expect(exitCode).toBe(1);
    expect(err).toBe(
      'fos-mock: unknown command "serv"; the commands are serve, scenario, explore, record, fixtures, snapshot, clock, trigger, contract ' +
        '(fos-mock --help)\n',
    );
  });

  it('serve --help lists every setting serve reads: its variable, its flag and its default', async () => {
    const { out } = await fosMock('serve', '--help');
    for (const s of SETTINGS) {
      const flag = 'flag' in s && s.flag ? `, ${s.flag.text}` : '';
      expect(out).toContain(`\n  ${s.env}${flag}\n`);
    }
    expect(out).toContain('  PORT, --port\n      port to listen on (0 picks a free one): a whole number from 0 to 65535; default 4010\n');
  });

  it('clock advance --help says it runs every retry that falls due on the way, not one jump', async () => {
    const { out } = await fosMock('clock', 'advance', '--help');
    expect(out.replace(/\s+/g, ' ')).toContain(
      'every webhook retry of the window, including retries scheduled by an attempt made during the advance',
    );
    expect(out).not.toContain('one jump');
  });

  it('as a real process, --version prints the version and exits 0', () => {
    const run = spawnSync(projectPath('node_modules', '.bin', 'tsx'), [projectPath('mock', 'main.ts'), '--version'], {
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(run.stdout).toBe(`${packageVersion}\n`);
    expect(run.status).toBe(0);
  }, 90_000);
});
