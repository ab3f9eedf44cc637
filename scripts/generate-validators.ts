// Writes the precompiled validators of both documents (spec/contract/standalone.ts) to
// spec/generated/validators/. Run by `npm run build`, after tsc, from the compiled JS. A module
// whose hash matches its document (precompiled.ts, documentHash) is kept as it is, so a restart
// with nothing changed does not compile again (`--force` writes it anyway).
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, relative } from 'node:path';
import { CONTROL_DOCUMENT_PATH } from '../mock/control/contract';
import { DEFAULT_DOCUMENT_PATH } from '../spec/contract/document';
import { loadPrecompiled, standalonePath } from '../spec/contract/precompiled';
import { generateStandalone } from '../spec/contract/standalone';

for (const documentPath of [DEFAULT_DOCUMENT_PATH, CONTROL_DOCUMENT_PATH]) {
  const target = standalonePath(documentPath);
  if (!process.argv.includes('--force') && loadPrecompiled(documentPath)) {
    process.stdout.write(`${relative(process.cwd(), target)}: up to date\n`);
    continue;
  }
  mkdirSync(dirname(target), { recursive: true });
  const code = generateStandalone(documentPath);
  writeFileSync(target, code);
  process.stdout.write(`${relative(process.cwd(), target)}: ${(code.length / 1024).toFixed(0)} KiB\n`);
}
