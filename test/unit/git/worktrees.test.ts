import { realpathSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  addWorktree,
  branchExists,
  hasCommit,
  hasUncommittedWork,
  isMergedInto,
  listWorktrees,
  onSomeBranch,
  removeWorktree,
  resolveCommit,
  showFile,
} from '../../../src/git/worktrees.js';
import { realRepository } from './real-repository.js';

async function committed() {
  const repo = await realRepository('ralph-worktrees-');
  const root = realpathSync(repo.root);
  await writeFile(join(root, 'a.txt'), 'a\n');
  repo.git('add', '-A');
  repo.git('commit', '-q', '-m', 'a');
  return { ...repo, root };
}

describe('the worktree operations', () => {
  it('knows a repository with no commit', async () => {
    const repo = await realRepository('ralph-worktrees-');
    expect(await hasCommit(repo.root)).toBe(false);
    expect(await hasCommit((await committed()).root)).toBe(true);
  });

  it('adds a worktree on a new branch, lists it, and removes it only when clean', async () => {
    const { root, git } = await committed();
    const dir = join(root, 'wt');
    expect(await branchExists(root, 'feature/x')).toBe(false);
    expect(await addWorktree(root, dir, 'feature/x', 'HEAD')).toEqual({ ok: true });
    expect(await branchExists(root, 'feature/x')).toBe(true);
    const listed = await listWorktrees(root);
    expect(listed.map((entry) => [entry.path, entry.branch, entry.prunable])).toEqual([
      [root, 'main', false],
      [dir, 'feature/x', false],
    ]);
    expect(listed[1]?.head).toBe(git('rev-parse', 'HEAD'));
    // The branch is checked out there: a second worktree on it is refused, with git's reason.
    const twice = await addWorktree(root, join(root, 'wt2'), 'feature/x', undefined);
    expect(twice.ok).toBe(false);
    expect(!twice.ok && twice.reason).toMatch(/already (checked out|used by worktree)/);
    await writeFile(join(dir, 'wip.txt'), 'wip\n');
    expect(await hasUncommittedWork(dir)).toBe(true);
    expect((await removeWorktree(root, dir)).ok).toBe(false);
    git('-C', dir, 'add', 'wip.txt');
    git('-C', dir, 'commit', '-q', '-m', 'wip');
    expect(await hasUncommittedWork(dir)).toBe(false);
    expect(await isMergedInto(root, 'feature/x', 'main')).toBe(false);
    expect(await onSomeBranch(root, git('rev-parse', 'feature/x'))).toBe(true);
    expect(await showFile(root, 'feature/x', 'wip.txt', 1024)).toEqual({ text: 'wip' });
    expect(await showFile(root, 'feature/x', 'wip.txt', 3)).toEqual({ tooLarge: 4 });
    expect(await showFile(root, 'feature/x', 'ralph', 1024)).toEqual({ missing: true });
    expect(await showFile(root, 'main', 'wip.txt', 1024)).toEqual({ missing: true });
    expect(await removeWorktree(root, dir)).toEqual({ ok: true });
    expect((await listWorktrees(root)).length).toBe(1);
  });

  it('resolves a start point, and never takes an option for one', async () => {
    const { root, git } = await committed();
    expect(await resolveCommit(root, 'main')).toBe(git('rev-parse', 'HEAD'));
    expect(await resolveCommit(root, 'nope')).toBeUndefined();
    expect(await resolveCommit(root, '--output=/tmp/x')).toBeUndefined();
  });
});
