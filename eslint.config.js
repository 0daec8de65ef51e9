import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'sdks/typescript/dist/**', 'sdks/typescript/src/generated/**', 'data/**', 'coverage/**', 'e2e/screenshots/**', 'bench/results/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      '@typescript-eslint/no-explicit-any': ['error', { ignoreRestArgs: true }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    files: ['web/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: reactHooks.configs.recommended.rules,
  },
  {
    // The contract and the other shared code are imported by both sides, so they import neither.
    // Its tests may: some prove that the server and the web agree with it.
    files: ['common/**/*.ts'],
    ignores: ['common/**/*.test.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [{ group: ['**/server/**', '**/web/**', '@/*'], message: 'common/ is shared by server and web: it imports neither.' }] }] },
  },
  {
    files: ['web/**/*.{ts,tsx}'],
    rules: { 'no-restricted-imports': ['error', { patterns: [{ group: ['**/server/**'], message: 'The web reads server shapes from common/contract, never from server code.' }] }] },
  },
  {
    // Migrations are frozen and take an untyped Kysely on purpose; tests poke at JSON freely.
    files: ['server/src/db/migrations/**', '**/*.test.ts', '**/*.test.tsx', 'e2e/**', 'test/**'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
);
