// `fos-mock fixtures pull --url <sandbox> --client-id … --client-secret … --out <file> [--mask]`:
// a fixtures file from a target's records (fixtures-pull.ts, loaded on first use), and what the
// user should know about it: what was read, the balances given, the secret to log in with.
import type { Command } from 'commander';
import type { PullFlags } from './fixtures-pull';
import { guarded, out } from './target';

export function registerFixturesCommand(cli: Command): void {
  const fixtures = cli.command('fixtures').description('fixture files for `serve --fixtures`');
  fixtures
    .command('pull')
    .summary("write a fixtures file from a target's accounts, beneficiaries and subscriptions")
    .description(
      "Read the customer's accounts, beneficiaries and subscriptions through the service API (every page) and write a fixtures " +
        'file `serve --fixtures` loads as it is. No secret is written: the customer logs in to the mock with the secret fos-mock-local, ' +
        'and subscriptions get signing secrets of the mock. The API shows no balances: each asset of each account gets --balance.',
    )
    .requiredOption('--url <base>', 'the target to read (e.g. the sandbox)')
    .requiredOption('--client-id <id>', "the customer's client id there")
    .requiredOption('--client-secret <secret>', "the customer's client secret there (used to log in, never written)")
    .requiredOption('--out <file>', 'the fixtures file to write (JSON)')
    .option('--mask', 'replace names, tax ids, addresses, e-mails, phones and PIX keys, the same value always the same way')
    .option('--mask-key <key>', 'the key of the masking (another key masks differently)', 'fos-mock')
    .option('--balance <amount>', 'the balance given to each asset of each account', '1000')
    .action(async (flags: PullFlags) =>
      guarded(async () => {
        // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded when a pull runs, not by `serve`
        const { pullFixtures } = require('./fixtures-pull') as typeof import('./fixtures-pull');
        const { counts } = await pullFixtures(flags);
        out(
          `fos-mock fixtures pull: ${counts.accounts} accounts, ${counts.beneficiaries} beneficiaries and ${counts.subscriptions} ` +
            `subscriptions of ${flags.clientId} written to ${flags.out}${flags.mask ? ' (personal data masked)' : ''}`,
        );
        out(`  balances: the API shows none; each asset of each account holds ${flags.balance} (edit "balances" in the file)`);
        out('  rates and asset scales: the demo data\'s (edit "rates" and "assetScales")');
        out(`  log in to the mock as ${flags.clientId} with the secret fos-mock-local: npx fos-mock serve --fixtures ${flags.out}`);
      }),
    );
}
