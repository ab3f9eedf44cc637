// `fos-mock clock advance <duration> [--customer <id>]`: moves a running mock's clock (POST
// /_mock/clock/advance), or one customer's own clock (POST /_mock/customers/{id}/clock/advance);
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
          "Prints the new mock time. With --customer, moves that customer's own clock instead (a customer made with " +
          '`POST /_mock/customers {"clock":{...}}`), running only its jobs; no other clock moves.',
      )
      .argument('<duration>', 'e.g. 250ms, 30s, 5m, 1h30m, 2d, or milliseconds')
      .option('--customer <id>', "a customer's id: move its own clock, not the mock's"),
  ).action(async (duration: string, flags: { url?: string; customer?: string }) =>
    guarded(async () => {
      const client = new MockClient(targetUrl(flags.url, env));
      try {
        await requireControlApi(client);
        const path = flags.customer ? `/customers/${encodeURIComponent(flags.customer)}/clock/advance` : '/clock/advance';
        const answer = await client.control('POST', path, { by: duration });
        if (answer.status === 400)
          throw new UserError(
            `"${duration}" is not a duration: write 250ms, 30s, 5m, 1h30m or 2d (units d h m s ms, in that order), or milliseconds`,
          );
        if (flags.customer && answer.status === 404) throw new UserError(`no customer ${flags.customer} in this mock`);
        if (flags.customer && answer.status === 409)
          throw new UserError(`customer ${flags.customer} follows the mock's clock (it has no clock of its own): leave out --customer`);
        if (answer.status !== 200) throw new UserError(`the mock answered ${describeAnswer(answer)}`);
        const now = answer.body as { now: string; frozen: boolean };
        const whose = flags.customer ? `customer ${flags.customer}'s clock` : 'mock clock';
        out(`${whose} advanced by ${duration}: now ${now.now}${now.frozen ? ' (frozen)' : ''}`);
      } finally {
        await client.close();
      }
    }),
  );
}
