import { realpath, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { recordDir, sharedRecordDir } from '../../../src/git/record-dir.js';
import { realRepository } from './real-repository.js';

const made: string[] = [];
afterEach(async () => {
  await Promise.all(made.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

describe('recordDir', () => {
  it('is ralph/ under the main checkout’s .git', async () => {
    const repo = await realRepository('ralph-record-dir-');
    made.push(repo.root);
    expect(await recordDir(repo.root)).toBe(join(repo.root, '.git', 'ralph'));
  });

  it('is ralph/ under a linked worktree’s own git dir, not the main one’s', async () => {
    const repo = await realRepository('ralph-record-dir-');
    made.push(repo.root);
    repo.git('commit', '-q', '--allow-empty', '-m', 'first');
    const tree = join(repo.root, 'wt');
    repo.git('worktree', 'add', '-q', '-b', 'side', tree);
    const expected = join(await realpath(repo.root), '.git', 'worktrees', 'wt', 'ralph');
    expect(await realpath(join(await recordDir(tree), '..'))).toBe(join(expected, '..'));
  });
});

describe('sharedRecordDir', () => {
  it('is the main checkout’s record folder, from a linked worktree too', async () => {
    const repo = await realRepository('ralph-record-dir-');
    made.push(repo.root);
    repo.git('commit', '-q', '--allow-empty', '-m', 'first');
    const tree = join(repo.root, 'wt');
    repo.git('worktree', 'add', '-q', '-b', 'side', tree);
    expect(await realpath(await sharedRecordDir(repo.root).then((dir) => join(dir, '..')))).toBe(
      await realpath(join(repo.root, '.git')),
    );
    expect(await realpath(join(await sharedRecordDir(tree), '..'))).toBe(await realpath(join(repo.root, '.git')));
  });
});
