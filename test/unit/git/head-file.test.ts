import { execFileSync } from 'node:child_process';
import { mkdtemp, rm, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { findGitDirs, readHeadFromFiles } from '../../../src/git/head-file.js';
import { createGit } from '../../../src/git/repository.js';
import { MAX_READ_BYTES } from '../../../src/files/read-cap.js';

const IDENTITY = {
  GIT_AUTHOR_NAME: 'T',
  GIT_AUTHOR_EMAIL: 't@t.invalid',
  GIT_COMMITTER_NAME: 'T',
  GIT_COMMITTER_EMAIL: 't@t.invalid',
};
const cleanup: string[] = [];

async function repo() {
  const root = await mkdtemp(join(tmpdir(), 'ralph-head-'));
  cleanup.push(root);
  const git = (...args: string[]) =>
    execFileSync('git', args, { cwd: root, env: { ...process.env, ...IDENTITY }, encoding: 'utf8' }).trim();
  git('init', '-q', '-b', 'main');
  const commit = (message: string) => (git('commit', '-q', '--allow-empty', '-m', message), git('rev-parse', 'HEAD'));
  return { root, git, commit };
}

async function headOf(root: string) {
  const dirs = await findGitDirs(root);
  return dirs && readHeadFromFiles(dirs);
}

afterEach(async () => {
  await Promise.all(cleanup.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

describe('readHeadFromFiles', () => {
  it('reads the commit of the checked-out branch from its loose ref', async () => {
    const { root, commit } = await repo();
    commit('one');
    const two = commit('two');
    expect(await headOf(root)).toBe(two);
  });

  it('finds the branch in packed-refs once git has packed it', async () => {
    const { root, git, commit } = await repo();
    const one = commit('one');
    git('pack-refs', '--all', '--prune');
    expect(await headOf(root)).toBe(one);
  });

  it('prefers a newer loose ref over an older packed one, as git does', async () => {
    const { root, git, commit } = await repo();
    commit('one');
    git('pack-refs', '--all');
    const two = commit('two');
    expect(await headOf(root)).toBe(two);
    expect(git('rev-parse', 'HEAD')).toBe(two);
  });

  it('reads a detached HEAD', async () => {
    const { root, git, commit } = await repo();
    const one = commit('one');
    commit('two');
    git('checkout', '-q', '--detach', one);
    expect(await headOf(root)).toBe(one);
  });

  it('follows HEAD of a linked work tree, whose refs live in the main repository', async () => {
    const { root, git, commit } = await repo();
    commit('one');
    const linked = join(root, '..', `${root.split('/').pop()}-linked`);
    cleanup.push(linked);
    git('worktree', 'add', '-q', '-b', 'side', linked);
    const side =
      execFileSync('git', ['commit', '-q', '--allow-empty', '-m', 'side'], {
        cwd: linked,
        env: { ...process.env, ...IDENTITY },
      }) && execFileSync('git', ['rev-parse', 'HEAD'], { cwd: linked, encoding: 'utf8' }).trim();
    expect(await headOf(linked)).toBe(side);
    expect(await headOf(root)).not.toBe(side);
  });

  it('leaves a branch with no commit yet to git (undefined)', async () => {
    const { root } = await repo();
    expect(await headOf(root)).toBeUndefined();
  });

  it('leaves a HEAD it does not understand to git (undefined)', async () => {
    const { root, commit } = await repo();
    commit('one');
    await writeFile(join(root, '.git/HEAD'), 'something else\n');
    expect(await headOf(root)).toBeUndefined();
  });

  it('finds no git dirs outside a repository', async () => {
    const root = await mkdtemp(join(tmpdir(), 'ralph-head-none-'));
    cleanup.push(root);
    expect(await findGitDirs(root)).toBeUndefined();
  });

  it('never reads a packed-refs over the cap, nor a HEAD of more than a line: the caller asks git', async () => {
    const { root, git, commit } = await repo();
    commit('one');
    git('pack-refs', '--all', '--prune');
    // Sparse, as the agent can make it in .git/ for free: its size alone refuses it.
    await truncate(join(root, '.git/packed-refs'), MAX_READ_BYTES + 1);
    await expect(headOf(root)).rejects.toMatchObject({
      kind: 'io',
      message: expect.stringContaining('packed-refs holds 67108865 bytes'),
    });
    await writeFile(join(root, '.git/HEAD'), `ref: refs/heads/main${' '.repeat(64 * 1024)}\n`);
    await expect(headOf(root)).rejects.toMatchObject({
      message: expect.stringContaining('HEAD holds 65557 bytes, more than the 64 KiB'),
    });
  });
});

describe('createGit().head', () => {
  it('agrees with git rev-parse after every commit', async () => {
    const { root, git, commit } = await repo();
    const head = createGit(root).head;
    for (const message of ['one', 'two', 'three']) {
      commit(message);
      expect(await head()).toBe(git('rev-parse', 'HEAD'));
    }
  });

  it('is null before the first commit (answered by git)', async () => {
    const { root } = await repo();
    expect(await createGit(root).head()).toBeNull();
  });

  it('asks git when GIT_DIR points elsewhere', async () => {
    const { root, commit } = await repo();
    const one = commit('one');
    const other = await repo();
    other.commit('other');
    // The .git under other.root would mislead a file reader; git follows GIT_DIR.
    process.env.GIT_DIR = join(root, '.git');
    try {
      expect(await createGit(other.root).head()).toBe(one);
    } finally {
      delete process.env.GIT_DIR;
    }
  });
});
