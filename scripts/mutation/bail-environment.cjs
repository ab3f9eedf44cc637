// The node test environment, plus two things a mutation run needs:
//   - in the dry run, after each test, which mutants it ran (Stryker's per-test coverage) is
//     written down with the test's file (./test-index.cjs), for the sequencer;
//   - in a mutant's run, it stops at the first failing test: the mutant is killed, and the
//     tests and `beforeAll` hooks after it would only cost time (Stryker's jest runner has no
//     bail: jest's own `bail` is not honoured programmatically, jestjs/jest#11766).
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const NodeEnvironment = require('jest-environment-node').TestEnvironment;
const index = require('./test-index.cjs');

const HOOK_TIMEOUT_MS = 20_000;

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

  async setup() {
    this.startedAt = Date.now();
    return super.setup();
  }

  async teardown() {
    // FOS_MUTATION_TRACE=<file>: a line per test file of each mutant's run (mutant, start and end
    // in ms, K when it killed the mutant, the file), to see where a run's time goes.
    const mutant = index.activeMutant();
    const trace = process.env.FOS_MUTATION_TRACE;
    if (trace && mutant !== undefined) {
      const file = path.relative(this.rootDir, this.testPath);
      fs.appendFileSync(trace, `${mutant} ${this.startedAt} ${Date.now()} ${index.isKilled(mutant) ? 'K' : '-'} ${file}\n`);
    }
    return super.teardown();
  }

  async handleTestEvent(event) {
    // A hook without its own timeout gets 20 s: the mutation config gives tests 5 s (a mutant
    // that leaves a request unanswered then dies in 5 s, not 20), but a `beforeAll` that starts a
    // mock in a cold worker can take longer than that. (npm test's hang guard, jest.config.js,
    // is longer: a mutation run is a measure on a machine kept for it.)
    if (event.name === 'hook_start' && !event.hook.timeout) event.hook.timeout = HOOK_TIMEOUT_MS;
    const mutant = index.activeMutant();
    if (mutant === undefined) {
      if (event.name === 'test_done') this.recordCoverage(event.test);
      return;
    }
    const killed = index.isKilled(mutant);
    if (killed && event.name === 'run_describe_start') event.describeBlock.mode = 'skip';
    else if (killed && event.name === 'test_start') event.test.mode = 'skip';
    else if (event.name === 'test_done' && event.test.errors.length > 0) index.markKilled(this.rootDir, mutant, this.testPath);
  }

  recordCoverage(test) {
    const stryker = this.global[this.global.__strykerGlobalNamespace__ ?? '__stryker__'];
    const perTest = stryker?.mutantCoverage?.perTest?.[testId(test)];
    if (perTest) index.record(this.rootDir, this.testPath, Object.keys(perTest));
  }
}

module.exports = BailEnvironment;
