// Finds files of the project whether the code runs from source (ts) or from dist/ (compiled):
// walk up from this file to the folder that holds package.json.
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';

let cached: string | undefined;

export function projectRoot(): string {
  if (cached) return cached;
  let dir = __dirname;
  while (!existsSync(join(dir, 'package.json'))) {
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`fos-mock: cannot find package.json above ${__dirname}`);
    dir = parent;
  }
  cached = dir;
  return dir;
}

export function projectPath(...parts: string[]): string {
  return join(projectRoot(), ...parts);
}
