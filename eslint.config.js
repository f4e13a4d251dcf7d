// House rules a machine keeps: type-aware TypeScript checks and the floors of the architecture
// (floors.js; docs/development.md says what each folder holds).
import importX from 'eslint-plugin-import-x';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import tseslint from 'typescript-eslint';
import { FLOORS } from './floors.js';

const zone = (folder, from, message) => ({
  target: `src/${folder}`,
  from: from.map((higher) => `src/${higher}`),
  message,
});

/** The import-x/no-restricted-paths zones: no folder imports anything of a floor above its own. */
const floorZones = FLOORS.flatMap(({ name, folders }, floor) => {
  const above = FLOORS.slice(floor + 1).flatMap((higher) => higher.folders);
  return above.length === 0
    ? []
    : folders.map((folder) =>
        zone(folder, above, `src/${folder} is on the ${name} floor: it imports nothing of a floor above (floors.js)`),
      );
});

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', 'coverage/', 'reports/', 'bench/.work/', '.stryker-tmp/'] },
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    plugins: { 'import-x': importX },
    settings: { 'import-x/resolver-next': [createTypeScriptImportResolver()] },
    rules: {
      'import-x/no-cycle': 'error',
      'import-x/first': 'error',
      'import-x/no-restricted-paths': ['error', { zones: floorZones }],
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' },
      ],
      '@typescript-eslint/consistent-type-imports': 'error',
      // Prettier wraps code at 120 columns but not comments; long strings and patterns stay whole,
      // so a message can be found by searching for it.
      'max-len': [
        'error',
        {
          code: 120,
          ignoreStrings: true,
          ignoreTemplateLiterals: true,
          ignoreRegExpLiterals: true,
          ignoreUrls: true,
          ignorePattern: 'eslint-disable',
        },
      ],
    },
  },
  {
    // One way to start a child process in the product (CONTRIBUTING.md): src/process/run-captured.ts
    // for a query whose output is kept, src/process/start-in-group.ts for a child ralph supervises;
    // the modules there that spawn say so inline. src/demo/ is not ralph but the agent
    // (bin/scripted-agent.js, a separate program standing in for `claude`): like any agent it runs
    // git and sh with node's own child_process, and leaves processes behind on purpose (unref'd,
    // setsid) for the containment tests, outside any wrapper that would watch or end them.
    files: ['src/**'],
    ignores: ['src/demo/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: 'node:child_process',
              message: 'start processes through src/process/ (run-captured.ts, start-in-group.ts)',
              allowTypeImports: true,
            },
            { name: 'execa', message: 'start processes through src/process/ (run-captured.ts, start-in-group.ts)' },
          ],
        },
      ],
    },
  },
  {
    // Tests fake async ports with plain bodies and read JSON they wrote themselves.
    files: ['test/**'],
    rules: {
      '@typescript-eslint/require-await': 'off',
      '@typescript-eslint/unbound-method': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/no-explicit-any': 'off',
    },
  },
  {
    // The core has no side effects: no file system, processes, terminal or clock of its own.
    files: ['src/loop/**', 'src/domain/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: [
                'node:fs',
                'node:fs/*',
                'node:child_process',
                'node:process',
                'execa',
                'simple-git',
                'picocolors',
              ],
              message: 'the core reaches the world only through its ports',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['**/*.js', '**/*.mjs', '**/*.cjs', 'bench/**'],
    extends: [tseslint.configs.disableTypeChecked],
  },
  {
    // CommonJS on purpose (bin/ralph.cjs: a start without the ES module loader).
    files: ['**/*.cjs'],
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
);
