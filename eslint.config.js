// Lint rules of STYLE.md: no import cycles, shared web code never imports a feature, features never
// import each other, hooks used correctly, no `any` without a reason.
import js from '@eslint/js';
import { readdirSync } from 'node:fs';
import importX from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const features = readdirSync(new URL('./web/src/features', import.meta.url), { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map((d) => d.name);

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      '.local/**',
      '.scratch/**',
      'test-results/**',
      'playwright-report/**',
      'e2e/screenshots/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    plugins: { 'import-x': importX },
    languageOptions: { globals: { ...globals.node, ...globals.browser, Deno: 'readonly' } },
    rules: {
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    files: ['web/src/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'warn',
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: [
            {
              target: './web/src/components',
              from: './web/src/features',
              message: 'Shared UI never imports a feature.',
            },
            { target: './web/src/lib', from: './web/src/features', message: 'Shared code never imports a feature.' },
            { target: './web/src/lib', from: './web/src/app', message: 'Shared code never imports the app.' },
            { target: './web/src/features', from: './web/src/app', message: 'Features never import the app shell.' },
            ...features.map((name) => ({
              target: `./web/src/features/${name}`,
              from: './web/src/features',
              except: [`./${name}`],
              message: 'Features never import each other; move shared code to components/ or lib/.',
            })),
          ],
        },
      ],
    },
  },
);
