// Tests that need a program of the machine (redis-server, Chromium): describeWithTool starts it for
// the describe block (beforeAll) and stops it afterwards. Without the program the block fails in
// CI (CI must install it) and is skipped, with one loud line on stderr, on a developer's machine.
import { afterAll, beforeAll, describe, it } from '@jest/globals';
import { within } from './waits';

export interface RequiredTool<T> {
  /** The program, as the messages name it ("redis-server", "Chromium"). */
  name: string;
  /** Why it is missing, for the SKIPPED line and the CI failure ("not found on PATH …"). */
  missing: string;
  /** How to install it ("apt-get install redis-server"). */
  install: string;
  /** Whether it is on this machine. */
  found: boolean;
  start(): Promise<T>;
  stop(running: T): Promise<void>;
  /** A hang guard on start(): it is awaited until ready; only a hang this long fails, naming the program. */
  startTimeoutMs: number;
}

function inCI(): boolean {
  const ci = (process.env.CI ?? '').toLowerCase();
  return ci === 'true' || ci === '1';
}

export function describeWithTool<T>(name: string, tool: RequiredTool<T>, body: (running: () => T) => void): void {
  if (!tool.found) {
    if (inCI()) {
      describe(name, () => {
        it(`has the ${tool.name} it needs (required in CI)`, () => {
          throw new Error(`${name} needs ${tool.name}, which is required in CI and was ${tool.missing}: install it (${tool.install})`);
        });
      });
      return;
    }
    process.stderr.write(`SKIPPED: ${name} needs ${tool.name} (${tool.install}); ${tool.missing}\n`);
    describe.skip(name, () =>
      body(() => {
        throw new Error(`${tool.name} is not installed`);
      }),
    );
    return;
  }

  describe(name, () => {
    let running: T | undefined;
    // Waits for the program to be ready (within's guard names it if it hangs); jest's own hook
    // time-out is longer than the guard.
    beforeAll(async () => {
      running = await within(`${tool.name} to start`, tool.start(), tool.startTimeoutMs);
    }, tool.startTimeoutMs + 10_000);
    afterAll(async () => {
      if (running !== undefined) await tool.stop(running);
    });
    body(() => {
      if (running === undefined) throw new Error(`${tool.name} has not started (see the beforeAll failure)`);
      return running;
    });
  });
}
