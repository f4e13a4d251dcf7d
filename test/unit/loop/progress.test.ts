import { describe, expect, it } from 'vitest';
import type { LoopSettings } from '../../../src/loop/loop-state.js';
import { runLoop } from '../../../src/loop/run-loop.js';
import { describeRewrite, observeMovement } from '../../../src/loop/progress.js';
import { fakeGit, fakePorts, taskList, type FakeCall, loopSettings } from './fakes.js';

const settings: LoopSettings = loopSettings({ maxStuck: 5 });
const tasks = taskList(['US-1', false], ['US-2', false], ['US-3', false], ['US-4', false]);

async function loop(calls: FakeCall[], overrides: Partial<LoopSettings> = {}) {
  const fake = fakePorts(tasks, calls);
  const result = await runLoop({ ...settings, ...overrides }, fake.ports, tasks);
  return { ...fake, result, warnings: fake.events.filter((event) => event.startsWith('warning ')) };
}

describe('observeMovement: progress is a new descendant on the same branch', () => {
  const at = async (steps: Parameters<ReturnType<typeof fakeGit>['apply']>[0][]) => {
    const repo = fakeGit('c0');
    for (const step of steps.slice(0, -1)) repo.apply(step);
    const accepted = { head: await repo.git.head(), branch: await repo.git.branch() };
    repo.apply(steps.at(-1)!);
    return (await observeMovement(repo.git, accepted)).movement;
  };

  it('a new commit is forward; no commit is still', async () => {
    expect(await at([{ commit: true }, { commit: true }])).toEqual({ kind: 'forward', head: 'c2' });
    expect(await at([{ commit: true }, {}])).toEqual({ kind: 'still' });
  });

  it('a reset to an ancestor is a rewind, naming the commits that left and the reflog entry', async () => {
    expect(await at([{ commit: true }, { commit: true }, { commit: true }, { resetHard: 2 }])).toEqual({
      kind: 'rewritten',
      rewrite: {
        how: 'rewind',
        from: { head: 'c3', branch: 'main' },
        to: { head: 'c1', branch: 'main' },
        left: 2,
        reflog: 'HEAD@{1}',
      },
    });
  });

  it('a reset followed by a commit, or a rebase, is a rewrite although HEAD moved', async () => {
    expect(await at([{ commit: true }, { commit: true }, { resetHard: 1, commit: true }])).toMatchObject({
      kind: 'rewritten',
      rewrite: { how: 'rewrite', left: 1 },
    });
    expect(await at([{ commit: true }, { commit: true }, { rewrite: 2 }])).toMatchObject({
      kind: 'rewritten',
      rewrite: { how: 'rewrite', left: 2 },
    });
  });

  it('another branch is a switch even when its new commit descends from the old HEAD', async () => {
    expect(await at([{ commit: true }, { checkout: 'feature', commit: true }])).toMatchObject({
      kind: 'rewritten',
      rewrite: { how: 'branch_switch', from: { branch: 'main' }, to: { branch: 'feature' }, left: 0 },
    });
    expect(await at([{ commit: true }, { checkout: null }])).toMatchObject({
      kind: 'rewritten',
      rewrite: { how: 'branch_switch', to: { branch: null } },
    });
  });

  it('the first commit of an unborn repository is forward', async () => {
    const repo = fakeGit(null);
    repo.apply({ commit: true });
    expect((await observeMovement(repo.git, { head: null, branch: 'main' })).movement).toEqual({
      kind: 'forward',
      head: 'c1',
    });
  });
});

