// The state file (STATE_FILE, --state-file): a snapshot (snapshot.ts, the format of GET
// /_mock/snapshot and `fos-mock snapshot save`) loaded at start when the file exists, and written
// again after changes and on a clean stop (state-file-writer.ts). A file that is there but is not
// a snapshot the mock can import stops start-up naming the file and the problem: starting empty
// would write an empty state over the user's at the first change.
import { readFile, stat } from 'node:fs/promises';
import { ServiceError } from '../errors/catalogue';
import type { ControlContext } from './context';
import { restoreSnapshot, type Snapshot } from './snapshot';
import type { StateFileWriter } from './state-file-writer';

/** At most this many problems are named in the start-up error; the rest are counted. */
const PROBLEMS_SHOWN = 5;

/** Why a state file cannot be loaded: one line naming the file, for `serve` to print before anything listens. */
export class StateFileError extends Error {
  constructor(path: string, problem: string) {
    super(`fos-mock: state file ${path} cannot be loaded: ${problem}; nothing was started (fix the file, or move it away to start anew)`);
    this.name = 'StateFileError';
  }
}

/**
 * Loads the file into the mock when it exists (true), or writes the state the mock started with
 * into it (false), so the file exists from the first moment on.
 */
export async function openStateFile(c: ControlContext, writer: StateFileWriter): Promise<boolean> {
  const loaded = await readStateFile(c, writer.path);
  if (!loaded) {
    writer.changed();
    await writer.flush();
    return false;
  }
  try {
    await restoreSnapshot(c, loaded);
  } catch (error) {
    if (!(error instanceof ServiceError)) throw error;
    throw new StateFileError(writer.path, problemsOf(error));
  }
  return true;
}

/** The snapshot in the file, its clocks moved on by the time since it was written; undefined when there is no file. */
async function readStateFile(c: ControlContext, path: string): Promise<Snapshot | undefined> {
  let text: string;
  let writtenAt: number;
  try {
    text = await readFile(path, 'utf8');
    writtenAt = (await stat(path)).mtimeMs;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new StateFileError(path, (error as Error).message);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new StateFileError(path, `it is not JSON (${(error as Error).message})`);
  }
  // The same schema POST /_mock/snapshot takes (spec/control-openapi.yaml, Snapshot).
  const { errors } = c.controlContract.checkSchema('Snapshot', value);
  if (errors.length > 0) throw new StateFileError(path, `it is not a snapshot: ${listed(errors.map(fieldText))}`);
  return movedOn(value as Snapshot, Math.max(0, Date.now() - writtenAt));
}

/**
 * A running clock goes on running while the mock is stopped, as it would have run had the mock
 * stayed up: the mock clock and each customer's own clock resume `elapsedMs` after the instant
 * they showed when the file was written (so what fell due meanwhile runs at start). A frozen
 * clock resumes where it stood.
 */
export function movedOn(snapshot: Snapshot, elapsedMs: number): Snapshot {
  const later = (now: string, frozen: boolean) => (frozen ? now : new Date(Date.parse(now) + elapsedMs).toISOString());
  return {
    ...snapshot,
    clock: { ...snapshot.clock, now: later(snapshot.clock.now, snapshot.clock.frozen) },
    ...(snapshot.customerClocks && {
      customerClocks: snapshot.customerClocks.map((own) => ({ ...own, now: later(own.now, own.frozen) })),
    }),
  };
}

function problemsOf(error: ServiceError): string {
  const fields = (error.details as { fields?: Array<{ field: string; message: string }> } | undefined)?.fields;
  return fields && fields.length > 0 ? `its records are refused: ${listed(fields.map(fieldText))}` : error.message;
}

function fieldText(problem: { field: string; message: string }): string {
  // The import names fields from the request body's root; here the root is the file.
  return `${problem.field.replace(/^body\.?/, '') || '(the whole file)'} ${problem.message}`;
}

function listed(problems: string[]): string {
  const more = problems.length - PROBLEMS_SHOWN;
  return problems.slice(0, PROBLEMS_SHOWN).join('; ') + (more > 0 ? `; and ${more} more` : '');
}
