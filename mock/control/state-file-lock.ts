// The state file's lock (STATE_FILE): one mock at a time uses a state file, or each would write
// its own state over the other's. The lock is a file beside it, `<file>.lock`, made exclusively
// and holding the holder's process id, host name, start time and a token of its own; the holder
// refreshes its modification time every heartbeat. A lock is taken over when its holder is gone:
// on this host when its process is not running (or is this process's id: a container started
// again, PID 1 both times); from another host (a new container on the same volume) when it has
// not been refreshed for three heartbeats (docs/decisions/0025-state-file.md).
import { randomUUID } from 'node:crypto';
import { readFileSync, unlinkSync } from 'node:fs';
import { open, readFile, stat, unlink, utimes } from 'node:fs/promises';
import { hostname } from 'node:os';
import { resolve } from 'node:path';
import { setTimeout as pause } from 'node:timers/promises';

/** How often the holder refreshes its lock. */
export const LOCK_HEARTBEAT_MS = 5_000;
/** A lock from another host not refreshed for this long is the lock of a mock that is gone. */
export const LOCK_STALE_AFTER_MS = 3 * LOCK_HEARTBEAT_MS;
/** Rounds of look-and-take-over before giving up; a mock waiting on another's take-over pauses longer each round (about 12 s in all). */
const ROUNDS = 50;

interface Holder {
  pid: number;
  host: string;
  since: string;
  token: string;
}

/** A lock file as found: its holder (undefined while it is being written, or if it is not ours to read), its stamp. */
interface Found {
  holder: Holder | undefined;
  mtimeMs: number;
  ino: number;
}

/** Where the lock tells what a user should know: pino's logger has this shape. */
interface LockLog {
  warn(details: object, message: string): void;
  error(details: object, message: string): void;
}

export interface StateFileLockOptions {
  /**
   * Told (warn) when a lock from another host is watched for a heartbeat before it is judged, and
   * (error) once when another mock took the file over: this one stood still past the stale bound,
   * and writes the file no more.
   */
  logger?: LockLog;
  /** Tests only: the host this process says it is on, and the heartbeat. */
  host?: string;
  heartbeatMs?: number;
  staleAfterMs?: number;
}

/** A state file another mock holds, or one that cannot be locked: one line, for `serve` to print before anything listens. */
export class StateFileLockError extends Error {
  constructor(path: string, problem: string, advice = 'stop that mock, or give this one another state file') {
    super(`fos-mock: state file ${path} ${problem}; nothing was started (${advice})`);
    this.name = 'StateFileLockError';
  }
}

/** Lock files this process holds, by path, with their tokens: a second mock here is refused though the pid is its own. */
const heldHere = new Map<string, string>();
let exitHookInstalled = false;

/** Locks the state file for this mock, taking over a stale lock; rejects with a StateFileLockError when a live mock holds it. */
export async function lockStateFile(path: string, options: StateFileLockOptions = {}): Promise<StateFileLock> {
  const lockPath = `${resolve(path)}.lock`;
  const heartbeatMs = options.heartbeatMs ?? LOCK_HEARTBEAT_MS;
  const staleAfterMs = options.staleAfterMs ?? 3 * heartbeatMs;
  const me: Holder = {
    pid: process.pid,
    host: options.host ?? hostname(),
    since: new Date().toISOString(),
    token: randomUUID(),
  };
  for (let round = 0; round < ROUNDS; round++) {
    if (heldHere.has(lockPath))
      throw new StateFileLockError(path, `is in use by another mock in this process (pid ${me.pid}, lock file ${lockPath})`);
    if (await created(path, lockPath, me)) return new StateFileLock(path, lockPath, me, heartbeatMs, options.logger);
    const found = await inspect(lockPath);
    if (!found) continue; // released meanwhile
    const verdict = await judge(found, me, lockPath, staleAfterMs, heartbeatMs, options.logger);
    if (verdict === 'live') throw new StateFileLockError(path, `is in use by another mock: ${described(found.holder, lockPath)}`);
    if (verdict === 'stale') await removeStale(lockPath, found, staleAfterMs, round + 1);
  }
  throw new StateFileLockError(path, `is being taken over by another mock (lock file ${lockPath})`);
}

