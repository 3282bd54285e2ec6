// @ts-check
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['src/db/generated/**', 'node_modules/**', 'data/**', '.scratch/**'] },
  js.configs.recommended,
  ...tseslint.configs.strictTypeChecked,
  {
    languageOptions: {
      globals: globals.node,
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      // Numbers in messages are what templates are for.
      '@typescript-eslint/restrict-template-expressions': ['error', { allowNumber: true }],
      // `() => void work()` and `(x) => list.push(x)` read plainly.
      '@typescript-eslint/no-confusing-void-expression': ['error', { ignoreArrowShorthand: true, ignoreVoidOperator: true }],
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' },
      ],
      // Passing a rejection on unchanged is right in promise plumbing, whatever it holds.
      '@typescript-eslint/prefer-promise-reject-errors': ['error', { allowThrowingUnknown: true }],
    },
  },
  {
    // One way to answer an interaction: its Responder knows what was sent before (a deferral, an answer).
    files: ['src/**/*.ts'],
    ignores: ['src/discord/responder.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector:
            'CallExpression[callee.object.name=/^(i|interaction)$/][callee.property.name=/^(reply|deferReply|editReply|deleteReply|followUp|update|deferUpdate|showModal|fetchReply)$/]',
          message: 'Answer an interaction through its Reply (src/discord/responder.ts), which knows whether it was acknowledged already.',
        },
      ],
    },
  },
  {
    // Tests assert on fixtures they built: a `!` there states what the test knows.
    files: ['test/**/*.ts'],
    rules: { '@typescript-eslint/no-non-null-assertion': 'off' },
  },
  {
    // The Discord simulator handles Discord's JSON as it comes, for any route: a wire fake, never shipped.
    files: ['scripts/fakes/discord/**/*.ts'],
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/no-non-null-assertion': 'off',
    },
  },
  {
    // The replay page's script runs in a browser; its own tsconfig gives it the DOM's types.
    files: ['src/report/replay/*.js'],
    languageOptions: { globals: globals.browser },
  },
  {
    files: ['**/*.mjs', '**/*.cjs', 'eslint.config.js'],
    ...tseslint.configs.disableTypeChecked,
  },
);
