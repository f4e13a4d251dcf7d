import { existsSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { recordMadeWorktree } from '../../../src/files/made-worktrees.js';
import { pruneWorktrees } from '../../../src/lists/prune-worktrees.js';
import { realRepository } from '../git/real-repository.js';

/** A repository with a worktree of branch ralph/<name> under ralph/worktrees/, and git in it. */
async function withWorktree(name: string) {
  const { root, git } = await realRepository('ralph-prune-');
  await writeFile(join(root, '.gitignore'), 'ralph/worktrees/\nralph/logs/\n');
  git('add', '-A');
  git('commit', '-q', '-m', 'initial');
  const worktree = join(root, 'ralph/worktrees', `ralph-${name}`);
  git('worktree', 'add', '-q', '-b', `ralph/${name}`, worktree);
  // As ralph records a worktree it made: one it has no record of is left alone.
  await recordMadeWorktree(join(root, '.git/ralph'), { dir: `ralph/worktrees/ralph-${name}`, name: `ralph-${name}` });
  /** Commits what the agent left in the worktree: it is then no uncommitted work keeping it. */
  const commit = () => {
    git('-C', worktree, 'add', '-A');
    git('-C', worktree, 'commit', '-q', '-m', 'the agent');
  };
  return { root, worktree, commit };
}

/** A folder outside the repository holding a file of the user's. */
async function outsideFolder(): Promise<{ dir: string; secret: string }> {
  const dir = await mkdtemp(join(tmpdir(), 'ralph-outside-'));
  await mkdir(join(dir, 'logs'));
  const secret = join(dir, 'logs/secret.txt');
  await writeFile(secret, 'not the repository’s\n');
  return { dir, secret };
}

describe('ralph worktrees prune and a linked ralph/ or ralph/logs', () => {
  it('leaves a worktree whose ralph/ is a link to a folder outside, and moves nothing from there', async () => {
    const { root, worktree, commit } = await withWorktree('api');
    const outside = await outsideFolder();
    await symlink(outside.dir, join(worktree, 'ralph'));
    commit();
    const verdicts = await pruneWorktrees(root, 'ralph/api');
    expect(verdicts).toEqual([
      {
        dir: 'ralph/worktrees/ralph-api',
        action: 'kept',
        why: 'its ralph is a symbolic link: its logs are not moved, nor is it removed',
      },
    ]);
    expect(readFileSync(outside.secret, 'utf8')).toBe('not the repository’s\n');
    expect(existsSync(join(root, 'ralph/logs/worktrees'))).toBe(false);
    expect(existsSync(join(worktree, '.git'))).toBe(true);
  });

  it('leaves a worktree whose ralph/logs is a link to a folder outside', async () => {
    const { root, worktree, commit } = await withWorktree('web');
    const outside = await outsideFolder();
    await mkdir(join(worktree, 'ralph'));
    await writeFile(join(worktree, 'ralph/prompt.md'), 'x\n');
    await symlink(join(outside.dir, 'logs'), join(worktree, 'ralph/logs'));
    commit();
    const verdicts = await pruneWorktrees(root, 'ralph/web');
    expect(verdicts.map((verdict) => [verdict.action, verdict.why])).toEqual([
      ['kept', 'its ralph/logs is a symbolic link: its logs are not moved, nor is it removed'],
    ]);
    expect(readFileSync(outside.secret, 'utf8')).toBe('not the repository’s\n');
    expect(existsSync(join(root, 'ralph/logs/worktrees'))).toBe(false);
    expect(existsSync(join(worktree, 'ralph/logs'))).toBe(true);
  });

  it('still removes a worktree whose ralph/logs is its own, moving them to the main checkout', async () => {
    const { root, worktree, commit } = await withWorktree('ok');
    await mkdir(join(worktree, 'ralph/logs'), { recursive: true });
    await writeFile(join(worktree, 'ralph/prompt.md'), 'x\n');
    commit();
    await writeFile(join(worktree, 'ralph/logs/last-run.json'), '{}\n');
    const verdicts = await pruneWorktrees(root, 'ralph/ok');
    expect(verdicts.map((verdict) => verdict.action)).toEqual(['removed']);
    expect(readFileSync(join(root, 'ralph/logs/worktrees/ralph-ok/last-run.json'), 'utf8')).toBe('{}\n');
    expect(existsSync(worktree)).toBe(false);
  });
});
