// Bundles the inspector's page (mock/inspector/app/) into dist/mock/inspector/public/ with
// esbuild, and prints what it weighs compressed. Run by `npm run build`, after tsc, from the compiled JS.
import { relative } from 'node:path';
import { BUILT, writeBundle, type Asset } from '../mock/inspector/bundle';

async function main(): Promise<void> {
  const bundle = await writeBundle();
  const kib = (n: number) => (n / 1024).toFixed(1);
  for (const [name, asset] of Object.entries(bundle) as Array<[string, Asset]>) {
    process.stdout.write(`${relative(process.cwd(), BUILT)}/${name}: ${kib(asset.body.length)} KiB, ${kib(asset.gzip.length)} KiB gzip\n`);
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`build-inspector: ${(error as Error).message}\n`);
  process.exit(1);
});
