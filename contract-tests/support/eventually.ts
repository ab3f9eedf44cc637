// Waits for what the target does asynchronously (a delivery log being written, the in-process
// mock starting): each ends when the thing has happened, so a slow machine or a slow target
// makes it end later, never fail. The one clock is a hang guard, far longer than anything needs,
// that fails naming what was awaited. Nothing asserts on how long it took.

/** How long one awaited thing may take before it counts as a hang. */
export const HANG_GUARD_MS = 60_000;

const seconds = (ms: number) => `${Math.round(ms / 1000)} s`;

/** Asks `read` again, 25 ms apart, until `holds` is true of the answer; fails naming `what` once the hang guard has passed. */
export async function eventually<T>(
  read: () => Promise<T>,
  holds: (value: T) => boolean,
  what: string,
  guardMs = HANG_GUARD_MS,
): Promise<T> {
  const started = Date.now();
  for (;;) {
    const value = await read();
    if (holds(value)) return value;
    if (Date.now() - started > guardMs)
      throw new Error(
        `contract suite: gave up waiting for ${what} after ${seconds(guardMs)} (hang guard); ` +
          `last value: ${JSON.stringify(value).slice(0, 400)}`,
      );
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/**
 * `promise`'s outcome; an error naming `what` if it has not settled after the hang guard. What
 * it resolves with after that is handed to `late` (to close a server nobody will get to close).
 */
export async function within<T>(what: string, promise: Promise<T>, late?: (value: T) => unknown, guardMs = HANG_GUARD_MS): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  let gaveUp = false;
  const guard = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      gaveUp = true;
      reject(new Error(`contract suite: gave up waiting for ${what} after ${seconds(guardMs)} (hang guard)`));
    }, guardMs);
    timer.unref();
  });
  try {
    return await Promise.race([promise, guard]);
  } finally {
    clearTimeout(timer);
    if (gaveUp && late) promise.then(late, () => undefined);
  }
}