export class StateFileLock {
  /** Set when another mock took the file over: the writer writes no more. */
  lost: Error | undefined;
  private readonly timer: NodeJS.Timeout;
  private beating: Promise<void> | undefined;

  constructor(
    readonly path: string,
    readonly lockPath: string,
    private readonly me: Holder,
    heartbeatMs: number,
    private readonly logger?: LockLog,
  ) {
    this.timer = setInterval(() => {
      this.beating ??= this.beat().finally(() => (this.beating = undefined));
    }, heartbeatMs);
    // The heartbeat never keeps a process alive.
    this.timer.unref();
  }

  /** Lets go of the lock (a clean stop); once it is released, or if it was lost, nothing more happens. */
  async release(): Promise<void> {
    clearInterval(this.timer);
    await this.beating;
    if (heldHere.get(this.lockPath) !== this.me.token) return;
    heldHere.delete(this.lockPath);
    if (this.lost) return;
    const found = await inspect(this.lockPath);
    if (found?.holder?.token === this.me.token) await unlink(this.lockPath).catch(ignoreMissing);
  }

  private async beat(): Promise<void> {
    if (this.lost || heldHere.get(this.lockPath) !== this.me.token) return;
    let found = await inspect(this.lockPath).catch(() => 'unknown' as const);
    // A refresh that fails (a disk briefly away) is tried again at the next beat.
    if (found === 'unknown') return;
    if (found === undefined) {
      // Removed by hand: made again, unless another mock has made its own meanwhile.
      if (await created(this.path, this.lockPath, this.me).catch(() => false)) return;
      found = await inspect(this.lockPath).catch(() => undefined);
    }
    if (found?.holder?.token === this.me.token) {
      const now = new Date();
      await utimes(this.lockPath, now, now).catch(() => undefined);
      return;
    }
    // Taken over: that mock's writes win from now on.
    clearInterval(this.timer);
    const by = found ? described(found.holder, this.lockPath) : `its lock file ${this.lockPath} was removed`;
    this.lost = new Error(`state file ${this.path} was taken over: ${by}; this mock writes it no more`);
    this.logger?.error({ err: this.lost, path: this.path }, 'state file taken over');
  }
}

/** Makes the lock file, only if there is none; false when there is one. */
async function created(path: string, lockPath: string, me: Holder): Promise<boolean> {
  let handle;
  try {
    handle = await open(lockPath, 'wx');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw new StateFileLockError(path, `cannot be locked: ${(error as Error).message}`, 'check the folder and its permissions');
  }
  try {
    await handle.writeFile(`${JSON.stringify(me)}\n`, 'utf8');
  } catch (error) {
    // A lock naming no one (a full disk) would hold the file for the stale bound: none at all.
    await unlink(lockPath).catch(() => undefined);
    throw new StateFileLockError(path, `cannot be locked: ${(error as Error).message}`, 'check the folder and its permissions');
  } finally {
    await handle.close();
  }
  heldHere.set(lockPath, me.token);
  installExitHook();
  return true;
}

