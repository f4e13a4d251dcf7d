import { describe, expect, it } from 'vitest';
import { decideStop, describeUncommitted, type StopChecks } from '../../../src/hook/decide-stop.js';
import type { Uncommitted } from '../../../src/hook/uncommitted.js';

const tasks = (...stories: [string, boolean][]) =>
  JSON.stringify({ project: 'p', stories: stories.map(([id, passes]) => ({ id, title: id, passes })) }, null, 2);
const SNAPSHOT = tasks(['US-1', false], ['US-2', false]);
const CLEAN: Uncommitted = { paths: [], total: 0 };

/** The checks with a git that answers `uncommitted` and counts how often it was asked. */
function checks(overrides: Partial<StopChecks> & { git?: Uncommitted } = {}) {
  const asked = { git: 0 };
  const input: StopChecks = {
    snapshotText: SNAPSHOT,
    tasksText: SNAPSHOT,
    mode: 'implement',
    uncommitted: async () => {
      asked.git += 1;
      return overrides.git ?? CLEAN;
    },
    ...overrides,
  };
  return { input, asked };
}

describe('decideStop', () => {
  it("uses the loop's rules: an approval in an implement iteration is blocked, unless the loop runs with --skip-review", async () => {
    const approved = JSON.stringify({
      project: 'p',
      stories: [
        { id: 'US-1', title: 'US-1', passes: true, reviewStatus: 'approved' },
        { id: 'US-2', title: 'US-2', passes: false },
      ],
    });
    const blocked = await decideStop(checks({ tasksText: approved }).input);
    expect(blocked).toMatchObject({
      allow: false,
      reason: expect.stringContaining('got reviewStatus "approved" in an implement iteration'),
    });
    expect(await decideStop(checks({ tasksText: approved, review: false }).input)).toEqual({ allow: true });
  });

  it('allows a stop with a legal task list and a clean tree', async () => {
    const { input, asked } = checks({ tasksText: tasks(['US-1', true], ['US-2', false]) });
    expect(await decideStop(input)).toEqual({ allow: true });
    expect(asked.git).toBe(1);
  });

  it('blocks on invalid JSON first, naming the parse error, without asking git', async () => {
    const { input, asked } = checks({ tasksText: '{"stories": [', git: { paths: ['a.ts'], total: 1 } });
    const decision = await decideStop(input);
    expect(decision.allow).toBe(false);
    if (!decision.allow)
      expect(decision.reason).toMatch(/^ralph\/tasks\.json is not valid JSON \(.+\)\. Fix it .* and commit it\.$/);
    expect(asked.git).toBe(0);
  });

  it.each([
    ['[]', 'is not a JSON object with a "stories" array'],
    ['{"project": "p"}', 'has no "stories" array'],
    ['{"stories": [{"title": "no id"}]}', 'has a story without an "id" at stories[0]'],
  ])('blocks on a task list that is not one: %s', async (text, problem) => {
    const decision = await decideStop(checks({ tasksText: text }).input);
    expect(decision).toEqual({
      allow: false,
      reason: `ralph/tasks.json ${problem}. Fix it (ralph reads it after every iteration) and commit it.`,
    });
  });

  it('blocks when tasks.json is gone, pointing at the snapshot', async () => {
    const decision = await decideStop(checks({ tasksText: undefined }).input);
    expect(decision).toMatchObject({
      allow: false,
      reason: expect.stringMatching(
        /^ralph\/tasks\.json is missing\. Restore it \(the git dir's ralph\/tasks-snapshot\.json/,
      ),
    });
  });

  it('blocks an illegal transition before looking at git', async () => {
    const { input, asked } = checks({
      tasksText: tasks(['US-1', true], ['US-2', true]),
      git: { paths: ['a.ts'], total: 1 },
    });
    const decision = await decideStop(input);
    expect(decision).toMatchObject({ allow: false, reason: expect.stringContaining('(US-1, US-2)') });
    expect(asked.git).toBe(0);
  });

  it('judges transitions by the mode and story it is given', async () => {
    const snapshot = JSON.stringify({
      userStories: [
        { id: 1, passes: true, reviewStatus: 'pending' },
        { id: 2, passes: false },
      ],
    });
    const reviewed = JSON.stringify({
      userStories: [
        { id: 1, passes: false, reviewStatus: 'changes_requested', reviewFeedback: 'x' },
        { id: 2, passes: false },
      ],
    });
    expect(
      await decideStop(checks({ snapshotText: snapshot, tasksText: reviewed, mode: 'review', story: '1' }).input),
    ).toEqual({ allow: true });
    expect(
      await decideStop(checks({ snapshotText: snapshot, tasksText: reviewed, mode: 'implement' }).input),
    ).toMatchObject({ allow: false });
  });

  it('blocks on uncommitted changes last, naming them', async () => {
    const decision = await decideStop(checks({ git: { paths: ['src/a.ts', 'new.txt'], total: 2 } }).input);
    expect(decision).toEqual({
      allow: false,
      reason: 'Uncommitted changes: src/a.ts, new.txt. Commit them (git add -A && git commit) before stopping.',
    });
  });

  it('checks only that the list is sound when the iteration began with a broken one', async () => {
    const { input } = checks({
      snapshotText: '{ broken',
      tasksText: tasks(['US-1', true], ['US-2', true], ['US-3', false]),
    });
    expect(await decideStop(input)).toEqual({ allow: true });
  });
});

describe('describeUncommitted', () => {
  it('counts the paths it does not name', () => {
    expect(describeUncommitted({ paths: ['a', 'b'], total: 7 })).toBe(
      'Uncommitted changes: a, b and 5 more. Commit them (git add -A && git commit) before stopping.',
    );
  });
});
