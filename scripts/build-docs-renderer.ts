// Copies the /docs renderer, Redoc's standalone bundle (one file, from the redoc dev dependency),
// and its licence file into dist/ beside the compiled docs module, so the package serves the API
// reference without redoc and its dependencies installed. Run by `npm run build`, after tsc; a copy
// newer than the bundle it copies is kept as it is.
import { copyFileSync, mkdirSync, statSync } from 'node:fs';
import { dirname, relative } from 'node:path';
import { BUILT_RENDERER, RENDERER_BUNDLE } from '../mock/control/docs';
import { upToDate } from './up-to-date';

const source = require.resolve(RENDERER_BUNDLE);
if (upToDate([BUILT_RENDERER, `${BUILT_RENDERER}.LICENSE.txt`], [source, `${source}.LICENSE.txt`])) {
  process.stdout.write(`${relative(process.cwd(), BUILT_RENDERER)}: up to date\n`);
} else {
  mkdirSync(dirname(BUILT_RENDERER), { recursive: true });
  copyFileSync(source, BUILT_RENDERER);
  copyFileSync(`${source}.LICENSE.txt`, `${BUILT_RENDERER}.LICENSE.txt`);
  const kib = (statSync(BUILT_RENDERER).size / 1024).toFixed(1);
  process.stdout.write(`${relative(process.cwd(), BUILT_RENDERER)}: ${kib} KiB\n`);
}
