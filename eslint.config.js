// House rules a machine keeps: type-aware TypeScript checks and the floors of the architecture.
// CONTRIBUTING.md explains each floor and what it may import.
import importX from 'eslint-plugin-import-x';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import tseslint from 'typescript-eslint';

/** Folders of src/ by floor, lowest first. A floor may import its own and lower floors only. */
const DOMAIN = ['src/domain', 'src/errors.ts'];
const CORE = ['src/loop'];
const ADAPTERS = [
  'src/agent',
  'src/process',
  'src/box',
  'src/config',
  'src/files',
  'src/gates',
  'src/git',
  'src/lists',
  'src/integrate',
  'src/hook',
  'src/init',
  'src/status',
  'src/ui',
  'src/report',
  'src/answer',
  'src/demo',
  'src/templates.ts',
  'src/package-info.ts',
];
const COMMANDS = ['src/commands', 'src/run-lifecycle', 'src/outlets', 'src/parallel'];
const CLI = ['src/cli'];

const zone = (target, from, message) => ({ target, from, message });

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
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: [
            ...DOMAIN.map((target) =>
              zone(
                target,
                [...CORE, ...ADAPTERS, ...COMMANDS, ...CLI],
                'the domain is the ground floor: it imports nothing of ralph above it',
              ),
            ),
            ...CORE.map((target) =>
              zone(
                target,
                [...ADAPTERS, ...COMMANDS, ...CLI],
                'the core imports only the domain: no adapter, command or CLI',
              ),
            ),
            ...ADAPTERS.map((target) =>
              zone(
                target,
                [...COMMANDS, ...CLI],
                'adapters serve the core and the commands: they import neither commands nor the CLI',
              ),
            ),
            ...COMMANDS.map((target) => zone(target, CLI, 'commands are called by the CLI, never the reverse')),
          ],
        },
      ],
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
