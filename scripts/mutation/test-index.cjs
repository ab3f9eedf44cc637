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

// State of this worker's mutant runs, shared by the environment, the sequencer and the runner.
// On the process's global object, not in this module: jest loads the environment and the
// sequencer/runner through different module registries, each with its own copy of this file.
const shared = (globalThis[Symbol.for('fos-mock.mutation-run')] ??= {
  // Which test files killed the mutants of each source file, learnt during this run: neighbouring
  // mutants of a file tend to die by the same tests, so those files go first.
  killsBySource: new Map(),
  // The mutant whose run saw a failing test; a new mutant starts clean.
  killedMutant: undefined,
});
const killsBySource = shared.killsBySource;
let sourceOfMutant;

/** Mutant id → the source file Stryker instrumented it in (read once from the sandbox's files). */
function sourceOf(rootDir, mutant) {
  if (!sourceOfMutant) {
    sourceOfMutant = new Map();
    const walk = (dir) => {
      for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
        const full = path.join(dir, entry.name);
        if (entry.isDirectory()) walk(full);
        else if (entry.name.endsWith('.ts')) {
          const text = fs.readFileSync(full, 'utf8');
          for (const match of text.matchAll(/stryMutAct_9fa48\("(\d+)"\)/g)) sourceOfMutant.set(match[1], full);
        }
      }
    };
    walk(path.join(rootDir, 'mock'));
  }
  return sourceOfMutant.get(mutant);
}

function noteKill(rootDir, mutant, testPath) {
  const source = sourceOf(rootDir, mutant);
  if (source === undefined) return;
  if (!killsBySource.has(source)) killsBySource.set(source, new Map());
  const kills = killsBySource.get(source);
  kills.set(testPath, (kills.get(testPath) ?? 0) + 1);
}

/** How many mutants of `mutant`'s source file each test file has killed so far in this worker. */
function killsNear(rootDir, mutant) {
  const source = sourceOf(rootDir, mutant);
  return (source !== undefined && killsBySource.get(source)) || new Map();
}

function markKilled(rootDir, mutant, testPath) {
  shared.killedMutant = mutant;
  noteKill(rootDir, mutant, testPath);
}

function isKilled(mutant) {
  return shared.killedMutant === mutant;
}

/** A mutant's run begins (the sequencer): a kill from an earlier run of the same id does not count. */
function startRun() {
  shared.killedMutant = undefined;
}

module.exports = { activeMutant, forget, record, filesByMutant, markKilled, isKilled, killsNear, startRun };
