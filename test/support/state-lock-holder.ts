// A process that locks a state file the way a mock does (mock/control/state-file-lock.ts), for
// tests of the lock across processes: `node --import tsx state-lock-holder.ts <file> <host>
// <heartbeatMs> <staleAfterMs> [wait]`. It prints one line: `held <pid>`, or `refused <message>` and exits 1.
// With `wait` it first prints `ready` and tries only once a line arrives on stdin (several
// holders then try at once). A holder that loses its lock prints `lost <message>`.
import { once } from 'node:events';
import { lockStateFile } from '../../mock/control/state-file-lock';

async function main(): Promise<void> {
  const [file, host, heartbeat, staleAfter, wait] = process.argv.slice(2);
  if (!file || !host || !heartbeat || !staleAfter)
    throw new Error('usage: state-lock-holder.ts <file> <host> <heartbeatMs> <staleAfterMs> [wait]');
  if (wait === 'wait') {
    process.stdout.write('ready\n');
    await once(process.stdin, 'data');
  }
  const logger = {
    warn: () => undefined,
    error: (details: object) => process.stdout.write(`lost ${String((details as { err: Error }).err.message)}\n`),
  };
  try {
    await lockStateFile(file, { host, heartbeatMs: Number(heartbeat), staleAfterMs: Number(staleAfter), logger });
  } catch (error) {
    process.stdout.write(`refused ${(error as Error).message}\n`);
    process.exit(1);
  }
  process.stdout.write(`held ${process.pid}\n`);
  // Held until killed: the heartbeat's timer does not keep a process alive, this one does.
  setInterval(() => undefined, 60_000);
}

void main();
