import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createGit } from '../../../src/git/repository.js';
import { realRepository } from './real-repository.js';

const cleanup: string[] = [];
afterAll(() => Promise.all(cleanup.map((path) => rm(path, { recursive: true, force: true }))));

/** A real repository with `count` commits on `main`, and a way to run git in it. */
async function repository(count: number) {
  const { root, git } = await realRepository('ralph-git-port-');
  cleanup.push(root);
  for (let i = 1; i <= count; i++) git('commit', '-q', '--allow-empty', '-m', `commit ${i}`);
  return { root, git, port: createGit(root) };
}

describe('createGit: the questions the loop asks about progress, answered by real git', () => {
  it('names the branch, or null on a detached HEAD', async () => {
    const { git, port } = await repository(1);
    expect(await port.branch()).toBe('main');
    git('checkout', '-q', '-b', 'feature/x');
    expect(await port.branch()).toBe('feature/x');
    git('checkout', '-q', '--detach');
    expect(await port.branch()).toBeNull();
  });

  it('tells an ancestor from a rewound or rewritten commit (merge-base --is-ancestor)', async () => {
    const { git, port } = await repository(3);
    const [newest, middle] = git('log', '--format=%H').split('\n');
    expect(await port.isAncestor(middle!, newest!)).toBe(true);
    expect(await port.isAncestor(newest!, middle!)).toBe(false);
    expect(await port.isAncestor(newest!, newest!)).toBe(true);
  });

  it('counts the commits that left the branch and finds the reflog entry to get them back', async () => {
    const { git, port } = await repository(4);
    const before = git('rev-parse', 'HEAD');
    git('reset', '-q', '--hard', 'HEAD~3');
    const after = git('rev-parse', 'HEAD');
    expect(await port.head()).toBe(after);
    expect(await port.countLeft(before, after)).toBe(3);
    expect(await port.countLeft(before, null)).toBe(4);
    expect(await port.reflogEntry(before)).toBe('HEAD@{1}');
    expect(git('rev-parse', 'HEAD@{1}')).toBe(before);
    expect(await port.reflogEntry('0'.repeat(40))).toBeUndefined();
  });

  it("fails with git's own message when it cannot answer, rather than guessing", async () => {
    const { port } = await repository(1);
    await expect(port.isAncestor('f'.repeat(40), 'HEAD')).rejects.toThrow(/git merge-base --is-ancestor .* failed: /);
  });
});

describe('createGit: HEAD asked of git itself (GIT_DIR moves the repository where only git knows)', () => {
  /** The port as ralph builds it under GIT_DIR: HEAD from `git rev-parse`, never from the files. */
  async function headThroughGit(root: string): Promise<string | null> {
    const saved = process.env.GIT_DIR;
    process.env.GIT_DIR = join(root, '.git');
    try {
      return await createGit(root).head();
    } finally {
      if (saved === undefined) delete process.env.GIT_DIR;
      else process.env.GIT_DIR = saved;
    }
  }

  it('is null before the first commit, and the commit after it', async () => {
    const { root, git } = await repository(0);
    expect(await headThroughGit(root)).toBeNull();
    git('commit', '-q', '--allow-empty', '-m', 'first');
    expect(await headThroughGit(root)).toBe(git('rev-parse', 'HEAD'));
  });

  it('a git that fails is a set-up error naming the command, never taken for "no commit yet"', async () => {
    const outside = await mkdtemp(join(tmpdir(), 'ralph-git-port-none-'));
    cleanup.push(outside);
    await expect(headThroughGit(outside)).rejects.toMatchObject({
      kind: 'setup',
      message: expect.stringMatching(
        /^git rev-parse --verify --quiet HEAD\^\{commit\} failed: fatal: not a git repository/,
      ),
    });
  });
});
