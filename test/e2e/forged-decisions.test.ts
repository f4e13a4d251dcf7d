import { describe, expect, it } from 'vitest';
import { everyStoryApproved, makeRepo, runRalph } from '../helpers/e2e.js';

// ralph decides whether a list is done from what it recorded itself (.git/ralph/lists.json and
// state.json, keyed by the list's file), never from names or claims the agent writes in the list.

const REVIEW_ON = { RALPH_SKIP_REVIEW: '0' };
const UNRECORDED = "claim an approval no review of ralph's made";

describe('approvals ralph has no record of', () => {
  it('the agent self-approves and renames the project: the next run still reviews, never COMPLETE at once', async () => {
    const repo = await makeRepo({ stories: [{ id: 'US-1' }, { id: 'US-2' }] });
    await repo.steps([
      {
        writeTasks: { ...everyStoryApproved(['US-1', 'US-2']), project: 'renamed' },
        shell: ['git add -A && git commit -qm "feat: everything"'],
        say: '<promise>COMPLETE</promise>',
      },
      { auto: true },
    ]);
    expect((await runRalph(repo, ['run', '--max-iterations', '1'], { env: REVIEW_ON })).code).toBe(1);

    const next = await runRalph(repo, ['run', '--max-iterations', '1'], { env: REVIEW_ON });
    expect(next.stdout).toMatch(/Iteration 2 .*· review · US-1/);
    expect(next.code).toBe(1);
    expect(repo.calls()).toBe(2);
    expect(repo.lastRun()).toMatchObject({ reason: 'max_iterations', stories: { complete: 1, total: 2 } });
  });

  it('the agent approves another list during a run: that list’s run reviews them, saying so in one line', async () => {
    const repo = await makeRepo({ stories: [{ id: 'US-1' }] });
    const other = (passes: boolean, reviewStatus?: string) =>
      JSON.stringify({ project: 'b', stories: [{ id: 'B-1', title: 'hard', priority: 1, passes, reviewStatus }] });
    await repo.write('ralph/lists/b.json', other(false));
    repo.git('add', '-A');
    repo.git('commit', '-q', '-m', 'lists');
    await repo.steps([
      {
        files: { 'ralph/lists/b.json': other(true, 'approved') },
        shell: ['git add -A && git commit -qm "US-1 progress"'],
      },
      { auto: true, completeWhenDone: true },
    ]);
    expect((await runRalph(repo, ['run', '--max-iterations', '1'], { env: REVIEW_ON })).code).toBe(1);

    const other_ = await runRalph(repo, ['run', '--tasks', 'ralph/lists/b.json', '--max-iterations', '1'], {
      env: REVIEW_ON,
    });
    expect(other_.stdout).toContain(`warning: B-1 in ralph/lists/b.json claims an approval no review of ralph's made`);
    expect(other_.stdout).toMatch(/Iteration 2 .*· review · B-1/);
    expect(repo.calls()).toBe(2);
    expect(other_.code).toBe(0);
  });

  it('a person’s --accept-approvals counts them without a review, and says so', async () => {
    const repo = await makeRepo({ stories: [{ id: 'US-1' }, { id: 'US-2' }] });
    await repo.steps([{ implement: true }]);
    expect((await runRalph(repo, ['run', '--max-iterations', '1'], { env: REVIEW_ON })).code).toBe(1);
    await repo.write('ralph/tasks.json', JSON.stringify(everyStoryApproved(['US-1', 'US-2'])));
    repo.git('commit', '-qam', 'approved by hand');

    const doubted = await runRalph(repo, ['run', '--dry-run'], { env: REVIEW_ON });
    expect(doubted.stdout).toContain('forecast');
    expect(doubted.stdout).not.toContain('no story left');
    const vouched = await runRalph(repo, ['run', '--accept-approvals'], { env: REVIEW_ON });
    expect(vouched.stdout).toContain('ralph: the approvals of US-1, US-2 in ralph/tasks.json are taken on your word');
    expect(vouched.stdout).not.toContain(UNRECORDED);
    expect(vouched.code).toBe(0);
    expect(repo.calls()).toBe(1);
  });

  it('the first run with no record takes the list as it finds it: an approved list is COMPLETE', async () => {
    const repo = await makeRepo({
      stories: [
        { id: 'US-1', passes: true, reviewStatus: 'approved' },
        { id: 'US-2', passes: true, reviewStatus: 'approved' },
      ],
    });
    const result = await runRalph(repo, ['run'], { env: REVIEW_ON });
    expect(result.stdout).toContain(
      'ralph: no record of earlier reviews: the approved stories found now are taken as approved (2 in ralph/tasks.json)',
    );
    expect(result.code).toBe(0);
    expect(repo.calls()).toBe(0);
  });
});

describe('a story removed between runs', () => {
  it('refuses the next start naming it, until the person confirms the removal with --accept-removed', async () => {
    const repo = await makeRepo({ stories: [{ id: 'US-1' }, { id: 'US-2' }] });
    const shorter = { project: 'e2e', stories: [{ id: 'US-1', title: 'Story US-1', priority: 1, passes: true }] };
    await repo.steps([
      { writeTasks: shorter, shell: ['git add -A && git commit -qm "US-1"'], say: '<promise>COMPLETE</promise>' },
    ]);
    expect((await runRalph(repo, ['run', '--max-iterations', '1'])).code).toBe(1);

    const refused = await runRalph(repo, ['run']);
    expect(refused.stderr).toContain(
      'a story was removed from ralph/tasks.json since ralph last saw it: US-2 — put them back, or, if you removed them, run again with --accept-removed',
    );
    expect(refused.code).toBe(64);
    expect(repo.calls()).toBe(1);

    const confirmed = await runRalph(repo, ['run', '--accept-removed']);
    expect(confirmed.stdout).toContain('ralph: the removal of US-2 from ralph/tasks.json is taken on your word');
    expect(confirmed.code).toBe(0);
    expect((await runRalph(repo, ['run'])).code).toBe(0);
  });

  it('after `ralph archive` the next list in that file starts afresh: no refusal over the archived stories', async () => {
    const repo = await makeRepo({ stories: [{ id: 'US-1' }] });
    await repo.steps([{ implement: true, completeWhenDone: true }]);
    expect((await runRalph(repo, ['run'])).code).toBe(0);
    expect((await runRalph(repo, ['archive'])).code).toBe(0);
    const next = { project: 'next', stories: [{ id: 'US-9', title: 'next', priority: 1, passes: true }] };
    await repo.write('ralph/tasks.json', JSON.stringify(next));
    repo.git('add', '-A');
    repo.git('commit', '-q', '-m', 'archived, and the next list');

    const result = await runRalph(repo, ['run']);
    expect(result.stderr).not.toContain('removed from');
    expect(result.code).toBe(0);
  });
});
