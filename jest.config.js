// TypeScript and the ESM-only dependencies (jose, fast-check, faker) are compiled to
// CommonJS by swc; type-checking is tsc's job (`npm run typecheck`), not the test runner's.
const swc = ['@swc/jest', { jsc: { target: 'es2022', parser: { syntax: 'typescript' } }, module: { type: 'commonjs' } }];
module.exports = {
  testEnvironment: 'node',
  transform: { '^.+\\.(t|j|mj)s$': swc },
  transformIgnorePatterns: ['/node_modules/(?!(jose|fast-check|pure-rand|@faker-js)/)'],
  moduleFileExtensions: ['ts', 'js', 'mjs', 'json'],
  testMatch: ['<rootDir>/test/**/*.test.ts', '<rootDir>/contract-tests/**/*.test.ts'],
  testTimeout: 20000,
};
