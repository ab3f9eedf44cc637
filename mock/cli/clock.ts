// `fos-mock clock advance <duration>`: moves a running mock's clock (POST /_mock/clock/advance);
// what falls due on the way - auto-settlements, every webhook retry of the window - runs before
// it answers.
import type { Command } from 'commander';
import { UserError } from '../scenarios/errors';
import { describeAnswer, MockClient } from '../scenarios/http';
import { guarded, out, requireControlApi, targetUrl, withUrlOption, type Env } from './target';

export function registerClockCommand(cli: Command, env: Env): void {
  const clock = cli.command('clock').description("move a running mock's clock");
  withUrlOption(
    clock
      .command('advance')
      .summary('move the mock clock forward, running everything that falls due on the way')
      .description(
        'Move the mock clock forward by <duration>. On the way the clock stops at each due time in turn and runs what ' +
          'falls due there: auto-settlements, and every webhook retry of the window, including retries scheduled by an ' +
          'attempt made during the advance (with the default schedule, advancing 1h runs the first four retries of a failing delivery). ' +
          'Prints the new mock time.',
      )
      .argument('<duration>', 'e.g. 250ms, 30s, 5m, 1h30m, 2d, or milliseconds'),
  ).action(async (duration: string, flags: { url?: string }) =>
    guarded(async () => {
      const client = new MockClient(targetUrl(flags.url, env));
      try {
        await requireControlApi(client);
        const answer = await client.control('POST', '/clock/advance', { by: duration });
        if (answer.status === 400)
          throw new UserError(
            `"${duration}" is not a duration: write 250ms, 30s, 5m, 1h30m or 2d (units d h m s ms, in that order), or milliseconds`,
          );
        if (answer.status !== 200) throw new UserError(`the mock answered ${describeAnswer(answer)}`);
        const now = answer.body as { now: string; frozen: boolean };
        out(`mock clock advanced by ${duration}: now ${now.now}${now.frozen ? ' (frozen)' : ''}`);
      } finally {
        await client.close();
      }
    }),
  );
}