describe('runLoop: rewriting history is a validation failure, never progress', () => {
  const three: FakeCall[] = [{ commit: true }, { commit: true }, { commit: true }];

  it('a rewind: outcome history_rewritten, no commit recorded, a strike and no reset of the stuck count, a warning with the way back', async () => {
    const { rows, warnings, prompts } = await loop([...three, { resetHard: 3 }, { commit: true }], {
      maxIterations: 5,
    });
    expect(rows.map((row) => [row.outcome, row.commitHash, row.stuckCount])).toEqual([
      ['ok', 'c1', 0],
      ['ok', 'c2', 0],
      ['ok', 'c3', 0],
      ['history_rewritten', '', 1],
      // Still off the accepted history: a new commit on the rewound branch is no progress either.
      ['history_rewritten', '', 2],
    ]);
    expect(warnings[0]).toBe(
      'warning history was rewound on main (HEAD c3 → c0): 3 commits left the branch. Get them back with `git reset --hard c3` (HEAD@{1} in `git reflog`).',
    );
    expect(prompts[4]).toContain('## Loop feedback');
    expect(prompts[4]).toContain('3 commits left the branch. Get them back with `git reset --hard c3`');
    expect(prompts[4]).toContain('Never reset, rebase, amend or switch branches');
  });

  it('ends with validation_failures when the history stays rewritten, and the strike counts even when ralph stopped the agent', async () => {
    const { result } = await loop([
      { commit: true },
      { resetHard: 1 },
      { stoppedBy: { cause: 'timeout' }, exitCode: null },
      {},
    ]);
    expect(result.termination).toMatchObject({ reason: 'validation_failures', count: 3 });
    expect(result.termination).toMatchObject({ last: expect.stringContaining('history was rewound on main') });
  });

  it('putting the branch back ends the failures: the restored commit and new ones on top are progress again', async () => {
    const { rows, result } = await loop(
      [{ commit: true }, { commit: true }, { resetHard: 2 }, { resetTo: 'c2' }, { commit: true }],
      { maxIterations: 5, maxValidationFailures: 2 },
    );
    expect(rows.map((row) => [row.outcome, row.commitHash])).toEqual([
      ['ok', 'c1'],
      ['ok', 'c2'],
      ['history_rewritten', ''],
      ['ok', ''],
      ['ok', 'c3'],
    ]);
    expect(result.termination.reason).toBe('max_iterations');
  });

  it('a branch switch is a failure even when the new commit descends from the old HEAD; switching back is no failure', async () => {
    const { rows, warnings, prompts } = await loop(
      [{ commit: true }, { checkout: 'feature', commit: true }, { checkout: 'main', commit: true }],
      { maxIterations: 3 },
    );
    expect(rows.map((row) => [row.outcome, row.commitHash])).toEqual([
      ['ok', 'c1'],
      ['history_rewritten', ''],
      ['ok', 'c3'],
    ]);
    expect(warnings).toEqual(['warning HEAD left branch main for branch feature. Go back with `git checkout main`.']);
    expect(prompts[2]).toContain('HEAD left branch main for branch feature. Go back with `git checkout main`.');
  });

  it('a rebase that rewrites earlier commits is a failure naming how many left', async () => {
    const { rows, warnings } = await loop([{ commit: true }, { commit: true }, { rewrite: 2, commit: true }], {
      maxIterations: 3,
    });
    expect(rows.map((row) => row.outcome)).toEqual(['ok', 'ok', 'history_rewritten']);
    expect(warnings[0]).toMatch(
      /^warning history was rewritten on main \(HEAD c2 → c5\): 2 commits left the branch\. Get them back with `git reset --hard c2`/,
    );
  });

  it('does not accept COMPLETE from an iteration that rewound the branch', async () => {
    const oneLeft = taskList(['US-1', false]);
    const fake = fakePorts(oneLeft, [{ commit: true }, { resetHard: 1, pass: ['US-1'], signals: { complete: true } }]);
    const result = await runLoop({ ...settings, maxIterations: 2 }, fake.ports, oneLeft);
    expect(result.termination.reason).toBe('max_iterations');
    expect(fake.rows[1]?.outcome).toBe('history_rewritten');
  });
});

describe('describeRewrite: what left the branch and the command that brings it back', () => {
  const A = 'a'.repeat(40);
  const B = 'b'.repeat(40);
  const on = (branch: string | null, head: string | null = A) => ({ head, branch });

  it.each([
    [
      'one commit rewound on a branch, with its reflog entry',
      { how: 'rewind' as const, from: on('main'), to: on('main', B), left: 1, reflog: 'HEAD@{1}' },
      'history was rewound on main (HEAD aaaaaaaa → bbbbbbbb): 1 commit left the branch. ' +
        `Get it back with \`git reset --hard ${A}\` (HEAD@{1} in \`git reflog\`).`,
    ],
    [
      'commits rewritten on a detached HEAD, with no reflog entry left',
      { how: 'rewrite' as const, from: on(null), to: on(null, B), left: 3 },
      'history was rewritten (HEAD aaaaaaaa → bbbbbbbb): 3 commits left the branch. ' +
        `Get them back with \`git reset --hard ${A}\`.`,
    ],
    [
      'a switch from a branch to a detached HEAD that lacks its commits',
      { how: 'branch_switch' as const, from: on('main'), to: on(null, B), left: 2 },
      'HEAD left branch main for a detached HEAD at bbbbbbbb; 2 commits of main are not on it. ' +
        'Go back with `git checkout main`.',
    ],
    [
      'a switch from a detached commit to a branch that lacks it',
      { how: 'branch_switch' as const, from: on(null), to: on('feature', B), left: 1 },
      'HEAD left the detached commit aaaaaaaa for branch feature; 1 commit of it is not on it. ' +
        `Go back with \`git checkout ${A}\`.`,
    ],
    [
      'a switch that loses nothing',
      { how: 'branch_switch' as const, from: on('main'), to: on('feature', A), left: 0 },
      'HEAD left branch main for branch feature. Go back with `git checkout main`.',
    ],
    [
      'a branch emptied of every commit (git update-ref -d HEAD)',
      { how: 'rewind' as const, from: on('main'), to: on('main', null), left: 2 },
      'history was rewound on main (HEAD aaaaaaaa → (no commit)): 2 commits left the branch. ' +
        `Get them back with \`git reset --hard ${A}\`.`,
    ],
  ])('%s', (_, rewrite, text) => {
    expect(describeRewrite(rewrite)).toBe(text);
  });
});
