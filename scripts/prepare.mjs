#!/usr/bin/env node
// npm's `prepare`: builds dist/ wherever npm builds this package from source — `npm install` in a
// checkout, and a git spec (`npm pack <git URL>#<tag>`, or a git dependency).
//
// To prepare a git dependency npm clones it and runs `npm install --include=dev …` in the clone, which
// installs TypeScript there. Under `npm install -g` that child npm inherits the parent's `global`
// setting (npm_config_global): it installs the clone itself into the global prefix, on top of the
// install in progress, and leaves the clone without node_modules — `tsc: not found`
// (npm/cli#8440, open in npm 10 and 11). Installing TypeScript from here gets the build through, but
// the outer install has already lost its directory and fails anyway (ENOENT), so in that case this
// stops at once with the commands that work: `npm pack <spec>`, then `npm install -g` the tarball.
import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

function findTsc() {
  try {
    return createRequire(join(root, 'package.json')).resolve('typescript/bin/tsc');
  } catch {
    return undefined;
  }
}

const tsc = findTsc();
if (tsc === undefined) {
  const globalInstall = process.env.npm_config_global === 'true' || process.env.npm_config_location === 'global';
  console.error(
    globalInstall
      ? 'ralph: npm cannot build a git install with -g (npm/cli#8440). Run `npm pack <the same git URL>#<tag>`, ' +
          'then `npm install -g ./ralph-loop-cli-<version>.tgz` (docs/releasing.md).'
      : 'ralph: TypeScript is not installed, so dist/ cannot be built: run `npm install --include=dev` ' +
          '(dev dependencies omitted by npm config?)',
  );
  process.exit(1);
}
rmSync(join(root, 'dist'), { recursive: true, force: true });
execFileSync(process.execPath, [tsc, '-p', 'tsconfig.build.json'], { cwd: root, stdio: 'inherit' });
execFileSync(process.execPath, [join(root, 'scripts/bundle.mjs')], { cwd: root, stdio: 'inherit' });
