// The state file's writer: a burst of changes is one write, one write runs at a time, a change
// made during a write is written after it, a clean stop writes the last change at once, and a
// write that fails is reported and made again. Then the same through the mock (startMock): the
// file exists from the start, and close() writes the change made just before it.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { StateFileWriter } from '../../mock/control/state-file-writer';
import { startMock } from '../../mock/package';
import { until } from '../support/waits';

let folder: string;
beforeAll(() => {
  folder = mkdtempSync(join(tmpdir(), 'fos-state-writer-'));
});
afterAll(() => {
  if (folder) rmSync(folder, { recursive: true, force: true });
});

/** A writer of a counter's value, with what it saw: the writes made and the most running at once. */
function counterWriter(path: string, delayMs: number) {
  const seen = { value: 0, writes: [] as number[], running: 0, mostRunning: 0, errors: [] as unknown[] };
  let hold: Promise<void> | undefined;
  const writer = new StateFileWriter(path, {
    delayMs,
    take: async () => {
      seen.running++;
      seen.mostRunning = Math.max(seen.mostRunning, seen.running);
      const value = seen.value;
      await hold;
      return { value };
    },
    onWritten: () => {
      seen.running--;
      seen.writes.push(JSON.parse(readFileSync(path, 'utf8')).value as number);
    },
    onError: (error) => {
      seen.running--;
      seen.errors.push(error);
    },
  });
  return {
    writer,
    seen,
    /** Holds the next takes until the answer is called. */
    holdTakes: () => {
      let release!: () => void;
      hold = new Promise((resolve) => (release = resolve));
      return () => {
        hold = undefined;
        release();
      };
    },
  };
}

describe('the state file writer', () => {
  it('writes a burst of changes once, after the delay', async () => {
    const path = join(folder, 'burst.json');
    const { writer, seen } = counterWriter(path, 20);
    for (let i = 1; i <= 50; i++) {
      seen.value = i;
      writer.changed();
    }
    await until(
      'the write of the burst',
      () => seen.writes.length,
      (n) => n >= 1,
    );
    await writer.close();
    expect(seen.writes).toEqual([50]);
    // Written by renaming a temporary file over it: nothing else is left in the folder.
    expect(readdirSync(folder).filter((name) => name.includes('burst'))).toEqual(['burst.json']);
  });

  it('writes one at a time, and a change made during a write in a write after it', async () => {
    const path = join(folder, 'during.json');
    const { writer, seen, holdTakes } = counterWriter(path, 5);
    const release = holdTakes();
    seen.value = 1;
    writer.changed();
    await until(
      'the first write to begin',
      () => seen.running,
      (n) => n === 1,
    );
    seen.value = 2;
    writer.changed();
    seen.value = 3;
    writer.changed();
    release();
    await until(
      'the write after the first',
      () => seen.writes.length,
      (n) => n >= 2,
    );
    await writer.close();
    expect(seen.writes).toEqual([1, 3]);
    expect(seen.mostRunning).toBe(1);
  });

  it('writes the last change at once on close, however long the delay', async () => {
    const path = join(folder, 'close.json');
    const { writer, seen } = counterWriter(path, 3_600_000);
    seen.value = 7;
    writer.changed();
    await writer.close();
    expect(seen.writes).toEqual([7]);
    // Closed: a later change writes nothing.
    writer.changed();
    await writer.flush();
    expect(seen.writes).toEqual([7]);
  });

  it('never writes into the file itself: a write stopped before its rename leaves the last complete write', async () => {
    const path = join(folder, 'stopped.json');
    const { writer, seen } = counterWriter(path, 3_600_000);
    seen.value = 1;
    writer.changed();
    await writer.flush();
    // The temporary file cannot be made (a folder holds its name): the write stops where a kill could stop it.
    mkdirSync(join(folder, '.stopped.json.tmp'));
    seen.value = 2;
    writer.changed();
    await expect(writer.flush()).rejects.toThrow(/EISDIR/);
    expect(JSON.parse(readFileSync(path, 'utf8'))).toEqual({ value: 1 });
    rmSync(join(folder, '.stopped.json.tmp'), { recursive: true });
    await writer.close();
    expect(JSON.parse(readFileSync(path, 'utf8'))).toEqual({ value: 2 });
  });

  it('reports a write that fails and writes the change at the next attempt', async () => {
    const missing = join(folder, 'gone', 'state.json');
    const { writer, seen } = counterWriter(missing, 3_600_000);
    seen.value = 1;
    writer.changed();
    await expect(writer.flush()).rejects.toThrow(/ENOENT/);
    // The change was not written, so it is still to be written: a flush into a folder that exists now writes it.
    mkdirSync(join(folder, 'gone'));
    await writer.close();
    expect(seen.writes).toEqual([1]);
  });
});

describe('startMock({ stateFile })', () => {
  it('writes the file at start, and close() writes the change made just before it', async () => {
    const path = join(folder, 'mock.json');
    const mock = await startMock({ stateFile: path, isolatedCustomer: false });
    const started = JSON.parse(readFileSync(path, 'utf8')) as { records: { customer: Array<{ id: string }> } };
    expect(started.records.customer).toHaveLength(2);
    const answer = await fetch(`${mock.url}/_mock/customers`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    const made = (await answer.json()) as { customerId: string };
    await mock.close();
    const closed = JSON.parse(readFileSync(path, 'utf8')) as { records: { customer: Array<{ id: string }> } };
    expect(closed.records.customer.map((c) => c.id)).toContain(made.customerId);

    // Started again on the file: the customer is there, loaded rather than the demo data alone.
    const again = await startMock({ stateFile: path, isolatedCustomer: false });
    try {
      expect((await fetch(`${again.url}/_mock/state/${made.customerId}`)).status).toBe(200);
    } finally {
      await again.close();
    }
  });
});
