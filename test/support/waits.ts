// Waiting for readiness, never for a length of time. Each wait here ends when what it waits for
// has happened (a promise settled, a check holds, a call succeeds); a slow machine makes it end
// later, never fail. The only clock is a hang guard: far longer than anything needs on a machine
// several times slower than a developer's, and failing with what was awaited, so that a hang
// says what hung instead of jest's bare "Exceeded timeout". jest's own time-out
// (jest.config.js) is longer still: a guard here fires first and names the wait.
import { spawnSync, type SpawnSyncOptionsWithStringEncoding } from 'node:child_process';

/** How long one awaited thing may take before it counts as a hang (a start-up, a delivery, a job...). */
export const HANG_GUARD_MS = 60_000;

/**
 * The time-out of a test that makes thousands of requests: jest.config.js's hang guard, stated on
 * the test so that mutation testing's 5 s a test (stryker.config.json), meant to end a mutant that
 * leaves one request unanswered, does not cut it short.
 */
export const BULK_TEST_MS = 180_000;

/** An error that says a wait gave up: what it waited for and for how long. */
export class HangError extends Error {
  override name = 'HangError';
}

const seconds = (ms: number) => `${Math.round(ms / 1000)} s`;

/** `promise`'s outcome; a HangError naming `what` if it has not settled after `guardMs` (a hang guard, never a deadline). */
export async function within<T>(what: string, promise: Promise<T>, guardMs = HANG_GUARD_MS): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const guard = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new HangError(`gave up waiting for ${what} after ${seconds(guardMs)} (hang guard)`)), guardMs);
    timer.unref();
  });
  try {
    return await Promise.race([promise, guard]);
  } finally {
    clearTimeout(timer);
  }
}

export interface PollOptions {
  /** The pause between two tries (default 20 ms): a poll never spins. */
  pauseMs?: number;
  /** The hang guard (default HANG_GUARD_MS). */
  guardMs?: number;
}

const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Reads `read` again, `pauseMs` apart, until `holds` is true of what it read, and returns that;
 * a HangError naming `what` and the last value read once the guard has passed.
 */
export async function until<T>(
  what: string,
  read: () => T | Promise<T>,
  holds: (value: T) => boolean,
  options: PollOptions = {},
): Promise<T> {
  const guardMs = options.guardMs ?? HANG_GUARD_MS;
  const started = Date.now();
  for (;;) {
    const value = await read();
    if (holds(value)) return value;
    if (Date.now() - started > guardMs)
      throw new HangError(
        `gave up waiting for ${what} after ${seconds(guardMs)} (hang guard); last value: ${JSON.stringify(value)?.slice(0, 400)}`,
      );
    await pause(options.pauseMs ?? 20);
  }
}

/**
 * Calls `attempt` until it resolves, `pauseMs` apart (a rejection means "not yet"), and returns
 * what it resolved with; a HangError naming `what` and the last rejection once the guard has passed.
 */
export async function retrying<T>(what: string, attempt: () => Promise<T>, options: PollOptions = {}): Promise<T> {
  const guardMs = options.guardMs ?? HANG_GUARD_MS;
  const started = Date.now();
  for (;;) {
    try {
      return await attempt();
    } catch (error) {
      if (Date.now() - started > guardMs)
        throw new HangError(`gave up waiting for ${what} after ${seconds(guardMs)} (hang guard); last error: ${String(error)}`);
    }
    await pause(options.pauseMs ?? 20);
  }
}

/**
 * spawnSync waiting for the child to end by itself, however long it takes; `guardMs` (default
 * HANG_GUARD_MS) is a hang guard: a child still running then is killed and a HangError names the
 * command, with what it printed.
 */
export function runToEnd(command: string, args: string[], options: SpawnSyncOptionsWithStringEncoding & { guardMs?: number }) {
  const guardMs = options.guardMs ?? HANG_GUARD_MS;
  const run = spawnSync(command, args, { ...options, timeout: guardMs });
  if (run.error && (run.error as NodeJS.ErrnoException).code === 'ETIMEDOUT')
    throw new HangError(
      `gave up waiting for \`${[command, ...args].join(' ')}\` to end after ${seconds(guardMs)} (hang guard):\n` +
        `${run.stdout ?? ''}${run.stderr ?? ''}`.slice(-2000),
    );
  return run;
}
