// `fos-mock snapshot save <file>` / `snapshot load <file>`: export the whole state of a running
// mock to a JSON file (GET /_mock/snapshot), or replace its state with one (POST /_mock/snapshot).
import { readFileSync, writeFileSync } from 'node:fs';
import type { Command } from 'commander';
import { UserError } from '../scenarios/errors';
import { describeAnswer, MockClient, type HttpAnswer } from '../scenarios/http';
import { guarded, out, requireControlApi, targetUrl, withUrlOption, type Env } from './target';

interface Snapshot {
  takenAt: string;
  clock: { now: string; frozen: boolean };
  records: Record<string, unknown[]>;
}

function recordCount(snapshot: Snapshot): number {
  return Object.values(snapshot.records ?? {}).reduce((total, list) => total + (Array.isArray(list) ? list.length : 0), 0);
}

function refused(answer: HttpAnswer, what: string): UserError {
  return new UserError(`${what}: ${describeAnswer(answer)}`);
}

async function withClient(url: string, body: (client: MockClient) => Promise<void>): Promise<void> {
  const client = new MockClient(url);
  try {
    await requireControlApi(client);
    await body(client);
  } finally {
    await client.close();
  }
}

export function registerSnapshotCommand(cli: Command, env: Env): void {
  const snapshot = cli
    .command('snapshot')
    .description('save or load the whole state of a running mock (records, balances, idempotency keys, clock)');

  withUrlOption(
    snapshot
      .command('save')
      .description("write the mock's state to a JSON file (GET /_mock/snapshot)")
      .argument('<file>', 'where to write it'),
  ).action(async (file: string, flags: { url?: string }) =>
    guarded(() =>
      withClient(targetUrl(flags.url, env), async (client) => {
        const answer = await client.control('GET', '/snapshot');
        if (answer.status !== 200) throw refused(answer, 'cannot take a snapshot');
        const taken = answer.body as Snapshot;
        try {
          writeFileSync(file, `${JSON.stringify(taken, null, 2)}\n`);
        } catch (error) {
          throw new UserError(`cannot write ${file}: ${(error as Error).message}`);
        }
        out(
          `saved the state of ${client.baseUrl} to ${file}: ${recordCount(taken)} records, ` +
            `mock clock ${taken.clock.now}${taken.clock.frozen ? ' (frozen)' : ''}`,
        );
      }),
    ),
  );

  withUrlOption(
    snapshot
      .command('load')
      .description("replace the mock's state with a snapshot file (POST /_mock/snapshot); its clock is restored too")
      .argument('<file>', 'a file written by `snapshot save`'),
  ).action(async (file: string, flags: { url?: string }) =>
    guarded(async () => {
      let parsed: Snapshot;
      try {
        parsed = JSON.parse(readFileSync(file, 'utf8')) as Snapshot;
      } catch (error) {
        const code = (error as { code?: string }).code;
        throw new UserError(
          code === 'ENOENT' ? `cannot read ${file}: no such file` : `${file} is not a JSON snapshot: ${(error as Error).message}`,
        );
      }
      await withClient(targetUrl(flags.url, env), async (client) => {
        const answer = await client.control('POST', '/snapshot', parsed);
        if (answer.status !== 200) throw refused(answer, `the mock refused ${file}`);
        out(`loaded ${file} into ${client.baseUrl}: ${recordCount(parsed)} records, mock clock ${parsed.clock?.now ?? '?'}`);
      });
    }),
  );
}
