// The entry point: reads the configuration once (environment, then flags), builds the app and
// listens. `fos-mock serve` is what `npm start` runs.
import { readFileSync } from 'node:fs';
import Module from 'node:module';
import { Command } from 'commander';
import { createApp } from './app';
import { ConfigError, configFrom, type Config, type ServeFlags } from './config';
import { createServer, listenFailure } from './server';
import { redactedUrl } from './store';
import { projectPath } from '../spec/project-root';
import { registerClockCommand } from './cli/clock';
import { registerContractCommand } from './cli/contract';
import { registerExploreCommand } from './cli/explore';
import { registerFixturesCommand } from './cli/fixtures';
import { registerRecordCommand } from './cli/record';
import { registerScenarioCommand } from './cli/scenario';
import { registerSnapshotCommand } from './cli/snapshot';
import { registerTriggerCommand } from './cli/trigger';
import { settingsHelp } from './cli/serve-help';

export async function serve(config: Config): Promise<void> {
  const started = process.hrtime.bigint();
  // The validators the build generated (npm start builds first); compiled here if there are none.
  let mock: Awaited<ReturnType<typeof createApp>>;
  try {
    mock = await createApp({ config, precompiled: true });
  } catch (error) {
    // A Redis that cannot be reached: one line naming it, nothing listening.
    if (!(error instanceof Error) || !error.message.startsWith('fos-mock: ')) throw error;
    process.stderr.write(`${error.message}\n`);
    process.exitCode = 1;
    return;
  }
  // Header size and time-out limits apply to the server itself (mock/server.ts).
  const server = createServer(mock.app, config).listen(config.port, config.host);
  server.on('error', (error: NodeJS.ErrnoException) => {
    // A port in use or a host that is not this machine's: one line naming it and its flag.
    process.stderr.write(`fos-mock: ${listenFailure(error, config.host, config.port)}\n`);
    process.exit(1);
  });
  server.on('listening', () => {
    const address = server.address();
    const port = typeof address === 'object' && address ? address.port : config.port;
    const base = `http://${config.host}:${port}`;
    const ms = Number(process.hrtime.bigint() - started) / 1e6;
    const customers = mock.fixtures.customers;
    const lines = [
      `fos-mock listening on ${base} (ready in ${ms.toFixed(0)} ms; strict responses ${config.strictResponses ? 'on' : 'off'}; ` +
        `state ${stateWhere(config, mock.stateFile)})`,
      'Demo credentials:',
      ...customers.map((c) => `  clientId=${c.clientId} clientSecret=${c.clientSecret}  (${c.name})`),
      'Try (a token, then the accounts):',
      `  TOKEN=$(curl -s -X POST ${base}/api/oauth/client/token -H 'Content-Type: application/json' ` +
        `-d '{"clientId":"demo-client","clientSecret":"demo-secret"}' | node -pe 'JSON.parse(require("fs").readFileSync(0)).accessToken')`,
      `  curl -s ${base}/api/accounts -H "Authorization: Bearer $TOKEN"`,
      ...(config.controlApi ? [`Inspector (requests, state, deliveries, clock, live): ${base}/_mock/inspector`] : []),
      ...(config.controlApi && config.allowedHosts.includes('*')
        ? ['ALLOWED_HOSTS=*: the control API and the inspector answer requests naming any host, from any machine that reaches this port']
        : []),
    ];
    process.stdout.write(`${lines.join('\n')}\n`);
    // The compile cache (bin/fos-mock.js) is written now, not only at a clean exit, so the next
    // start is quick even after a kill. Node 22.10 and later; nothing to do on older ones.
    (Module as { flushCompileCache?: () => void }).flushCompileCache?.();
  });
  const stop = () => {
    // An open inspector page holds a push stream that would keep the server from closing.
    mock.endStreams();
    server.close(() => void mock.close().finally(() => process.exit(0)));
    setTimeout(() => process.exit(0), 2000).unref();
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

/** Where the state is kept, for the start-up line. */
function stateWhere(config: Config, file: { path: string; loaded: boolean } | undefined): string {
  if (config.redisUrl) return `in Redis at ${redactedUrl(config.redisUrl)}, shared with every replica there`;
  if (file) return `in memory and in ${file.path}, ${file.loaded ? 'loaded from it' : 'a new file'}`;
  return 'in memory';
}

/** The version of the package this command belongs to. */
export function version(): string {
  return (JSON.parse(readFileSync(projectPath('package.json'), 'utf8')) as { version: string }).version;
}

export function program(): Command {
  const cli = new Command('fos-mock')
    .description('Stateful mock of the Financial Operations Service, and its contract-test harness.')
    .version(version(), '-V, --version', 'print the version of fos-mock')
    // `fos-mock` alone prints this help; a word that is no command is refused, naming the commands.
    // (commander drops its `help [command]` command when the program has an action: kept here.)
    .helpCommand(true)
    .allowExcessArguments(true)
    .action((_flags: unknown, command: Command) => {
      const [word] = command.args;
      if (word === undefined) return command.outputHelp();
      const names = command.commands.map((c) => c.name()).join(', ');
      command.error(`fos-mock: unknown command "${word}"; the commands are ${names} (fos-mock --help)`, {
        code: 'fos-mock.unknownCommand',
      });
    });
  cli
    .command('serve')
    .summary('start the mock with its demo data')
    .description('Start the mock with its demo data. It reads the settings below: its flags, and environment variables.')
    .option('-p, --port <port>', 'port to listen on (env PORT, default 4010)')
    .option('--host <host>', 'interface to listen on (env HOST, default 127.0.0.1)')
    .option('--fixtures <file>', 'fixture file to load (env FIXTURES)')
    .option('--no-strict', 'do not validate responses against the document (env STRICT_RESPONSES=off)')
    .option('--auto-settle <ms>', 'settle operations this long after creation, or "off" (env AUTO_SETTLE_MS)')
    .option('--clock-start <iso>', 'start the mock clock at this instant (env CLOCK_START)')
    .option('--no-control-api', 'do not serve the /_mock control API (env CONTROL_API=off)')
    .option('--redis <url>', 'keep the state in this Redis, shared by every replica on it (env REDIS_URL)')
    .option('--state-file <path>', 'keep the state in this file too: loaded at start, written after changes and on stop (env STATE_FILE)')
    .option(
      '--allowed-hosts <hosts>',
      'hosts the control API answers besides loopback ones, comma-separated; * for any (env ALLOWED_HOSTS)',
    )
    .addHelpText('after', settingsHelp())
    .action(async (flags: ServeFlags, command: Command) => {
      // commander sets a --no-x switch's attribute to true by default: only one typed on the
      // command line is the user's choice, the environment decides otherwise.
      const given = Object.fromEntries(Object.entries(flags).filter(([name]) => command.getOptionValueSource(name) === 'cli'));
      let config: Config;
      try {
        config = configFrom(process.env, given);
      } catch (error) {
        if (!(error instanceof ConfigError)) throw error;
        // One line naming the setting, before anything listens; 2 is the usage-error code.
        process.stderr.write(`fos-mock: ${error.message}\n`);
        process.exitCode = 2;
        return;
      }
      await serve(config);
    });
  // Client commands: they talk to a running mock (--url / FOS_MOCK_URL), or start one in-process.
  registerScenarioCommand(cli, process.env);
  registerExploreCommand(cli, process.env);
  registerRecordCommand(cli, version);
  registerFixturesCommand(cli);
  registerSnapshotCommand(cli, process.env);
  registerClockCommand(cli, process.env);
  registerTriggerCommand(cli, process.env);
  registerContractCommand(cli, process.env);
  return cli;
}

if (require.main === module) {
  program()
    .parseAsync(process.argv)
    .catch((error: Error) => {
      process.stderr.write(`fos-mock: ${error.message}\n`);
      process.exit(1);
    });
}
