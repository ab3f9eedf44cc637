// Writes the precompiled validators of both documents (spec/contract/standalone.ts) to
// spec/generated/validators/. Run by `npm run build`, after tsc, from the compiled JS.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, relative } from 'node:path';
import { CONTROL_DOCUMENT_PATH } from '../mock/control/contract';
import { DEFAULT_DOCUMENT_PATH } from '../spec/contract/document';
import { standalonePath } from '../spec/contract/precompiled';
import { generateStandalone } from '../spec/contract/standalone';

for (const documentPath of [DEFAULT_DOCUMENT_PATH, CONTROL_DOCUMENT_PATH]) {
  const target = standalonePath(documentPath);
  mkdirSync(dirname(target), { recursive: true });
  const code = generateStandalone(documentPath);
  writeFileSync(target, code);
  process.stdout.write(`${relative(process.cwd(), target)}: ${(code.length / 1024).toFixed(0)} KiB\n`);
}
