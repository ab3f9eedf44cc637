#!/usr/bin/env node
// `npx fos-mock`: runs the compiled CLI (the package ships it; in a clone `npm start` or `npm run build` builds it).
// Node 22.1 and later keep V8's compiled code of the modules loaded below on disk (in
// os.tmpdir()/node-compile-cache, or NODE_COMPILE_CACHE), so a start after the first does not
// compile them again: Node's own compile cache, meant for CLI tools (decision 0028).
// NODE_DISABLE_COMPILE_CACHE=1 turns it off; on Node 20 there is none.
require('node:module').enableCompileCache?.();
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
