// Writes fixtures/demo.json from fixtures/generate.ts (deterministic: same output every run).
//   npm run generate:fixtures           write the file
//   npm run generate:fixtures --check   exit 1 if the file is stale
import { readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { generateDemoFixtures, serializeFixtures } from '../fixtures/generate';

const target = join(__dirname, '..', 'fixtures', 'demo.json');
const text = serializeFixtures(generateDemoFixtures());
const shown = relative(process.cwd(), target);

if (process.argv.includes('--check')) {
  let current = '';
  try {
    current = readFileSync(target, 'utf8');
  } catch {
    // missing file: stale
  }
  if (current !== text) {
    console.error(`${shown} is stale: run \`npm run generate:fixtures\``);
    process.exit(1);
  }
  console.log(`${shown} is up to date`);
} else {
  writeFileSync(target, text);
  console.log(`wrote ${shown} (${text.length} bytes)`);
}
