// One lint config for the whole repository.
import fs from 'node:fs';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import { importX } from 'eslint-plugin-import-x';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';

/** The apps of the repository: none may import another (they talk over the wire, through packages/). */
const APPS = ['server', 'web', 'cabinet', 'media'];
const WEB_FEATURES = fs.readdirSync('apps/web/src/features');

/** No app imports another app. */
const APP_ZONES = APPS.map((app) => ({
  target: `./apps/${app}/src`,
  from: APPS.filter((other) => other !== app).map((other) => `./apps/${other}`),
  message: 'An app may not import another app: share it through packages/ or talk over the wire.',
}));

/** A web feature is used from outside only through its index.ts. */
const FEATURE_ZONES = WEB_FEATURES.map((feature) => ({
  target: [
    ...fs
      .readdirSync('apps/web/src')
      .filter((entry) => entry !== 'features')
      .map((entry) => `./apps/web/src/${entry}`),
    ...WEB_FEATURES.filter((other) => other !== feature).map((other) => `./apps/web/src/features/${other}`),
  ],
  from: `./apps/web/src/features/${feature}`,
  except: ['./index.ts'],
  message: `Import the ${feature} feature through its index.ts, not its internals.`,
}));

export default tseslint.config(
  { ignores: ['**/node_modules/**', '**/dist/**', 'data/**', '.tmp/**', 'coverage/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-explicit-any': 'warn',
      'no-console': 'off',
    },
  },
  {
    // The footer's static information pages carry one small script of their own (no build step).
    files: ['apps/web/public/**/*.js'],
    languageOptions: { globals: { ...globals.browser } },
  },
  {
    files: ['apps/web/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: { ...reactHooks.configs.recommended.rules },
  },
  {
    files: ['**/*.test.{ts,tsx}', 'e2e/**'],
    rules: { '@typescript-eslint/no-explicit-any': 'off', '@typescript-eslint/no-non-null-assertion': 'off' },
  },
  // The walls of the house, checked on every lint (docs/architecture walls; scripts/lint-walls.test.ts
  // plants a violation of each and expects lint to fail).
  {
    files: ['apps/**/*.{ts,tsx}', 'packages/**/*.{ts,tsx}'],
    plugins: { 'import-x': importX },
    settings: {
      // Without these the plugin skips every TypeScript file it follows, and finds no circle at all.
      'import-x/extensions': ['.ts', '.tsx', '.js', '.mjs'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx'] },
      'import-x/resolver-next': [createTypeScriptImportResolver({ project: ['apps/*/tsconfig.json', 'packages/*/tsconfig.json'], noWarnOnMultipleProjects: true })],
    },
    rules: {
      // No import circles: a circle makes start-up order matter and the layers blur.
      'import-x/no-cycle': 'error',
      'import-x/no-restricted-paths': ['error', { zones: [...APP_ZONES, ...FEATURE_ZONES] }],
    },
  },
  {
    // Contract schemas live in packages/protocol and nowhere else: an app imports them, it does not
    // build its own. The server's validator compiles them (lib/validation.ts); its drift test reads them.
    files: ['apps/**/*.{ts,tsx}', 'e2e/**/*.ts', 'scripts/**/*.ts'],
    ignores: ['apps/server/src/lib/validation.ts', 'apps/server/test/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: ['typebox', '@sinclair/typebox'].map((name) => ({
            name,
            message: 'Contract schemas live in packages/protocol: declare the schema there and import it.',
          })),
        },
      ],
    },
  },
  {
    // Tests and benchmarks may drive a real app of another folder (a real cabinet against the server).
    files: ['apps/**/*.test.{ts,tsx}', 'apps/*/test/**', 'apps/*/bench/**'],
    rules: { 'import-x/no-restricted-paths': ['error', { zones: FEATURE_ZONES }] },
  },
);
