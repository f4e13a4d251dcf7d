import { chmod, mkdir, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { checkMerge, commitOf, commitsOf, conflictingFiles } from '../../../src/git/merge-check.js';
import { realRepository } from './real-repository.js';

/** A repository on `main` with two files, and a way to commit a change to one on a branch. */
async function repository() {
  const repo = await realRepository('ralph-merge-check-');
  const { root, git } = repo;
  const commit = async (branch: string, files: Record<string, string>) => {
    git('switch', '-q', branch);
    for (const [name, text] of Object.entries(files)) {
      await mkdir(dirname(join(root, name)), { recursive: true });
      await writeFile(join(root, name), text);
    }
    git('add', '-A');
    git('commit', '-q', '-m', `change on ${branch}`);
    git('switch', '-q', 'main');
  };
  await writeFile(join(root, 'a.txt'), 'one\ntwo\nthree\n');
  await writeFile(join(root, 'b.txt'), 'alpha\n');
  git('add', '-A');
  git('commit', '-q', '-m', 'initial');
  git('branch', 'left');
  git('branch', 'right');
  return { ...repo, commit };
}

/** What git says of the repository's refs, index and work tree: a check must leave all three as they were. */
function snapshot(git: (...args: string[]) => string) {
  return [git('for-each-ref'), git('status', '--porcelain=v2', '--branch'), git('rev-parse', 'HEAD')].join('\n');
}

describe('commitsOf', () => {
  it('resolves several names with one git, as commitOf does each, and no commit as undefined', async () => {
    const { root, git, commit } = await repository();
    await commit('left', { 'a.txt': 'changed\n' });
    // A tag of a tree is no commit; a name like an option stays a name; a line break names nothing.
    git('tag', 'a-tree', git('rev-parse', 'main^{tree}'));
    const names = ['left', 'main', 'HEAD', 'left~1', 'gone', 'a-tree', '--output=/tmp/x', 'left\nmain'];
    const resolved = await commitsOf(root, [...names, 'left'], {});
    const one = await Promise.all(names.map((name) => commitOf(root, name, {})));
    expect([...resolved.entries()]).toEqual(names.map((name, index) => [name, one[index]]));
    expect(resolved.get('left')).toBe(git('rev-parse', 'left'));
    expect(resolved.get('left~1')).toBe(git('rev-parse', 'main'));
    expect(['gone', 'a-tree', '--output=/tmp/x'].map((name) => resolved.get(name))).toEqual([
      undefined,
      undefined,
      undefined,
    ]);
  });
});

describe('checkMerge', () => {
  it('says clean when the branches changed different files', async () => {
    const { root, git, commit } = await repository();
    await commit('left', { 'a.txt': 'one\ntwo\nthree\nfour\n' });
    await commit('right', { 'b.txt': 'alpha\nbeta\n' });
    const before = snapshot(git);
    expect(await checkMerge(root, 'left', 'right')).toEqual({ state: 'clean' });
    expect(snapshot(git)).toBe(before);
  });

  it('names each conflicting file once, and leaves refs, index and work tree as they were', async () => {
    const { root, git, commit } = await repository();
    await commit('left', { 'a.txt': 'one\nTWO\nthree\n', 'b.txt': 'left\n', 'new file.txt': 'l\n' });
    await commit('right', { 'a.txt': 'one\n2\nthree\n', 'b.txt': 'right\n', 'new file.txt': 'r\n' });
    const before = snapshot(git);
    expect(await checkMerge(root, 'left', 'right')).toEqual({
      state: 'conflicts',
      files: ['a.txt', 'b.txt', 'new file.txt'],
    });
    expect(snapshot(git)).toBe(before);
    expect(await readFile(join(root, 'a.txt'), 'utf8')).toBe('one\ntwo\nthree\n');
  });

  it("counts no conflict in the loops' own records, which differ on every loop's branch", async () => {
    const { root, git, commit } = await repository();
    await commit('left', { 'ralph/tasks.json': '{"left":1}', 'ralph/progress.txt': 'left\n', 'a.txt': 'left\n' });
    await commit('right', { 'ralph/tasks.json': '{"right":1}', 'ralph/progress.txt': 'right\n' });
    expect(await checkMerge(root, 'left', 'right')).toEqual({ state: 'clean' });
    git('switch', '-q', 'right');
    await writeFile(join(root, 'a.txt'), 'right\n');
    git('commit', '-q', '-am', 'a.txt on right');
    git('switch', '-q', 'main');
    expect(await checkMerge(root, 'left', 'right')).toEqual({ state: 'conflicts', files: ['a.txt'] });
  });

  it('takes commit hashes and any name git resolves, and a branch merged already is clean', async () => {
    const { root, git, commit } = await repository();
    await commit('left', { 'a.txt': 'changed\n' });
    expect(await checkMerge(root, git('rev-parse', 'left'), 'main')).toEqual({ state: 'clean' });
    expect(await checkMerge(root, 'HEAD', 'left~0')).toEqual({ state: 'clean' });
  });

  it('skips, saying why, a name that is no commit and branches with no common history', async () => {
    const { root, git } = await repository();
    expect(await checkMerge(root, 'main', 'gone')).toEqual({ state: 'skipped', why: 'gone is no commit' });
    // A branch named like an option stays a name.
    expect(await checkMerge(root, '--output=/tmp/x', 'main')).toEqual({
      state: 'skipped',
      why: '--output=/tmp/x is no commit',
    });
    git('switch', '-q', '--orphan', 'island');
    git('commit', '-q', '--allow-empty', '-m', 'island');
    git('switch', '-q', 'main');
    expect(await checkMerge(root, 'main', 'island')).toEqual({
      state: 'skipped',
      why: 'main and island share no history',
    });
  });

  it("does not run the repository's merge driver: the file it names conflicts instead", async () => {
    const { root, git, commit } = await repository();
    const proof = join(root, '.proof-merge-driver');
    git('config', 'merge.planted.driver', `touch ${proof}; cp %B %A; exit 0`);
    await writeFile(join(root, '.gitattributes'), 'a.txt merge=planted\n');
    git('add', '-A');
    git('commit', '-q', '-m', 'attributes');
    git('branch', '-f', 'left');
    git('branch', '-f', 'right');
    await commit('left', { 'a.txt': 'one\nTWO\nthree\n' });
    await commit('right', { 'a.txt': 'one\n2\nthree\n' });
    expect(await checkMerge(root, 'left', 'right')).toEqual({ state: 'conflicts', files: ['a.txt'] });
    expect(existsSync(proof)).toBe(false);
  });
});

describe('checkMerge with a git older than 2.38', () => {
  const path = process.env.PATH;
  afterEach(() => {
    process.env.PATH = path;
  });

  it('skips, naming the version, when git does not know --write-tree', async () => {
    const { root } = await repository();
    // A git that answers merge-tree --write-tree as git 2.37 does (usage, exit 129) and passes everything else on.
    const bin = await mkdtemp(join(tmpdir(), 'ralph-old-git-'));
    const real = (path ?? '').split(delimiter).find((dir) => existsSync(join(dir, 'git'))) as string;
    await writeFile(
      join(bin, 'git'),
      `#!/bin/sh\ncase "$1" in\n  version) echo "git version 2.37.1"; exit 0;;\n` +
        `  merge-tree) echo "usage: git merge-tree <base-tree> <branch1> <branch2>" >&2; exit 129;;\nesac\n` +
        `exec "${join(real, 'git')}" "$@"\n`,
    );
    await chmod(join(bin, 'git'), 0o755);
    process.env.PATH = `${bin}${delimiter}${path ?? ''}`;
    expect(await checkMerge(root, 'left', 'right')).toEqual({
      state: 'skipped',
      why: 'git 2.37.1 has no merge-tree --write-tree (git 2.38 or later has)',
    });
  });
});

describe('conflictingFiles', () => {
  it('reads the names after the tree, once each, keeping odd names whole', () => {
    expect(conflictingFiles('abc123\0a.txt\0a.txt\0we ird\nname\0')).toEqual(['a.txt', 'we ird\nname']);
    expect(conflictingFiles('abc123\0')).toEqual([]);
  });
});