/** The lock file as it is now; undefined when there is none. */
async function inspect(lockPath: string): Promise<Found | undefined> {
  try {
    const [text, stamp] = await Promise.all([readFile(lockPath, 'utf8'), stat(lockPath)]);
    return { holder: holderIn(text), mtimeMs: stamp.mtimeMs, ino: stamp.ino };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

function holderIn(text: string): Holder | undefined {
  try {
    const value = JSON.parse(text) as Partial<Holder>;
    // A pid of 0 or below would signal a process group: such a file is no lock of ours.
    const fine = Number.isInteger(value.pid) && value.pid! > 0 && typeof value.host === 'string' && typeof value.token === 'string';
    return fine ? (value as Holder) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Whether the lock's holder is alive. On this host its process says so. From another host (or a
 * lock that cannot be read) only its heartbeat does: a lock not refreshed for the stale bound is
 * stale at once; otherwise it is watched until it is refreshed (live), changes hands (looked at
 * again), or reaches the bound unrefreshed (stale), by this process's clock, not the file's.
 */
async function judge(
  found: Found,
  me: Holder,
  lockPath: string,
  staleAfterMs: number,
  heartbeatMs: number,
  logger?: LockLog,
): Promise<'live' | 'stale' | 'again'> {
  const holder = found.holder;
  if (holder && holder.host === me.host) return holder.pid !== me.pid && running(holder.pid) ? 'live' : 'stale';
  const age = Date.now() - found.mtimeMs;
  if (age >= staleAfterMs) return 'stale';
  const waitMs = Math.min(staleAfterMs - Math.max(age, 0), staleAfterMs);
  const seen = `${described(holder, lockPath)}, refreshed ${Math.max(0, Math.round(age / 1000))} s ago`;
  logger?.warn(
    { path: lockPath },
    `state file locked by ${seen}: waiting up to ${Math.ceil(waitMs / 1000)} s for a refresh (a live mock) or its lapse`,
  );
  const deadline = Date.now() + waitMs;
  while (Date.now() < deadline) {
    await pause(Math.min(heartbeatMs / 4, deadline - Date.now()));
    const now = await inspect(lockPath);
    if (!now || !sameLock(now, found)) return 'again';
    if (now.mtimeMs !== found.mtimeMs) return 'live';
  }
  return 'stale';
}

/** Whether a process of this id runs on this host (EPERM: it does, as another user's). */
function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Removes a stale lock, so that of several mocks taking it over at once only one does: each first
 * makes a guard file named after that lock, exclusively; the one that makes it looks again and
 * removes the lock only if it is still the stale one. The others look again in the next round.
 */
async function removeStale(lockPath: string, stale: Found, staleAfterMs: number, round: number): Promise<void> {
  const guard = `${lockPath}.${stale.holder?.token ?? `${stale.ino}-${stale.mtimeMs}`}.takeover`;
  let handle;
  try {
    handle = await open(guard, 'wx');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    // Another mock is taking it over now; a guard older than the bound is one a killed mock left.
    const left = await stat(guard).catch(() => undefined);
    if (left && Date.now() - left.mtimeMs >= staleAfterMs) await unlink(guard).catch(ignoreMissing);
    else await pause(10 * round);
    return;
  }
  await handle.close();
  try {
    const now = await inspect(lockPath);
    if (now && sameLock(now, stale)) await unlink(lockPath).catch(ignoreMissing);
  } finally {
    await unlink(guard).catch(ignoreMissing);
  }
}

function sameLock(a: Found, b: Found): boolean {
  return a.holder || b.holder ? a.holder?.token === b.holder?.token : a.ino === b.ino;
}

function described(holder: Holder | undefined, lockPath: string): string {
  if (!holder) return `a process its lock file ${lockPath} does not name (yet)`;
  return `process ${holder.pid} on host ${holder.host} (since ${holder.since}; lock file ${lockPath})`;
}

function ignoreMissing(error: NodeJS.ErrnoException): void {
  if (error.code !== 'ENOENT') throw error;
}

/** A process that exits without a clean stop (serve's forced end after SIGTERM) still lets go of its locks. */
function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.on('exit', () => {
    for (const [lockPath, token] of heldHere) {
      try {
        if (holderIn(readFileSync(lockPath, 'utf8'))?.token === token) unlinkSync(lockPath);
      } catch {
        // Gone already, or unreadable: nothing to let go of.
      }
    }
  });
}
