// ESLint flat config; kept under .ci/ because the repository's top level is fixed.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import lit from 'eslint-plugin-lit';

// The packages (design.md): code reaches another package by its name (`@payform/gateway`), never
// by a relative path, so what runs in the repository is what a merchant installs. Tests and their
// fixtures, which are not published, may reach into another package's test fixtures.
const TESTS = ['**/*.test.ts', '**/test/**', '**/testing/**', 'server/companion/integration/**', 'server/sandbox/contract/**'];
const crossing = (files, folders) => ({
  files,
  ignores: TESTS,
  rules: {
    'no-restricted-imports': ['error', {
      patterns: [{ regex: `^(\\.\\./)+(${folders})/`, message: 'Import another package by its name (@payform/…), not by a relative path.' }],
    }],
  },
});

export default tseslint.config(
  { ignores: ['**/node_modules/**', '**/dist/**', 'bench/**', 'test-results/**', 'playwright-report/**', 'data/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    // Lit templates: the widget's and the companion's back office.
    files: ['widget/**/*.ts', 'server/companion/back-office/web/**/*.ts'],
    ...lit.configs['flat/recommended'],
  },
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-console': 'off',
    },
  },
  crossing(['widget/**/*.ts'], 'server|card'),
  crossing(['widget/card/**/*.ts'], 'server|checkout|customer|i18n|pay-button|pay-form'),
  crossing(['server/gateway/**/*.ts'], 'companion|ledger|sandbox|widget'),
  crossing(['server/companion/**/*.ts', 'server/ledger/**/*.ts'], 'gateway|sandbox|widget'),
  crossing(['server/sandbox/**/*.ts'], 'companion|ledger|gateway|widget'),
  // The demo shop's pages take the back office's look, display preferences and money formatting
  // from its sources (design.md, "Packages"): presentation built into the pages, no API.
  crossing(['demo/**/*.ts'], 'server(?!/companion/back-office/web/)|widget'),
  {
    // A statement over a ledger table names its columns (server/ledger/columns.ts): `*` changes
    // its result when a later release adds one, and PostgreSQL refuses such a prepared statement
    // in the instances still running. A CTE of the statement's own may be read whole.
    files: ['server/ledger/**/*.ts'],
    ignores: [...TESTS, 'server/ledger/migrations.ts'],
    rules: {
      'no-restricted-syntax': ['error', {
        selector: "CallExpression[callee.property.name=/^(selectAll|returningAll)$/]",
        message: 'Name the columns (PAYMENT_COLUMNS, … in columns.ts): `*` over a ledger table breaks the instances still running when a migration adds one.',
      }],
    },
  },
);
