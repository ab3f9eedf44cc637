// ESLint for the whole tree: the recommended rules of ESLint and of typescript-eslint, with type
// information (the project's tsconfig.json), zero warnings (`npm run lint`, part of `npm test`).
// Formatting is Prettier's job (.prettierrc.json), so no rule here is about layout.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/', 'reports/', 'coverage/', '.stryker-tmp/', 'spec/generated/'] },
  js.configs.recommended,
  tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
  },
  {
    rules: {
      // An unused parameter is named so on purpose: `_next` tells Express a four-argument error handler.
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
    },
  },
  {
    // The in-memory store implements the asynchronous Store interface (made for a store that waits
    // on I/O) without waiting: `async` is the interface's promise there, not a forgotten await.
    files: ['mock/store/memory-store.ts'],
    rules: { '@typescript-eslint/require-await': 'off' },
  },
  {
    // No line over Prettier's width: what Prettier cannot wrap (comments, strings, test names)
    // is wrapped by hand.
    rules: { 'max-len': ['error', { code: 140, ignoreUrls: true }] },
  },
  {
    // Tests read answers parsed from the wire (supertest's `res.body`, `JSON.parse`) and assert
    // them field by field; checking an answer against the document is the contract client's
    // job. Typing every body there would add casts, not safety, so the no-unsafe-* rules about
    // `any` are off in test files, and only there.
    files: ['test/**/*.ts', 'contract-tests/**/*.test.ts'],
    rules: {
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
    },
  },
  {
    files: ['**/*.js', '**/*.cjs', '**/*.mjs'],
    extends: [tseslint.configs.disableTypeChecked],
    // These are CommonJS modules: require is how they import.
    rules: { '@typescript-eslint/no-require-imports': 'off' },
    languageOptions: {
      sourceType: 'commonjs',
      globals: { require: 'readonly', module: 'writable', process: 'readonly', __dirname: 'readonly', console: 'readonly' },
    },
  },
);
