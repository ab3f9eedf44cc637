// Which test file covers which mutant, written while Stryker's dry run runs every test (no mutant
// active) and read by the sequencer for each mutant's run. One file in the sandbox, which every
// Stryker worker shares (they all run in the same sandbox directory).
'use strict';
const fs = require('node:fs');
const path = require('node:path');

const FILE_NAME = '.stryker-test-index.ndjson';

/** The id of the mutant Stryker is running (it passes it in this variable), or undefined. */
function activeMutant() {
  return process.env.__STRYKER_ACTIVE_MUTANT__ || undefined;
}

function indexPath(rootDir) {
  return path.join(rootDir, FILE_NAME);
}

function forget(rootDir) {
  fs.rmSync(indexPath(rootDir), { force: true });
}

function record(rootDir, testPath, mutantIds) {
  if (mutantIds.length > 0) fs.appendFileSync(indexPath(rootDir), `${JSON.stringify([testPath, mutantIds])}\n`);
}

let cached = { mtimeMs: -1, files: new Map() };

/** Mutant id → the test files whose tests ran it in the dry run; empty when there was none. */
function filesByMutant(rootDir) {
  const file = indexPath(rootDir);
  let stat;
  try {
    stat = fs.statSync(file);
  } catch {
    return new Map();
  }
  if (stat.mtimeMs !== cached.mtimeMs) {
    const files = new Map();
    for (const line of fs.readFileSync(file, 'utf8').split('\n')) {
      if (!line) continue;
      const [testPath, mutantIds] = JSON.parse(line);
      for (const id of mutantIds) {
        if (!files.has(id)) files.set(id, new Set());
        files.get(id).add(testPath);
      }
    }
    cached = { mtimeMs: stat.mtimeMs, files };
  }
  return cached.files;
}

module.exports = { activeMutant, forget, record, filesByMutant };
