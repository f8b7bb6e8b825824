// Lint: typescript-eslint's type-aware recommended rules, and the layers' import rules. The folders
// are the architecture (src/http → src/domain → src/storage, src/lib below all of them); a rule
// here fails `npm test` when an import crosses a layer the wrong way.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

/** Forbids imports of the given layers (folders of src/) from the files a block applies to. */
const layersForbidden = (layers, why) => [
  'error',
  { patterns: [{ regex: `(^|/)(${layers.join('|')})/`, message: why }] },
];

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'data/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      // node:test's test() and describe() return promises the runner itself awaits.
      '@typescript-eslint/no-floating-promises': [
        'error',
        { allowForKnownSafeCalls: [{ from: 'package', package: 'node:test', name: ['test', 'describe', 'it', 'suite', 'before', 'after', 'beforeEach', 'afterEach'] }] },
      ],
      // An async function without await keeps the promise-returning shape its interface or
      // Fastify's hook style asks for.
      '@typescript-eslint/require-await': 'off',
      // A variable a closure reads before its single assignment (a logger set up later).
      'prefer-const': ['error', { ignoreReadBeforeAssign: true }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    files: ['src/storage/**/*.ts'],
    rules: { 'no-restricted-imports': layersForbidden(['domain', 'http', 'cli', 'seed'], 'storage knows tables, SQL and Redis only: move shared helpers to src/lib') },
  },
  {
    files: ['src/domain/**/*.ts'],
    rules: {
      // The domain is handed its repositories (src/services.ts builds them) and names their types;
      // it never imports storage code, so it cannot reach past what it was given.
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '(^|/)(http|cli|seed)/',
              message: 'the domain does not know HTTP or the CLI: report failures with domain errors, which src/http maps to statuses',
            },
            {
              regex: '(^|/)storage/',
              allowTypeImports: true,
              message: 'a service is handed its repositories: import their types only (import type …), and add what it needs to src/services.ts',
            },
            { regex: '(^|/)services\\.js$', message: 'src/services.ts assembles the domain; the domain does not import it' },
          ],
        },
      ],
    },
  },
  {
    files: ['src/http/routes/**/*.ts'],
    rules: { 'no-restricted-imports': layersForbidden(['storage'], 'a route calls the services, never storage') },
  },
  {
    files: ['src/cli/commands/**/*.ts'],
    rules: { 'no-restricted-imports': layersForbidden(['storage'], 'a command calls the services (src/cli/with-services.ts hands them over), never storage') },
  },
  {
    files: ['src/lib/**/*.ts'],
    rules: { 'no-restricted-imports': layersForbidden(['domain', 'http', 'storage', 'cli', 'seed', 'schemas'], 'src/lib is below every layer') },
  },
  // Plain JavaScript scripts are outside the TypeScript project: linted without type information.
  {
    files: ['**/*.js', '**/*.mjs'],
    ...tseslint.configs.disableTypeChecked,
    languageOptions: {
      ...tseslint.configs.disableTypeChecked.languageOptions,
      globals: { process: 'readonly', console: 'readonly', URL: 'readonly', setTimeout: 'readonly', performance: 'readonly', Buffer: 'readonly' },
    },
  },
);
