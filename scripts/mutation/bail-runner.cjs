// Jest's in-band runner, stopping at the first test file that kills the active mutant.
//
// The bail environment (./bail-environment.cjs) skips the tests after the first failure, but jest
// still loads every remaining test file, and each one imports the whole mock: a mutant killed by
// its first covering file spent 8 s or more loading the 40 to 50 others (measured with
// FOS_MUTATION_TRACE, docs/testing.md "Mutation testing"). Here the remaining files are not run at all;
// the run's results then hold the files that ran, which is all Stryker reads (a failed test
// means killed). Without an active mutant (the dry run, or `npm test`) it is jest's runner.
'use strict';
const TestRunner = require('jest-runner').default;
const index = require('./test-index.cjs');

class BailRunner extends TestRunner {
  async runTests(tests, watcher, options) {
    const mutant = index.activeMutant();
    if (mutant === undefined || !options.serial) return super.runTests(tests, watcher, options);
    for (const test of tests) {
      if (index.isKilled(mutant)) return;
      await super.runTests([test], watcher, options);
    }
  }
}

module.exports = BailRunner;
