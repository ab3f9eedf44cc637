// What every client command shares: which mock to talk to (--url, else FOS_MOCK_URL, else the
// default address of `npm start`), the --url option itself, and one way to end on an error -
// the message on stderr, exit code 1, never a stack trace for a mistake of the user's.
import type { Command } from 'commander';
import { UserError, controlOff } from '../scenarios/errors';
import type { MockClient } from '../scenarios/http';

export const DEFAULT_URL = 'http://127.0.0.1:4010';

export type Env = Record<string, string | undefined>;

export function withUrlOption(command: Command, description = `base URL of the mock (env FOS_MOCK_URL, default ${DEFAULT_URL})`): Command {
  return command.option('--url <base>', description);
}

export function targetUrl(flag: string | undefined, env: Env): string {
  return flag || env.FOS_MOCK_URL || DEFAULT_URL;
}

/**
 * Runs a command's body; a UserError (or a refused answer) is printed as `fos-mock: ...` with exit
 * code 1, or the error's own `exitCode` (2 for a contract target the suite cannot run against).
 */
export async function guarded(body: () => Promise<void>): Promise<void> {
  try {
    await body();
  } catch (error) {
    if (!(error instanceof UserError)) throw error;
    process.stderr.write(`fos-mock: ${error.message}\n`);
    process.exitCode = 'exitCode' in error && typeof error.exitCode === 'number' ? error.exitCode : 1;
  }
}

/** Throws a clear error when the control API is not served there (or nothing listens). */
export async function requireControlApi(client: MockClient): Promise<void> {
  if (!(await client.hasControlApi())) throw controlOff(client.baseUrl);
}

export function out(line: string): void {
  process.stdout.write(`${line}\n`);
}
