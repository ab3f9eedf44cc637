// TypeScript and the ESM-only dependencies (jose, fast-check, faker) are transpiled to CommonJS
// by ts-jest, file by file (isolatedModules: no type information); type-checking is tsc's job
// (`npm run typecheck`), not the test runner's.
const tsJest = [
  'ts-jest',
  {
    tsconfig: {
      isolatedModules: true,
      module: 'commonjs',
      moduleResolution: 'node',
      target: 'es2022',
      allowJs: true,
      esModuleInterop: true,
      sourceMap: true,
    },
  },
];
module.exports = {
  // Node's environment; a worker whose work is done ends at once (test/support/test-environment.cjs).
  testEnvironment: '<rootDir>/test/support/test-environment.cjs',
  transform: { '^.+\\.(t|j|mj)s$': tsJest },
  transformIgnorePatterns: ['/node_modules/(?!(jose|fast-check|pure-rand|@faker-js)/)'],
  moduleFileExtensions: ['ts', 'js', 'mjs', 'json'],
  testMatch: ['<rootDir>/test/**/*.test.ts', '<rootDir>/contract-tests/**/*.test.ts'],
  // A hang guard, never a deadline: every test and hook (beforeAll/afterAll too) waits for what it
  // needs to be ready, and the waits of test/support/waits.ts, the receiver and the contract
  // suite name what hung after 60 s. This bound is longer still, so a machine several times
  // slower than a quiet developer's (a full run beside another one on two cores) passes, slower.
  testTimeout: 180_000,
  // One worker per core, not Jest's default of one fewer: the suites spend most of their time
  // waiting on sockets, child processes, Redis and Chromium, and on a two-core machine the default
  // (one worker) runs them one after another in the main process.
  maxWorkers: '100%',
  // JUnit XML for CI to keep; the contract reporter prints the operation x status coverage of
  // the contract suite, writes reports/contract-summary.md and fails a full run that leaves an
  // operation of the document untouched.
  reporters: [
    'default',
    ['jest-junit', { outputDirectory: 'reports', outputName: 'junit.xml' }],
    '<rootDir>/contract-tests/support/contract-reporter.js',
  ],
};
