// Bundles jose (ES modules only) into one CommonJS file, dist/mock/services/jose.cjs, with its
// licence file beside it, for mock/services/jose.ts to load: the package then loads under jest's
// defaults, which cannot require an ES module (decision 0023). Run by `npm run build`, after tsc;
// a bundle newer than the installed jose is kept as it is.
import { copyFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { esbuild } from '../mock/lazy/modules';
import { upToDate } from './up-to-date';

/** mock/services/jose.ts's BUILT_JOSE, seen from dist/scripts/ (importing that module would load jose). */
const OUT = join(__dirname, '..', 'mock', 'services', 'jose.cjs');

async function main(): Promise<void> {
  if (upToDate([OUT, `${OUT}.LICENSE.md`], [require.resolve('jose/package.json'), require.resolve('jose')])) {
    process.stdout.write(`${relative(process.cwd(), OUT)}: up to date\n`);
    return;
  }
  await esbuild().build({
    entryPoints: [require.resolve('jose')],
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    outfile: OUT,
    logLevel: 'warning',
  });
  copyFileSync(join(dirname(require.resolve('jose/package.json')), 'LICENSE.md'), `${OUT}.LICENSE.md`);
  process.stdout.write(`${relative(process.cwd(), OUT)}: ${(statSync(OUT).size / 1024).toFixed(1)} KiB\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`build-jose: ${(error as Error).message}\n`);
  process.exit(1);
});
