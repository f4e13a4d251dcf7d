#!/usr/bin/env node
// npm's `prepare`: builds dist/ wherever npm builds this package from source — `npm install` in a
// checkout, and a git spec (`npm pack <git URL>#<tag>`, or a git dependency).
//
// To prepare a git dependency npm clones it and runs `npm install --include=dev …` in the clone, which
// installs TypeScript there. Under `npm install -g` that child npm inherits the parent's `global`
// setting (npm_config_global): it installs the clone itself into the global prefix, on top of the
// install in progress, and leaves the clone without node_modules — `tsc: not found`
// (npm/cli#8440, open in npm 10 and 11). No script can undo that from here, so in that case this
// stops at once with the command that works: `npm pack <spec>`, then `npm install -g` the tarball.
// Anywhere else TypeScript is missing (dev dependencies omitted by the user's npm config), it
// installs the clone's own locked dependencies first — local, dev included, scripts off.
import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(join(root, 'package.json'));

function findTsc() {
  try {
    return require.resolve('typescript/bin/tsc');
  } catch {
    return undefined;
  }
}

/** The npm that runs this script (npm_execpath), so the install matches the npm the user chose. */
function npm(args) {
  const cli = process.env.npm_execpath;
  const [command, argv] = cli && cli.endsWith('.js') ? [process.execPath, [cli, ...args]] : ['npm', args];
  execFileSync(command, argv, { cwd: root, stdio: 'inherit', env: withoutInheritedNpmConfig(process.env) });
}

/** The parent npm's settings that would send the install elsewhere or leave the compiler out. */
function withoutInheritedNpmConfig(env) {
  const names = [
    'global',
    'location',
    'prefix',
    'omit',
    'include',
    'production',
    'only',
    'dry_run',
    'package_lock_only',
  ];
  const dropped = new Set(names.map((name) => `npm_config_${name}`));
  return Object.fromEntries(Object.entries(env).filter(([key]) => !dropped.has(key.toLowerCase())));
}

let tsc = findTsc();
if (tsc === undefined && process.env.npm_config_global === 'true') {
  console.error(
    'ralph: npm cannot build a git install with -g (npm/cli#8440). Run `npm pack <the same git URL>#<tag>`, ' +
      'then `npm install -g ./ralph-loop-cli-<version>.tgz` (docs/releasing.md).',
  );
  process.exit(1);
}
if (tsc === undefined) {
  console.error('ralph prepare: TypeScript is not installed here (a git install); installing the locked build tools');
  npm(['ci', '--global=false', `--prefix=${root}`, '--include=dev', '--ignore-scripts', '--no-audit', '--no-fund']);
  tsc = findTsc();
  if (tsc === undefined) throw new Error(`ralph prepare: TypeScript is still missing after npm ci in ${root}`);
}
rmSync(join(root, 'dist'), { recursive: true, force: true });
execFileSync(process.execPath, [tsc, '-p', 'tsconfig.build.json'], { cwd: root, stdio: 'inherit' });
