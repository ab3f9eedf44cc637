// `fos-mock record --target <url> --out <scenario.yaml> [--har <file>]`: a recording proxy. A client
// pointed at it works against the target as usual; when the recording is interrupted (Ctrl-C,
// SIGTERM) each exchange is written as a step of a scenario file, and as a HAR file if asked
// (record-session.ts, loaded on first use).
import type { Command } from 'commander';
import type { RecordFlags } from './record-session';
import { guarded } from './target';

export function registerRecordCommand(cli: Command, version: () => string): void {
  cli
    .command('record')
    .summary('a recording proxy: a session against a target, written as a scenario (and HAR)')
    .description(
      'Forward every request to --target and record the exchanges; on Ctrl-C (or SIGTERM) write them as a scenario file ' +
        '(--out) and, with --har, a HAR 1.2 file. Credentials and tokens are never written.',
    )
    .requiredOption('--target <url>', 'the API to record (e.g. the sandbox, or a mock)')
    .requiredOption('--out <file>', 'the scenario file to write (YAML)')
    .option('-p, --port <port>', 'port the proxy listens on (0: any free one)', '4020')
    .option('--host <host>', 'interface the proxy listens on', '127.0.0.1')
    .option('--har <file>', 'also write the exchanges as a HAR 1.2 file')
    .option('--name <name>', 'the scenario name')
    .option(
      '--customer <who>',
      'whom the scenario logs in as: recorded (the recorded client id, with its public secret when the target is a fos-mock ' +
        'and the client one of its demo clients, else fos-mock-local), demo or fresh',
      'recorded',
    )
    .action(async (flags: RecordFlags) =>
      // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded when a recording starts, not by `serve`
      guarded(() => (require('./record-session') as typeof import('./record-session')).recordSession(flags, version())),
    );
}
