// `npm run test:package`: the package tried as a user would (package-tests/), apart from `npm
// test` because it packs, installs from the registry and runs the contract suite from the
// installed package (a few minutes). CI runs it once, on the machine's Node.
const base = require('./jest.config');

module.exports = {
  ...base,
  testMatch: ['<rootDir>/package-tests/**/*.test.ts'],
  reporters: ['default'],
  testTimeout: 10 * 60 * 1000,
};
