// The node test environment (jest.config.js), plus one thing: a jest worker process whose work
// is done ends with process.exit() as soon as its event loop is empty.
//
// Why: jest-worker gives a worker 500 ms to end after its last message, then kills it and prints
// "A worker process has failed to exit gracefully ... tests leaking due to improper teardown".
// A worker that ends by itself tears down V8's whole heap first (hundreds of page unmaps after a
// few dozen test files); on a busy two-core machine that alone takes longer than 500 ms, with no
// handle left open. process.exit() skips that teardown.
//
// It hides no leak: 'beforeExit' is emitted only when nothing (server, socket, timer, child
// process, pending request) keeps the event loop alive, so a worker holding a handle still
// stays up and jest still names it. Only worker processes (forked by jest-worker, with an IPC
// channel) are concerned: a run in band ends through jest's own exit.
'use strict';
const NodeEnvironment = require('jest-environment-node').TestEnvironment;

const INSTALLED = Symbol.for('fos-mock.test-environment.exit-when-drained');

if (typeof process.send === 'function' && !process[INSTALLED]) {
  process[INSTALLED] = true;
  // No argument: the exit code is process.exitCode, as when the process ends by itself.
  process.once('beforeExit', () => process.exit());
}

module.exports = NodeEnvironment;
