// Writes the state file (STATE_FILE): after a change, at most once per STATE_WRITE_DELAY_MS, one
// write at a time, and on demand (`flush`, a clean stop). Each write goes to a temporary file in
// the same folder, is synced to the disk, then renamed over the file: a rename within one folder
// replaces the file whole, so a process killed at any moment leaves the last complete write or
// the one before, never part of one (docs/decisions/0025-state-file.md).
import { open, rename } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

/** How long after a change the state is written; changes meanwhile go into the same write. */
export const STATE_WRITE_DELAY_MS = 200;

export interface StateFileWriterOptions {
  /** The state to write, as plain JSON (a snapshot). */
  take: () => Promise<unknown>;
  /** Told after each complete write (the log's `state written` line). */
  onWritten: (path: string, bytes: number) => void;
  /** A write that failed (a full disk, a folder removed); the next change tries again. */
  onError: (error: unknown) => void;
  delayMs?: number;
  /** The file's lock (state-file-lock.ts): once another mock has taken the file over, nothing more is written. */
  lock?: { readonly lost: Error | undefined };
}

export class StateFileWriter {
  private timer: NodeJS.Timeout | undefined;
  private writing: Promise<void> | undefined;
  /** A change not yet in a write that has started. */
  private dirty = false;
  private closed = false;
  /** The temporary file, beside the target: a rename across file systems would not be one step. */
  private readonly temporary: string;

  constructor(
    readonly path: string,
    private readonly options: StateFileWriterOptions,
  ) {
    this.temporary = join(dirname(path), `.${basename(path)}.tmp`);
  }

  /** Something changed: a write follows within the delay (or after the write under way). */
  changed(): void {
    if (this.closed) return;
    this.dirty = true;
    this.schedule();
  }

  /** Writes now what is not written yet, after the write under way; rejects when that write fails. */
  async flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    while (this.writing) await this.writing.catch(() => undefined);
    if (this.dirty) await this.writeNow();
  }

  /** The last write (a clean stop); no write after it. */
  async close(): Promise<void> {
    try {
      await this.flush();
    } finally {
      this.closed = true;
      if (this.timer) clearTimeout(this.timer);
      this.timer = undefined;
    }
  }

  private schedule(): void {
    // Not pushed back by later changes: a steady stream of changes is still written every delay.
    if (this.timer || this.writing) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.drain();
    }, this.options.delayMs ?? STATE_WRITE_DELAY_MS);
    // A pending write never keeps a process alive; a clean stop flushes it.
    this.timer.unref();
  }

  private async drain(): Promise<void> {
    if (this.writing || !this.dirty) return;
    try {
      await this.writeNow();
    } catch (error) {
      this.options.onError(error);
    }
    // Changes made during the write: another one.
    if (this.dirty && !this.closed) this.schedule();
  }

  private async writeNow(): Promise<void> {
    this.dirty = false;
    const done = this.write();
    this.writing = done;
    try {
      await done;
    } catch (error) {
      // Not written: the next write must still carry it.
      this.dirty = true;
      throw error;
    } finally {
      if (this.writing === done) this.writing = undefined;
    }
  }

  private async write(): Promise<void> {
    // The mock that took the file over writes it now; a write here would undo its changes.
    if (this.options.lock?.lost) {
      this.closed = true;
      return;
    }
    const text = JSON.stringify(await this.options.take());
    const file = await open(this.temporary, 'w');
    try {
      await file.writeFile(text, 'utf8');
      // On the disk before the rename: otherwise a power cut could leave the new name on an empty file.
      await file.sync();
    } finally {
      await file.close();
    }
    await rename(this.temporary, this.path);
    this.options.onWritten(this.path, Buffer.byteLength(text));
  }
}
