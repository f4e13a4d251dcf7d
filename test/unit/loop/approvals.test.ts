import { describe, expect, it } from 'vitest';
import type { TaskList } from '../../../src/domain/tasks.js';
import { nextUnconfirmed, startingUnconfirmed } from '../../../src/loop/approvals.js';
import type { LoopSettings } from '../../../src/loop/loop-state.js';
import { runLoop } from '../../../src/loop/run-loop.js';
import { exitCodeFor } from '../../../src/loop/termination.js';
import { fakePorts, taskList, type FakeCall, loopSettings } from './fakes.js';

const settings: LoopSettings = loopSettings({ maxStuck: 5, review: true });

function approvedList(...ids: string[]): TaskList {
  return {
    stories: ids.map((id, index) => ({
      id,
      title: `Story ${id}`,
      passes: true,
      priority: index + 1,
      reviewStatus: 'approved' as const,
    })),
  };
}

async function loop(
  initial: TaskList,
  calls: FakeCall[],
  overrides: Partial<LoopSettings> = {},
  unconfirmed: string[] = [],
) {
  const fake = fakePorts(initial, calls);
  const result = await runLoop({ ...settings, ...overrides }, fake.ports, initial, unconfirmed);
  return { ...fake, result };
}

const everythingApproved: FakeCall = {
  commit: true,
  review: { 'US-1': { reviewStatus: 'approved', passes: true }, 'US-2': { reviewStatus: 'approved', passes: true } },
  signals: { complete: true },
};

describe('runLoop: an implement iteration cannot skip the review cycle', () => {
  it('marking every story passing and approved and claiming COMPLETE does not end the run complete', async () => {
    const { result, rows, prompts, unconfirmedSaved } = await loop(
      taskList(['US-1', false], ['US-2', false]),
      [everythingApproved],
      { maxValidationFailures: 1 },
    );
    expect(result.termination).toMatchObject({ reason: 'validation_failures', count: 1 });
    expect(exitCodeFor(result.termination)).not.toBe(0);
    expect(result.stories).toEqual({ complete: 0, total: 2 });
    expect(rows[0]?.storiesComplete).toBe(0);
    expect(unconfirmedSaved).toEqual([['US-1', 'US-2']]);
    expect(prompts).toHaveLength(1);
  });

  it('names the broken rule and the unconfirmed approvals to the next iteration, which reviews them', async () => {
    const { prompts, events } = await loop(taskList(['US-1', false], ['US-2', false]), [everythingApproved, {}], {
      maxIterations: 2,
    });
    expect(events).toContain('rejected US-1,US-2');
    expect(prompts[1]).toContain('2 stories were marked passes: true in one implement iteration (US-1, US-2)');
    expect(prompts[1]).toContain(
      'these were marked approved outside a review iteration, so a review must still approve them: US-1 (Story US-1), US-2 (Story US-2)',
    );
    expect(prompts[1]).toContain('## mode review: US-1');
  });

  it('one story approved in an implement iteration: a strike, and COMPLETE waits for a review iteration to confirm it', async () => {
    const { result, rows, prompts, unconfirmedSaved } = await loop(taskList(['US-1', false]), [
      { commit: true, review: { 'US-1': { reviewStatus: 'approved', passes: true } }, signals: { complete: true } },
      // The review leaves the approval as it is: that confirms it.
      { commit: true, signals: { complete: true } },
    ]);
    expect(rows.map((row) => [row.mode, row.storiesComplete])).toEqual([
      ['implement', 0],
      ['review', 1],
    ]);
    expect(prompts[1]).toContain('Story US-1 got reviewStatus "approved" in an implement iteration');
    expect(result.termination.reason).toBe('complete');
    expect(unconfirmedSaved).toEqual([['US-1'], []]);
  });

  it('an approval a review-fix iteration writes is unconfirmed too', async () => {
    const sentBack = {
      stories: [{ id: 'US-1', title: 'Story US-1', passes: false, reviewStatus: 'changes_requested' as const }],
    };
    const { result, rows } = await loop(
      sentBack,
      [{ commit: true, review: { 'US-1': { reviewStatus: 'approved', passes: true } }, signals: { complete: true } }],
      { maxIterations: 1 },
    );
    expect(rows[0]?.mode).toBe('review-fix');
    expect(result.termination.reason).toBe('max_iterations');
  });
});

