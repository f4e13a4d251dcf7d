import { mkdtemp, rename, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { foreignGitDirs } from '../../../src/git/worktree-git-dirs.js';
import { realRepository } from './real-repository.js';

const made: string[] = [];
afterEach(async () => {
  await Promise.all(made.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

/** A repository with one worktree, added by git as ralph adds a list's. */
async function withWorktree() {
  const repo = await realRepository('ralph-wt-dirs-');
  made.push(repo.root);
  repo.git('commit', '-q', '--allow-empty', '-m', 'one');
  const dir = join(repo.root, 'ralph/worktrees/ralph-b');
  repo.git('worktree', 'add', '-q', '-b', 'ralph/b', dir);
  return { ...repo, dir, common: join(repo.root, '.git') };
}

describe("foreignGitDirs: a worktree is the repository's own by its git dirs, compared real", () => {
  it('takes a worktree git made', async () => {
    const { dir, common } = await withWorktree();
    expect(await foreignGitDirs(dir, common)).toBeUndefined();
  });

  it("refuses one whose git dir's commondir leads to another git dir", async () => {
    const { dir, common } = await withWorktree();
    const other = await realRepository('ralph-wt-other-');
    made.push(other.root);
    await writeFile(join(common, 'worktrees/ralph-b/commondir'), `${join(other.root, '.git')}\n`);
    expect(await foreignGitDirs(dir, common)).toMatch(
      /^its git dir's commondir leads to \S+ralph-wt-other-\S+\.git, not /,
    );
  });

  it('refuses one whose git dir is a link to a folder elsewhere', async () => {
    const { dir, common } = await withWorktree();
    const elsewhere = await mkdtemp(join(tmpdir(), 'ralph-wt-elsewhere-'));
    made.push(elsewhere);
    await rename(join(common, 'worktrees/ralph-b'), join(elsewhere, 'ralph-b'));
    await symlink(join(elsewhere, 'ralph-b'), join(common, 'worktrees/ralph-b'));
    expect(await foreignGitDirs(dir, common)).toMatch(/^its git dir is \S+ralph-wt-elsewhere-\S+, not one of /);
  });

  it('refuses a folder whose .git names no git dir', async () => {
    const { dir, common } = await withWorktree();
    await writeFile(join(dir, '.git'), 'not a pointer\n');
    expect(await foreignGitDirs(dir, common)).toBe('its .git names no git dir');
  });
});
