// For a mutant, run only the test files that covered it in the dry run.
//
// Stryker's jest runner narrows a mutant's run to its covering tests by name
// (`testNamePattern`), but jest still loads every related test file to look for them, and each
// contract file starts the whole mock in-process: that cost 10 to 15 s a mutant (docs/testing.md,
// "Mutation testing"). The dry run records which file's tests ran which mutant
// (./bail-environment.cjs, ./test-index.cjs); here only those files are kept. Without an index,
// or for a mutant no file covered, every file runs, which is what Stryker asked for.
//
// The order is for the bail (./bail-environment.cjs): a file that failed in the last run first
// (it killed the mutant before, and neighbouring mutants tend to die by the same tests), then
// the quickest first, so a mutant dies before the slow files load. Jest's own order is slowest
// first, for a whole suite on many workers.
'use strict';
const Sequencer = require('@jest/test-sequencer').default;
const index = require('./test-index.cjs');

class CoveringFilesSequencer extends Sequencer {
  sort(tests) {
    if (tests.length === 0) return super.sort(tests);
    const rootDir = tests[0].context.config.rootDir;
    const mutant = index.activeMutant();
    if (mutant === undefined) {
      // The dry run: the test environment writes a new index as the tests run.
      index.forget(rootDir);
      return super.sort(tests);
    }
    // Stryker may run the same mutant again in this worker (a retry): its files run again in full.
    index.startRun();
    const wanted = index.filesByMutant(rootDir).get(mutant);
    const kept = wanted ? tests.filter((test) => wanted.has(test.path)) : [];
    return this.killersFirst(kept.length === 0 ? tests : kept, index.killsNear(rootDir, mutant));
  }

  killersFirst(tests, kills) {
    const rank = (test) => [-(kills.get(test.path) ?? 0), this.hasFailed(test) ? 0 : 1, this.time(test) ?? 0];
    return [...tests].sort((a, b) => {
      const [killsA, failedA, timeA] = rank(a);
      const [killsB, failedB, timeB] = rank(b);
      return killsA - killsB || failedA - failedB || timeA - timeB;
    });
  }
}

module.exports = CoveringFilesSequencer;
