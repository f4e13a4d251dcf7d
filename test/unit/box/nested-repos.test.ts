import { execFileSync } from 'node:child_process';
import { existsSync, lstatSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { populatedEntry, recordNested } from '../../../src/box/nested-repos.js';
import { asideName, sweepNested } from '../../../src/box/nested-sweep.js';
import { realRepository } from '../git/real-repository.js';

const IDENTITY = ['-c', 'user.name=t', '-c', 'user.email=t@t.invalid'];

/** A repository with a submodule of yours (its git dir in .git/modules), and a folder outside it. */
async function repoWithSubmodule() {
  const repo = await realRepository('ralph-nested-');
  const root = await realpath(repo.root);
  const outside = await realpath(await mkdtemp(join(tmpdir(), 'ralph-nested-outside-')));
  const source = join(outside, 'source');
  nestedRepo(source);
  repo.git('-c', 'protocol.file.allow=always', 'submodule', 'add', '-q', source, 'lib/mine');
  repo.git('commit', '-qm', 'a submodule of yours');
  return { ...repo, root, outside, records: join(root, '.git', 'ralph') };
}

/** A repository with a commit at `dir`, whose config runs `fsmonitor` when set. */
function nestedRepo(dir: string, fsmonitor?: string) {
  execFileSync('git', ['init', '-q', dir]);
  execFileSync('git', ['-C', dir, ...IDENTITY, 'commit', '-q', '--allow-empty', '-m', 'nested']);
  if (fsmonitor) execFileSync('git', ['-C', dir, 'config', 'core.fsmonitor', fsmonitor]);
}

/** The sweep's places for the main checkout at `root`: its git dir is its common one. */
function places(root: string, recordDir: string) {
  return { workTree: root, gitDir: join(root, '.git'), commonDir: join(root, '.git'), recordDir };
}

/** A plain git status, as you would run it after the run: with the repository's own configuration. */
function plainStatus(root: string) {
  execFileSync('git', ['status', '--porcelain'], { cwd: root, stdio: 'ignore' });
}

describe('nested repositories as the box is made', () => {
  it("records your submodule and holds its .git file and its git dir's config, hooks and info", async () => {
    const repo = await repoWithSubmodule();
    const record = await recordNested(repo.root, join(repo.root, '.git'));
    const dotGit = join(repo.root, 'lib/mine/.git');
    const gitDir = join(repo.root, '.git/modules/lib/mine');
    expect([...record.entries.keys()]).toEqual([dotGit]);
    expect(record.workTrees).toEqual([repo.root, join(repo.root, 'lib/mine')]);
    expect(record.held).toEqual([dotGit, ...['config', 'hooks', 'info'].map((name) => join(gitDir, name))]);
    expect(record.guarded).toContain(join(repo.root, '.git/modules'));
    expect(record.redirects).toEqual([join(gitDir, 'commondir'), join(gitDir, 'config.worktree')]);
    expect(record.moduleGitDirs).toEqual(new Set([gitDir]));
  });
});

describe('the sweep of nested repositories', () => {
  it("moves the agent's nested .git and submodule git dirs into ralph's records; a plain git status then runs none", async () => {
    const repo = await repoWithSubmodule();
    const record = await recordNested(repo.root, join(repo.root, '.git'));
    // What the agent does in the box: an embedded repository committed as a gitlink, and a submodule.
    const proof = join(repo.outside, 'monitored');
    nestedRepo(join(repo.root, 'evil'), `touch ${proof}; false`);
    await writeFile(join(repo.root, 'evil/work.txt'), 'the agent kept this\n');
    repo.git('add', 'evil');
    repo.git('-c', 'protocol.file.allow=always', 'submodule', 'add', '-q', join(repo.outside, 'source'), 'mod');
    execFileSync('git', ['-C', join(repo.root, 'mod'), 'config', 'core.fsmonitor', `touch ${proof}; false`]);
    repo.git('commit', '-qm', 'the agent');

    const { moved } = await sweepNested(record, places(repo.root, repo.records));

    expect(moved.map((entry) => entry.from).sort()).toEqual(
      [join(repo.root, 'evil/.git'), join(repo.root, 'mod/.git'), join(repo.root, '.git/modules/mod')].sort(),
    );
    for (const { from, to } of moved) {
      expect(existsSync(from), from).toBe(false);
      expect(to.startsWith(join(repo.records, 'set-aside') + '/'), to).toBe(true);
      expect(lstatSync(to)).toBeTruthy();
    }
    expect(await readFile(join(repo.root, 'evil/work.txt'), 'utf8')).toBe('the agent kept this\n');
    expect(repo.git('ls-files', '--stage', 'evil')).toMatch(/^160000 /);
    expect(existsSync(join(repo.root, 'lib/mine/.git'))).toBe(true);
    plainStatus(repo.root);
    expect(existsSync(proof)).toBe(false);
    const sweep = await sweepNested(record, places(repo.root, repo.records));
    expect(sweep).toEqual({ moved: [], mended: [], unfinished: [] });
  });

  it("moves your submodule's .git file when the agent pointed it elsewhere", async () => {
    const repo = await repoWithSubmodule();
    const record = await recordNested(repo.root, join(repo.root, '.git'));
    const dotGit = join(repo.root, 'lib/mine/.git');
    nestedRepo(join(repo.outside, 'agents'), 'true');
    await rm(dotGit);
    await writeFile(dotGit, `gitdir: ${join(repo.outside, 'agents/.git')}\n`);
    const { moved } = await sweepNested(record, places(repo.root, repo.records));
    expect(moved.map((entry) => entry.from)).toEqual([dotGit]);
  });

  it('follows no link: a gitlink through a linked folder, or at a link, is left where it leads', async () => {
    const repo = await repoWithSubmodule();
    const record = await recordNested(repo.root, join(repo.root, '.git'));
    const hash = execFileSync('git', ['-C', join(repo.outside, 'source'), 'rev-parse', 'HEAD'], { encoding: 'utf8' });
    // Another repository of yours, outside, that the agent points at.
    const yours = join(repo.outside, 'yours');
    await mkdir(yours);
    nestedRepo(join(yours, 'sub'));
    await symlink(yours, join(repo.root, 'through'));
    await symlink(join(yours, 'sub'), join(repo.root, 'at'));
    for (const path of ['through/sub', 'at'])
      repo.git('update-index', '--add', '--cacheinfo', `160000,${hash.trim()},${path}`);

    const sweep = await sweepNested(record, places(repo.root, repo.records));
    expect(sweep).toEqual({ moved: [], mended: [], unfinished: [] });
    expect(existsSync(join(yours, 'sub/.git/HEAD'))).toBe(true);
    expect(await populatedEntry(repo.root, 'through/sub')).toBeUndefined();
    expect(await populatedEntry(repo.root, 'at')).toBeUndefined();
  });

  it('moves a .git that is a link, as the link', async () => {
    const repo = await repoWithSubmodule();
    const record = await recordNested(repo.root, join(repo.root, '.git'));
    const elsewhere = join(repo.outside, 'elsewhere');
    nestedRepo(elsewhere);
    await mkdir(join(repo.root, 'linked'));
    await symlink(join(elsewhere, '.git'), join(repo.root, 'linked/.git'));
    repo.git('add', 'linked');
    const { moved } = await sweepNested(record, places(repo.root, repo.records));
    expect(moved.map((entry) => entry.from)).toEqual([join(repo.root, 'linked/.git')]);
    expect(lstatSync(moved[0]?.to ?? '').isSymbolicLink()).toBe(true);
    expect(existsSync(join(elsewhere, '.git/HEAD'))).toBe(true);
  });

  it('looks below the folders of a submodule named a/b, and moves a git dir the agent put beside it', async () => {
    const repo = await realRepository('ralph-nested-');
    const root = await realpath(repo.root);
    const source = await realpath(await mkdtemp(join(tmpdir(), 'ralph-nested-source-')));
    nestedRepo(source);
    repo.git('-c', 'protocol.file.allow=always', 'submodule', 'add', '-q', '--name', 'a/b', source, 'ab');
    const record = await recordNested(root, join(root, '.git'));
    expect(record.moduleGitDirs).toEqual(new Set([join(root, '.git/modules/a/b')]));
    nestedRepo(join(root, '.git/modules/a/c'));
    const { moved } = await sweepNested(record, places(root, join(root, '.git/ralph')));
    expect(moved.map((entry) => entry.from)).toEqual([join(root, '.git/modules/a/c')]);
    expect(existsSync(join(root, '.git/modules/a/b/HEAD'))).toBe(true);
  });

  it("moves a FIFO in your submodule's git dir too, so that a plain git status, which enters it, answers", async () => {
    const repo = await repoWithSubmodule();
    const record = await recordNested(repo.root, join(repo.root, '.git'));
    const fifo = join(repo.root, '.git/modules/lib/mine/index');
    await rm(fifo);
    execFileSync('mkfifo', [fifo]);
    const { moved } = await sweepNested(record, places(repo.root, repo.records));
    expect(moved.map(({ from, what }) => ({ from, what }))).toEqual([{ from: fifo, what: 'a FIFO' }]);
    // Bounded, so that a git left waiting fails the test instead of hanging it; never a measure of speed.
    execFileSync('git', ['status', '--porcelain'], { cwd: repo.root, stdio: 'ignore', timeout: 60_000 });
  });

  it('names a moved path by its place in the work tree, else by its whole path', () => {
    expect(asideName('/r', '/r/a/b/.git')).toBe('a/b/.git');
    expect(asideName('/r/ralph/worktrees/a', '/r/.git/modules/x')).toBe('r/.git/modules/x');
  });
});

describe('repositories in tracked folders', () => {
  it("moves the agent's src/.git aside, so that git in src runs nothing of it; yours and a linked folder's stay", async () => {
    const repo = await realRepository('ralph-nested-');
    const root = await realpath(repo.root);
    const outside = await realpath(await mkdtemp(join(tmpdir(), 'ralph-nested-outside-')));
    for (const dir of ['src', 'docs', 'kept']) {
      await mkdir(join(root, dir));
      await writeFile(join(root, dir, 'a.txt'), 'a\n');
    }
    repo.git('add', '.');
    repo.git('commit', '-qm', 'tracked folders');
    nestedRepo(join(root, 'kept'));
    const record = await recordNested(root, join(root, '.git'));
    expect(record.folderRepos).toEqual(new Set([join(root, 'kept/.git')]));

    // In the box: a repository in a tracked folder, and a tracked folder made a link to one elsewhere.
    const proof = join(outside, 'monitored');
    nestedRepo(join(root, 'src'), `touch ${proof}; false`);
    nestedRepo(join(outside, 'elsewhere'));
    await rm(join(root, 'docs'), { recursive: true });
    await symlink(join(outside, 'elsewhere'), join(root, 'docs'));

    const { moved } = await sweepNested(record, places(root, join(root, '.git/ralph')));
    expect(moved.map((aside) => aside.from)).toEqual([join(root, 'src/.git')]);
    expect(existsSync(join(moved[0]!.to, 'config'))).toBe(true);
    execFileSync('git', ['status', '--porcelain'], { cwd: join(root, 'src'), stdio: 'ignore' });
    expect(existsSync(proof)).toBe(false);
    expect(existsSync(join(root, 'src/a.txt'))).toBe(true);
    expect(existsSync(join(root, 'kept/.git/HEAD'))).toBe(true);
    expect(existsSync(join(outside, 'elsewhere/.git/HEAD'))).toBe(true);
  });
});
