#!/usr/bin/env node
// `npx fos-mock`: runs the compiled CLI (npm ci builds it through the prepare script).
const { existsSync } = require('node:fs');
const { join } = require('node:path');
const entry = join(__dirname, '..', 'dist', 'mock', 'main.js');
if (!existsSync(entry)) {
  process.stderr.write('fos-mock: not built yet; run `npm run build` in the fos-mock folder first.\n');
  process.exit(1);
}
require(entry)
  .program()
  .parseAsync(process.argv)
  .catch((error) => {
    process.stderr.write(`fos-mock: ${error.message}\n`);
    process.exit(1);
  });
