import { execFileSync, spawnSync } from 'node:child_process';
import { symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PACKAGE_VERSION } from '../../src/package-info.js';
import { gitEnv, PACKAGE_ROOT } from '../helpers/e2e.js';
import { tempDirs } from '../helpers/temp-dirs.js';

// The release path of docs/releasing.md, end to end: scripts/release-tag.mjs tags a release commit in
// a clone of this repository, and `npm install -g <git URL>#<tag>` installs a working ralph from it in
// one command. The install may reach the npm registry for ralph's dependencies, as any install does.
const NPM_FLAGS = ['--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error'];
const MINUTES = 60_000;
const TAG = `v${PACKAGE_VERSION}`;
const SCRIPT = join(PACKAGE_ROOT, 'scripts/release-tag.mjs');

/** Prefixes and clones hold a whole install each: removed after this file. */
const tempDir = tempDirs();

/** No npm_* variable of `npm test`'s own reaches the commands. */
function cleanEnv(): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(gitEnv()).filter(([key]) => !/^npm_/i.test(key)));
}

/** The committed HEAD of this repository in a clone of its own, with this checkout's dependencies to build with. */
function cloneOfThis(): string {
  const clone = join(tempDir('ralph-release-'), 'ralph');
  execFileSync('git', ['clone', '--quiet', '--no-hardlinks', PACKAGE_ROOT, clone]);
  // Tags of this repository are not the clone's business: the test makes its own.
  for (const tag of execFileSync('git', ['-C', clone, 'tag'], { encoding: 'utf8' }).split('\n').filter(Boolean))
    execFileSync('git', ['-C', clone, 'tag', '-d', tag], { stdio: 'ignore' });
  symlinkSync(join(PACKAGE_ROOT, 'node_modules'), join(clone, 'node_modules'));
  return clone;
}

function releaseTag(clone: string) {
  const result = spawnSync(process.execPath, [SCRIPT], { cwd: clone, encoding: 'utf8', env: cleanEnv() });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

const git = (clone: string, ...args: string[]) =>
  execFileSync('git', ['-C', clone, ...args], { encoding: 'utf8', env: cleanEnv() }).trim();

describe('the release route', () => {
  it(
    'release-tag tags HEAD plus dist/, and `npm install -g <git URL>#<tag>` installs a working ralph in one step',
    { timeout: 15 * MINUTES },
    () => {
      const clone = cloneOfThis();
      const head = git(clone, 'rev-parse', 'HEAD');
      const tagged = releaseTag(clone);
      expect(tagged.code, tagged.stderr).toBe(0);
      expect(tagged.stdout).toContain(`${TAG} -> `);
      // The tag's commit is HEAD's child with dist/; no branch moved, and main's tree has no dist/.
      const commit = git(clone, 'rev-parse', `${TAG}^{commit}`);
      expect(git(clone, 'rev-parse', `${commit}^`)).toBe(head);
      expect(git(clone, 'rev-parse', 'HEAD')).toBe(head);
      expect(git(clone, 'status', '--porcelain')).toBe('');
      expect(git(clone, 'ls-tree', '--name-only', head, 'dist')).toBe('');
      expect(git(clone, 'ls-tree', '--name-only', commit, 'dist/ralph.cjs')).toBe('dist/ralph.cjs');
      expect(git(clone, 'ls-tree', '-r', '--name-only', commit, 'dist/compile-cache')).toBe('');
      const released = JSON.parse(git(clone, 'show', `${commit}:package.json`)) as { scripts: Record<string, string> };
      expect(Object.keys(released.scripts)).not.toContain('prepare');
      expect(Object.keys(released.scripts)).not.toContain('build');
      // Again: its own tag is found, nothing is made.
      const again = releaseTag(clone);
      expect(again.code, again.stderr).toBe(0);
      expect(again.stdout).toContain('nothing to do');
      expect(git(clone, 'rev-parse', `${TAG}^{commit}`)).toBe(commit);

      // The README's one-step route, into an empty prefix.
      const prefix = tempDir('ralph-prefix-');
      const install = spawnSync(
        'npm',
        ['install', '--global', '--prefix', prefix, `git+file://${clone}#${TAG}`, ...NPM_FLAGS],
        { cwd: prefix, encoding: 'utf8', env: cleanEnv() },
      );
      expect(install.status, `${install.stdout}\n${install.stderr}`).toBe(0);
      const version = spawnSync(join(prefix, 'bin', 'ralph'), ['--version'], { encoding: 'utf8', env: cleanEnv() });
      expect(version.status, version.stderr).toBe(0);
      expect(version.stdout.trim()).toBe(PACKAGE_VERSION);
    },
  );

  it('refuses a work tree with uncommitted changes, and a tag of that name elsewhere, and tags nothing', () => {
    const clone = cloneOfThis();
    writeFileSync(join(clone, 'README.md'), 'changed\n');
    const dirty = releaseTag(clone);
    expect(dirty.code).toBe(1);
    expect(dirty.stderr).toContain('release-tag: the work tree has uncommitted changes');
    expect(git(clone, 'tag')).toBe('');
    git(clone, 'checkout', '--', 'README.md');
    git(clone, 'tag', TAG, 'HEAD');
    const taken = releaseTag(clone);
    expect(taken.code).toBe(1);
    expect(taken.stderr).toContain(`release-tag: tag ${TAG} already names`);
  });
});
