#!/usr/bin/env node
// The release tag: `v<version>` on a release commit — HEAD plus the built dist/ — so that
// `npm install -g <git URL>#v<version>` installs ralph in one step, with nothing to build.
//
// Why a commit of its own: npm builds a git dependency that has a build script by running
// `npm install` in a clone, and under -g that inner install inherits the global setting and breaks
// (npm/cli#8440). A commit that carries dist/ and whose package.json has no install-time script
// (prepare, build, prepack, install, …) is packed by npm as it is, and installed like a tarball.
// The release commit's parent is HEAD, and no branch moves: main never carries dist/.
//
// Run it in a clean checkout of the commit to release (the release workflow does, on main):
//   node scripts/release-tag.mjs          # builds, commits, tags v<package.json's version>
// Then push the tag: git push origin v<version>. Run again, it finds its own tag and does nothing;
// a tag of that name anywhere else is refused. Exit 0 done, 1 refused or failed.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** The scripts npm's git fetcher (pacote) runs `npm install` in a clone for: none may be left. */
const INSTALL_TIME_SCRIPTS = ['preinstall', 'install', 'postinstall', 'prepack', 'prepare', 'prebuild', 'build'];

function git(args, options = {}) {
  return execFileSync('git', args, { cwd: root, encoding: 'utf8', ...options }).trim();
}

function refuse(message) {
  console.error(`release-tag: ${message}`);
  process.exit(1);
}

const root = execFileSync('git', ['rev-parse', '--show-toplevel'], { encoding: 'utf8' }).trim();
const head = git(['rev-parse', 'HEAD']);
const manifest = JSON.parse(git(['show', 'HEAD:package.json']));
const tag = `v${manifest.version}`;

const existing = (() => {
  try {
    return git(['rev-parse', '--verify', '--quiet', `refs/tags/${tag}^{commit}`], {
      stdio: ['ignore', 'pipe', 'ignore'],
    });
  } catch {
    return undefined;
  }
})();
if (existing !== undefined) {
  const parent = git(['rev-parse', `${existing}^`]);
  const carriesDist = git(['ls-tree', '--name-only', existing, 'dist/ralph.cjs']) !== '';
  if (parent === head && carriesDist) {
    console.log(`${tag} is already the release commit ${existing.slice(0, 12)} on ${head.slice(0, 12)}: nothing to do`);
    process.exit(0);
  }
  refuse(
    `tag ${tag} already names ${existing.slice(0, 12)}, not a release commit of HEAD: bump the version, or delete the tag (git tag -d ${tag}) if it was never pushed`,
  );
}

if (git(['status', '--porcelain']) !== '')
  refuse(
    'the work tree has uncommitted changes: dist/ must be built from the commit that is released (commit or stash them)',
  );

console.log(`release-tag: building dist/ from ${head.slice(0, 12)}`);
execFileSync('npm', ['run', 'build', '--silent'], { cwd: root, stdio: ['ignore', 'inherit', 'inherit'] });

// The release tree, in an index of its own: HEAD's, plus dist/ (ignored on main), plus package.json
// without its install-time scripts. The work tree and the branch are left as they were.
const scratch = mkdtempSync(join(tmpdir(), 'ralph-release-'));
try {
  const env = { ...process.env, GIT_INDEX_FILE: join(scratch, 'index') };
  git(['read-tree', 'HEAD'], { env });
  git(['add', '--force', '--', 'dist', ':(exclude)dist/compile-cache'], { env });
  const released = { ...manifest, scripts: { ...manifest.scripts } };
  for (const name of INSTALL_TIME_SCRIPTS) delete released.scripts[name];
  const blob = git(['hash-object', '-w', '--stdin'], { input: `${JSON.stringify(released, null, 2)}\n` });
  git(['update-index', '--cacheinfo', `100644,${blob},package.json`], { env });
  const tree = git(['write-tree'], { env });
  const commit = git([
    'commit-tree',
    tree,
    '-p',
    head,
    '-m',
    `Release ${tag}: ${head.slice(0, 12)} with the built dist/`,
  ]);
  git(['tag', '-a', tag, commit, '-m', `ralph ${manifest.version}`]);
  console.log(
    `release-tag: ${tag} -> ${commit.slice(0, 12)} (HEAD ${head.slice(0, 12)} + dist/); push it: git push origin ${tag}`,
  );
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
