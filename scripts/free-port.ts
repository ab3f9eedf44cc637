// A loopback port free right now, for a child process that needs its port on the command line
// (benchmarks, the contract cross-check scripts, tests that start the CLI): the receiver's
// closedPort, which finds one the same way.
export { closedPort as freePort } from '../mock/receiver/closed-port';
