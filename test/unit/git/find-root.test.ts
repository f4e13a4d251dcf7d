import { appendFileSync, mkdirSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { findRootFromFiles } from '../../../src/git/find-root.js';
import { findRepoRoot } from '../../../src/git/repository.js';
import { realRepository } from './real-repository.js';

const made: string[] = [];
afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

async function repository() {
  const repo = await realRepository('ralph-find-root-');
  made.push(repo.root);
  return { ...repo, root: realpathSync(repo.root) };
}

const NO_GIT_VARIABLES = { PATH: process.env.PATH };

describe('findRootFromFiles', () => {
  it('finds the root from the root and from a folder below it, as git does', async () => {
    const { root, git } = await repository();
    const deep = join(root, 'a', 'b');
    mkdirSync(deep, { recursive: true });
    for (const cwd of [root, deep]) {
      const found = await findRootFromFiles(cwd, NO_GIT_VARIABLES);
      expect(found).toBe(root);
      expect(found).toBe(git('-C', cwd, 'rev-parse', '--show-toplevel'));
    }
  });

  it('finds a linked work tree through its .git file', async () => {
    const { root, git } = await repository();
    git('commit', '-q', '--allow-empty', '-m', 'first');
    const linked = join(root, 'linked');
    git('worktree', 'add', '-q', linked);
    expect(await findRootFromFiles(join(linked), NO_GIT_VARIABLES)).toBe(linked);
  });

  it('leaves the answer to git when a variable moves the repository or limits the search', async () => {
    const { root } = await repository();
    for (const name of ['GIT_DIR', 'GIT_WORK_TREE', 'GIT_COMMON_DIR', 'GIT_CEILING_DIRECTORIES']) {
      expect(await findRootFromFiles(root, { ...NO_GIT_VARIABLES, [name]: '/elsewhere' })).toBeUndefined();
    }
  });

  it('leaves the answer to git inside the git dir, and for a .git that is a link', async () => {
    const { root } = await repository();
    expect(await findRootFromFiles(join(root, '.git', 'refs'), NO_GIT_VARIABLES)).toBeUndefined();
    const other = join(root, 'other');
    mkdirSync(other);
    symlinkSync(join(root, '.git'), join(other, '.git'));
    expect(await findRootFromFiles(other, NO_GIT_VARIABLES)).toBeUndefined();
  });

  it('leaves the answer to git when the configuration names a work tree, includes a file or says bare', async () => {
    for (const line of ['\tworktree = /elsewhere', '[include]\n\tpath = other.config', '\tbare = true']) {
      const { root } = await repository();
      appendFileSync(join(root, '.git', 'config'), `[core]\n${line}\n`);
      expect(await findRootFromFiles(root, NO_GIT_VARIABLES)).toBeUndefined();
    }
  });

  it('leaves the answer to git for a .git folder git would not take (no HEAD, a broken HEAD)', async () => {
    const { root } = await repository();
    writeFileSync(join(root, '.git', 'HEAD'), 'garbage\n');
    expect(await findRootFromFiles(root, NO_GIT_VARIABLES)).toBeUndefined();
    rmSync(join(root, '.git', 'HEAD'));
    expect(await findRootFromFiles(root, NO_GIT_VARIABLES)).toBeUndefined();
  });
});

describe('findRepoRoot', () => {
  it('asks git when the files leave doubt, and gets the same root', async () => {
    const { root } = await repository();
    appendFileSync(join(root, '.git', 'config'), '[include]\n\tpath = nothing-here.config\n');
    expect(await findRepoRoot(join(root))).toBe(root);
  });

  it('is a set-up error outside any repository', async () => {
    const outside = realpathSync(await import('node:os').then(({ tmpdir }) => tmpdir()));
    const lone = join(outside, `ralph-no-repo-${process.pid}`);
    mkdirSync(lone, { recursive: true });
    made.push(lone);
    await expect(findRepoRoot(lone)).rejects.toThrow(/is not inside a git repository/);
  });
});
