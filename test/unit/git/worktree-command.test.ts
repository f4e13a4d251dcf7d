import { mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { RalphError } from '../../../src/errors.js';
import { runGit } from '../../../src/git/safe-git.js';
import { despiteHalfWrittenRecords } from '../../../src/git/worktree-command.js';
import { addWorktree, branchExists, listWorktrees } from '../../../src/git/worktrees.js';
import { realRepository } from './real-repository.js';

// git 2.39 dies listing or adding worktrees while another git is writing one's record: the loops
// of `ralph run --parallel` add theirs at once. Seen in bench scenario 8 (a loop's exit 64):
// `failed to read .git/worktrees/ralph-beta/commondir: Success`.

/** A repository with a commit, and another worktree's record half written: its commondir empty. */
async function halfWritten() {
  const repo = await realRepository('ralph-worktree-command-');
  const root = realpathSync(repo.root);
  repo.git('commit', '-q', '--allow-empty', '-m', 'a');
  const record = join(root, '.git/worktrees/other');
  mkdirSync(record, { recursive: true });
  writeFileSync(join(record, 'gitdir'), `${join(root, 'other/.git')}\n`);
  writeFileSync(join(record, 'commondir'), '');
  return { ...repo, root, complete: () => writeFileSync(join(record, 'commondir'), '../..\n') };
}

const language = process.env.LANGUAGE;
afterEach(() => {
  if (language === undefined) delete process.env.LANGUAGE;
  else process.env.LANGUAGE = language;
});

describe('a worktree record another git is still writing', () => {
  it('is waited for: the command is asked again once the record is written', async () => {
    const { root, complete } = await halfWritten();
    const waits: number[] = [];
    const listed = await despiteHalfWrittenRecords(
      () => runGit(root, ['worktree', 'list', '--porcelain']),
      async (ms) => {
        waits.push(ms);
        complete();
      },
    );
    expect(waits).toHaveLength(1);
    expect(listed.exitCode).toBe(0);
    expect(listed.stdout).toContain(join(root, 'other'));
  });

  it('is waited for by a worktree added on a new branch, in any language', async () => {
    const { root, complete } = await halfWritten();
    // git's own German, where its words are translated (Debian's git is): the retry must not need English.
    process.env.LANGUAGE = 'de';
    setTimeout(complete, 30);
    expect(await addWorktree(root, join(root, 'wt'), 'feature/z', 'HEAD')).toEqual({ ok: true });
    expect((await listWorktrees(root)).map((entry) => entry.branch)).toContain('feature/z');
  });

  it('that stays unreadable fails with the record named, and leaves no new branch behind', async () => {
    const { root } = await halfWritten();
    const refused = await listWorktrees(root).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(RalphError);
    expect((refused as RalphError).message).toMatch(
      /^git worktree failed: git cannot read the worktree record .*\.git\/worktrees\/other$/,
    );
    expect((refused as RalphError).hint).toMatch(/remove the folder .*\.git\/worktrees\/other/);
    const added = await addWorktree(root, join(root, 'wt'), 'feature/y', 'HEAD');
    expect(added.ok).toBe(false);
    expect(!added.ok && added.reason).toMatch(/failed to read .*other\/commondir/);
    expect(await branchExists(root, 'feature/y')).toBe(false);
  });

  it('is not confused with any other failure, which is not asked again', async () => {
    const { root } = await realRepository('ralph-worktree-command-');
    let asked = 0;
    const result = await despiteHalfWrittenRecords(
      () => (asked++, runGit(root, ['worktree', 'remove', join(root, 'nowhere')])),
      () => Promise.resolve(),
    );
    expect(result.exitCode).not.toBe(0);
    expect(asked).toBe(1);
  });
});
