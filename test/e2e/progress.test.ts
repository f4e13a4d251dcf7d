import { describe, expect, it } from 'vitest';
import { everyStoryApproved, makeRepo, runRalph, type Repo } from '../helpers/e2e.js';

const REVIEW_ON = { RALPH_SKIP_REVIEW: '0' };

/** summary.csv as records, by header name. */
function rows(repo: Repo): Record<string, string>[] {
  const [header, ...lines] = repo.csvRows();
  return lines.map((line) => Object.fromEntries(header!.map((name, index) => [name, line[index] ?? ''])));
}

/** Commit subjects on the current branch, newest first. */
function subjects(repo: Repo): string[] {
  return repo.git('log', '--format=%s').split('\n');
}

describe('ralph run: progress moves forward on the branch', () => {
  it('a `git reset --hard HEAD~3` is a validation failure with the way back, never a commit', async () => {
    const repo = await makeRepo({ stories: [{ id: 'US-1' }, { id: 'US-2' }, { id: 'US-3' }, { id: 'US-4' }] });
    await repo.steps([
      { implement: true },
      { implement: true },
      { implement: true },
      { shell: ['git reset -q --hard HEAD~3'] },
    ]);
    const result = await runRalph(repo, ['run', '--max-validation-failures', '1']);
    expect(result.code).toBe(4);
    const lost = repo.git('rev-parse', 'HEAD@{1}');
    const last = rows(repo).at(-1)!;
    expect(last).toMatchObject({ iteration: '4', outcome: 'history_rewritten', commit_hash: '', stuck_count: '1' });
    expect(result.stdout).toContain(
      `3 commits left the branch. Get them back with \`git reset --hard ${lost}\` (HEAD@{1} in \`git reflog\`).`,
    );
    expect(repo.lastRun()).toMatchObject({ reason: 'validation_failures', exitCode: 4 });
    // The advice works: the three story commits come back.
    repo.git('reset', '-q', '--hard', lost);
    expect(subjects(repo).slice(0, 3)).toEqual([
      'feat: [US-3] - Story US-3',
      'feat: [US-2] - Story US-2',
      'feat: [US-1] - Story US-1',
    ]);
  });

  it('a checkout of another branch is a failure even though its new commit descends from the old HEAD; the next prompt says how to go back', async () => {
    const repo = await makeRepo({ stories: [{ id: 'US-1' }, { id: 'US-2' }] });
    const branch = repo.git('branch', '--show-current');
    await repo.steps([{ shell: ['git checkout -q -b elsewhere'], implement: true }, { say: 'listening\n' }]);
    const result = await runRalph(repo, ['run', '--max-iterations', '2', '--max-stuck', '5']);
    expect(result.code).toBe(1);
    expect(rows(repo).map((row) => [row.outcome, row.commit_hash])).toEqual([
      ['history_rewritten', ''],
      ['history_rewritten', ''],
    ]);
    expect(result.stdout).toContain(
      `HEAD left branch ${branch} for branch elsewhere. Go back with \`git checkout ${branch}\`.`,
    );
    expect(repo.call(2).prompt).toContain(`Go back with \`git checkout ${branch}\``);
  });

  it('a rebase that drops and rewrites commits is a failure naming how many left; a commit on top is no progress', async () => {
    const repo = await makeRepo({ stories: [{ id: 'US-1' }] });
    // The fake agent's own bookkeeping stays out of the commits, so the rebase has nothing to stash.
    await repo.write('.git/info/exclude', '.agent-script.json*\n');
    await repo.steps([
      { commit: true },
      { commit: true },
      { shell: ['git rebase -q --onto HEAD~2 HEAD~1'] },
      { commit: true },
    ]);
    const result = await runRalph(repo, ['run', '--max-iterations', '4', '--max-stuck', '9']);
    expect(result.code).toBe(1);
    expect(rows(repo).map((row) => row.outcome)).toEqual(['ok', 'ok', 'history_rewritten', 'history_rewritten']);
    expect(rows(repo).map((row) => row.commit_hash === '')).toEqual([false, false, true, true]);
    expect(result.stdout).toMatch(
      /history was rewritten on \S+ \(HEAD [0-9a-f]{8} → [0-9a-f]{8}\): 2 commits left the branch/,
    );
  });
});

describe('ralph run: the task list rules are the loop’s own', () => {
  it('an implement iteration that marks every story passing and approved and claims COMPLETE does not exit 0; a later run reviews them', async () => {
    const repo = await makeRepo({ stories: [{ id: 'US-1' }, { id: 'US-2' }] });
    const approvedAll = everyStoryApproved(['US-1', 'US-2']);
    await repo.steps([{ writeTasks: approvedAll, commit: true, say: 'All done.\n<promise>COMPLETE</promise>\n' }]);
    const result = await runRalph(repo, ['run', '--max-validation-failures', '1'], { env: REVIEW_ON });
    expect(result.code).toBe(4);
    expect(result.stdout).toContain('COMPLETE rejected: approved outside a review iteration: US-1, US-2');
    expect(result.stdout).toContain('2 stories were marked passes: true in one implement iteration (US-1, US-2)');
    expect(JSON.parse(repo.read('.git/ralph/state.json'))).toMatchObject({ unconfirmedApprovals: ['US-1', 'US-2'] });
    expect(repo.lastRun()).toMatchObject({ reason: 'validation_failures', stories: { complete: 0, total: 2 } });
    expect((await runRalph(repo, ['status'], { env: REVIEW_ON })).stdout).toContain('] 0/2 complete');

    // The next run does not take the approvals for granted: review iterations confirm them.
    await repo.steps([{ auto: true, completeWhenDone: true }]);
    const again = await runRalph(repo, ['run'], { env: REVIEW_ON });
    expect(again.code).toBe(0);
    expect(
      rows(repo)
        .slice(1)
        .map((row) => row.mode),
    ).toEqual(['review', 'review']);
    expect(repo.call(2).prompt).toContain('## This iteration: review US-1');
    expect(JSON.parse(repo.read('.git/ralph/state.json')).unconfirmedApprovals).toBeUndefined();
  });
});