describe('runLoop: approvals present when the run starts', () => {
  it('count as approved (by hand, or confirmed in an earlier run): the run is complete without an agent', async () => {
    const { result, prompts } = await loop(approvedList('US-1', 'US-2'), []);
    expect(result.termination.reason).toBe('complete');
    expect(prompts).toEqual([]);
  });

  it('except those an earlier run remembered as unconfirmed: a review iteration looks at them first', async () => {
    const { result, prompts, rows } = await loop(
      approvedList('US-1', 'US-2'),
      [{ commit: true, signals: { complete: true } }],
      {},
      ['US-2'],
    );
    expect(prompts[0]).toContain('## mode review: US-2');
    expect(rows[0]?.mode).toBe('review');
    expect(result.termination.reason).toBe('complete');
  });
});

describe('runLoop: with --skip-review', () => {
  it('an approval in an implement iteration breaks no rule and needs no confirmation', async () => {
    const { result, rows } = await loop(
      taskList(['US-1', false]),
      [{ commit: true, review: { 'US-1': { reviewStatus: 'approved', passes: true } }, signals: { complete: true } }],
      { review: false },
    );
    expect(result.termination.reason).toBe('complete');
    expect(rows[0]?.outcome).toBe('ok');
  });

  it('no approval is remembered as unconfirmed: without reviews none waits for one', async () => {
    const { unconfirmedSaved } = await loop(
      taskList(['US-1', false], ['US-2', false]),
      [{ commit: true, review: { 'US-1': { reviewStatus: 'approved', passes: true } } }, { commit: true }],
      { review: false, maxIterations: 2 },
    );
    expect(unconfirmedSaved).toEqual([]);
  });
});

describe('runLoop: the unconfirmed approvals in state.json', () => {
  it('are written only when the set changes, also when one id replaces another', async () => {
    const { unconfirmedSaved } = await loop(
      taskList(['US-1', false], ['US-2', false], ['US-3', false]),
      [
        // An implement iteration approves US-1: remembered.
        { commit: true, review: { 'US-1': { reviewStatus: 'approved', passes: true } } },
        // The review of US-1 confirms it (forgotten), and US-2's approval (unseen) replaces it.
        { commit: true, review: { 'US-2': { reviewStatus: 'approved', passes: true } } },
        // The review of US-2 confirms it: the set is empty.
        { commit: true },
        // US-3 is implemented, nothing about approvals changes: nothing to write.
        { commit: true, pass: ['US-3'] },
      ],
      { maxIterations: 4 },
    );
    expect(unconfirmedSaved).toEqual([['US-1'], ['US-2'], []]);
  });
});

describe('runLoop: a broken rule of the task list', () => {
  it('is a warning on the terminal that says where the list as it was can be found', async () => {
    const sendBack: FakeCall = { commit: true, review: { 'US-1': { reviewStatus: 'changes_requested' } } };
    const { events } = await loop(taskList(['US-1', false]), [sendBack], { maxIterations: 1 });
    const warning = events.find((event) => event.startsWith('warning the iteration broke a rule of the task list: '));
    expect(warning).toContain('`git log -p -- ralph/tasks.json` shows it as it was');
  });
});

describe('nextUnconfirmed', () => {
  const before = taskList(['US-1', true], ['US-2', true]);
  const after = approvedList('US-1', 'US-2');

  it('confirms only the approval of the story a review iteration reviewed', () => {
    expect([...nextUnconfirmed(new Set(), { before, after, mode: 'review', story: 'US-1' })]).toEqual(['US-2']);
    expect([...nextUnconfirmed(new Set(), { before, after, mode: 'implement', story: 'US-1' })]).toEqual([
      'US-1',
      'US-2',
    ]);
  });

  it('forgets a story that is no longer approved, and keeps doubting one no review looked at', () => {
    expect([
      ...nextUnconfirmed(new Set(['US-1', 'US-2']), { before: after, after: before, mode: 'implement' }),
    ]).toEqual([]);
    expect([...nextUnconfirmed(new Set(['US-2']), { before: after, after, mode: 'review', story: 'US-1' })]).toEqual([
      'US-2',
    ]);
  });

  it('starts a run doubting only remembered stories that are still approved', () => {
    expect([...startingUnconfirmed(['US-1', 'US-9'], approvedList('US-1', 'US-2'))]).toEqual(['US-1']);
    expect([...startingUnconfirmed(['US-1'], taskList(['US-1', true]))]).toEqual([]);
  });
});
