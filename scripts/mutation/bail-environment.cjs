// The node test environment, plus two things a mutation run needs:
//   - in the dry run, after each test, which mutants it ran (Stryker's per-test coverage) is
//     written down with the test's file (./test-index.cjs), for the sequencer;
//   - in a mutant's run, it stops at the first failing test: the mutant is killed, and the
//     tests and `beforeAll` hooks after it would only cost time (Stryker's jest runner has no
//     bail: jest's own `bail` is not honoured programmatically, jestjs/jest#11766).
'use strict';
const NodeEnvironment = require('jest-environment-node').TestEnvironment;
const index = require('./test-index.cjs');

// Shared by every test file of one jest run (Stryker runs jest in band): the mutant whose run
// saw a failure. A new mutant starts clean.
let killedMutant;

/** The test's id as Stryker keys its coverage: the describe names and the test name. */
function testId(test) {
  const names = [test.name];
  for (let block = test.parent; block && block.parent; block = block.parent) names.unshift(block.name);
  return names.join(' ');
}

class BailEnvironment extends NodeEnvironment {
  constructor(config, context) {
    super(config, context);
    this.rootDir = config.projectConfig.rootDir;
    this.testPath = context.testPath;
  }

  async handleTestEvent(event) {
    const mutant = index.activeMutant();
    if (mutant === undefined) {
      if (event.name === 'test_done') this.recordCoverage(event.test);
      return;
    }
    const killed = killedMutant === mutant;
    if (killed && event.name === 'run_describe_start') event.describeBlock.mode = 'skip';
    else if (killed && event.name === 'test_start') event.test.mode = 'skip';
    else if (event.name === 'test_done' && event.test.errors.length > 0) killedMutant = mutant;
  }

  recordCoverage(test) {
    const stryker = this.global[this.global.__strykerGlobalNamespace__ ?? '__stryker__'];
    const perTest = stryker?.mutantCoverage?.perTest?.[testId(test)];
    if (perTest) index.record(this.rootDir, this.testPath, Object.keys(perTest));
  }
}

module.exports = BailEnvironment;
