// Whether a build step's outputs are newer than every file of its inputs (a folder counts as all
// the files below it), so a build with nothing changed can keep them as they are. `--force` on a
// step's command line makes it build anyway.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** The latest modification time of a file, or of any file below a folder. */
function newest(path: string): number {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(0, ...readdirSync(path).map((name) => newest(join(path, name))));
}

export function upToDate(outputs: readonly string[], inputs: readonly string[]): boolean {
  if (process.argv.includes('--force') || !outputs.every((output) => existsSync(output))) return false;
  const built = Math.min(...outputs.map((output) => statSync(output).mtimeMs));
  return inputs.every((input) => !existsSync(input) || newest(input) < built);
}
