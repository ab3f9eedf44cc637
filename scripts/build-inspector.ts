// Bundles the inspector's page (mock/inspector/app/) into dist/mock/inspector/public/ with
// esbuild, and prints what it weighs compressed. Run by `npm run build`, after tsc, from the
// compiled JS. A bundle newer than every file of the page and of its build options is kept as
// it is, so a restart with nothing changed does not bundle again (`--force` bundles anyway).
import { join, relative } from 'node:path';
import { BUILT, writeBundle, type Asset } from '../mock/inspector/bundle';
import { projectPath } from '../spec/project-root';
import { upToDate } from './up-to-date';

const OUTPUTS = [join(BUILT, 'main.js'), join(BUILT, 'main.css')];
const INPUTS = [projectPath('mock', 'inspector', 'app'), projectPath('mock', 'inspector', 'bundle.ts'), projectPath('package-lock.json')];

async function main(): Promise<void> {
  if (upToDate(OUTPUTS, INPUTS)) {
    process.stdout.write(`${relative(process.cwd(), BUILT)}: up to date\n`);
    return;
  }
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
