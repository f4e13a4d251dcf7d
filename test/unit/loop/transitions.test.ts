import { describe, expect, it } from 'vitest';
import type { Mode } from '../../../src/loop/mode.js';
import { checkTransitions, isEqual, type StoryRecord } from '../../../src/loop/transitions.js';

type Fields = Record<string, unknown>;

/** Stories from [id, fields] pairs; every story has a title so field changes can be tried. */
function list(...stories: [string, Fields][]): StoryRecord[] {
  return stories.map(([id, fields]) => ({ id, fields: { id, title: `Story ${id}`, ...fields } }));
}

const open = { passes: false };
const done = { passes: true };
const pending = { passes: true, reviewStatus: 'pending' };
const approved = { passes: true, reviewStatus: 'approved', reviewCount: 1 };
const changesRequested = {
  passes: false,
  reviewStatus: 'changes_requested',
  reviewCount: 1,
  reviewFeedback: 'add a test',
};

interface Row {
  name: string;
  before: StoryRecord[];
  after: StoryRecord[];
  story?: string;
  /** undefined: legal; otherwise what the one-line problem must say. */
  problem?: RegExp;
}

function check(mode: Mode, row: Row) {
  return checkTransitions({ before: row.before, after: row.after, mode, story: row.story, review: true });
}

/** The whole problem line: the text, then the hint where the list as it was can be found. */
function exactly(text: string): RegExp {
  const escaped = text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(
    `^${escaped} \\(the git dir's ralph/tasks-snapshot\\.json has the list as the iteration began\\)\\.$`,
  );
}

describe('checkTransitions: the same stories in every mode', () => {
  const rows: Row[] = [
    {
      name: 'a removed story',
      before: list(['US-1', open], ['US-2', open]),
      after: list(['US-1', open]),
      problem:
        /^ralph\/tasks\.json lost story US-2 during the iteration\. Put it back \(the git dir's ralph\/tasks-snapshot\.json/,
    },
    {
      name: 'two removed stories',
      before: list(['US-1', open], ['US-2', open], ['US-3', open]),
      after: list(['US-2', open]),
      problem: /lost stories US-1, US-3 .*Put them back/,
    },
    {
      name: 'an added story',
      before: list(['US-1', open]),
      after: list(['US-1', open], ['US-9', open]),
      problem: /^ralph\/tasks\.json gained story US-9 during the iteration\. Remove it/,
    },
    {
      name: 'a renamed id (one removed, one added)',
      before: list(['US-1', open]),
      after: list(['US-01', open]),
      problem: /lost story US-1/,
    },
    {
      name: 'reordered stories',
      before: list(['US-1', open], ['US-2', open]),
      after: list(['US-2', open], ['US-1', open]),
      problem: /different order \(was US-1, US-2; now US-2, US-1\)\. Restore the original order\.$/,
    },
    {
      name: 'a duplicated story',
      before: list(['US-1', open], ['US-2', open]),
      after: list(['US-1', open], ['US-2', open], ['US-2', open]),
      problem: /different order/,
    },
  ];
  for (const mode of ['implement', 'review', 'review-fix'] as const) {
    it.each(rows)(`${mode}: blocks $name`, (row) => {
      expect(check(mode, row)).toMatch(row.problem!);
    });
  }
});

describe('checkTransitions: implement', () => {
  const rows: Row[] = [
    { name: 'nothing changed', before: list(['US-1', open]), after: list(['US-1', open]) },
    {
      name: 'one story newly passing',
      before: list(['US-1', open], ['US-2', open]),
      after: list(['US-1', done], ['US-2', open]),
    },
    {
      name: 'one story newly passing and pending review',
      before: list(['US-1', open]),
      after: list(['US-1', pending]),
    },
    {
      name: 'notes and titles edited',
      before: list(['US-1', open], ['US-2', open]),
      after: list(['US-1', { ...done, notes: 'used zod' }], ['US-2', { title: 'clearer' }]),
    },
    {
      name: 'two stories newly passing',
      before: list(['US-1', open], ['US-2', open], ['US-3', open]),
      after: list(['US-1', done], ['US-2', open], ['US-3', done]),
      problem:
        /^2 stories were marked passes: true in one implement iteration \(US-1, US-3\); an iteration implements one story\. Set passes back to false on all but the one you finished/,
    },
    {
      name: 'a story no longer passing',
      before: list(['US-1', done], ['US-2', open]),
      after: list(['US-1', open], ['US-2', done]),
      problem: /^Story US-1 went from passes: true to false in an implement iteration\. Set passes back to true/,
    },
    {
      name: 'passes removed (treated as false)',
      before: list(['US-1', done]),
      after: [{ id: 'US-1', fields: { id: 'US-1', title: 'Story US-1' } }],
      problem: /Story US-1 went from passes: true to false/,
    },
    {
      name: 'a story approved outside a review',
      before: list(['US-1', open]),
      after: list(['US-1', { passes: true, reviewStatus: 'approved' }]),
      problem:
        /^Story US-1 got reviewStatus "approved" in an implement iteration; only a review approves a story\. Set it back to "pending"\.$/,
    },
    {
      name: 'an already approved story left alone',
      before: list(['US-1', approved], ['US-2', open]),
      after: list(['US-1', approved], ['US-2', done]),
    },
    {
      name: 'a story sent back outside a review',
      before: list(['US-1', pending]),
      after: list(['US-1', { ...pending, reviewStatus: 'changes_requested' }]),
      problem:
        /^Story US-1 got reviewStatus "changes_requested" in an implement iteration; only a review requests changes\. Restore it/,
    },
  ];
  it.each(rows)('$name', (row) => {
    if (row.problem) expect(check('implement', row)).toMatch(row.problem);
    else expect(check('implement', row)).toBeUndefined();
  });
});

describe('checkTransitions: implement with --skip-review', () => {
  const skipReview = (row: Row) =>
    checkTransitions({ before: row.before, after: row.after, mode: 'implement', review: false });
  it('leaves review statuses alone', () => {
    expect(
      skipReview({
        name: 'approved',
        before: list(['US-1', open]),
        after: list(['US-1', { passes: true, reviewStatus: 'approved' }]),
      }),
    ).toBeUndefined();
    expect(
      skipReview({
        name: 'sent back',
        before: list(['US-1', pending]),
        after: list(['US-1', { ...pending, reviewStatus: 'changes_requested' }]),
      }),
    ).toBeUndefined();
  });
  it('still allows one story to start passing, and keeps every story', () => {
    expect(
      skipReview({
        name: 'two',
        before: list(['US-1', open], ['US-2', open]),
        after: list(['US-1', done], ['US-2', done]),
      }),
    ).toMatch(/^2 stories were marked passes: true/);
    expect(skipReview({ name: 'unpassed', before: list(['US-1', done]), after: list(['US-1', open]) })).toMatch(
      /went from passes: true to false/,
    );
    expect(
      skipReview({ name: 'removed', before: list(['US-1', open], ['US-2', open]), after: list(['US-1', open]) }),
    ).toMatch(/lost story US-2/);
  });
});

describe('checkTransitions: where the list as it was can be found', () => {
  it('names the source the caller gives (the loop points at git; the hook at its snapshot)', () => {
    const row = { before: list(['US-1', open], ['US-2', open]), after: list(['US-1', open]) };
    expect(checkTransitions({ ...row, mode: 'implement', review: true })).toContain(
      "the git dir's ralph/tasks-snapshot.json has the list",
    );
    expect(checkTransitions({ ...row, mode: 'implement', review: true, source: 'git has it' })).toContain(
      '(git has it)',
    );
  });
});

describe('checkTransitions: review', () => {
  const before = list(['US-1', pending], ['US-2', open]);
  const rows: Row[] = [
    {
      name: 'the reviewed story approved',
      story: 'US-1',
      before,
      after: list(['US-1', { ...pending, reviewStatus: 'approved', reviewCount: 1 }], ['US-2', open]),
    },
    {
      name: 'the reviewed story sent back',
      story: 'US-1',
      before,
      after: list(['US-1', changesRequested], ['US-2', open]),
    },
    { name: 'no decision written yet', story: 'US-1', before, after: before },
    {
      name: 'the story inferred from the one whose review fields changed',
      before,
      after: list(['US-1', changesRequested], ['US-2', open]),
    },
    {
      name: 'an unknown story id falls back to inference',
      story: 'US-404',
      before,
      after: list(['US-1', changesRequested], ['US-2', open]),
    },
    {
      name: 'another story changed',
      story: 'US-1',
      before,
      after: list(['US-1', { ...pending, reviewStatus: 'approved' }], ['US-2', { passes: true }]),
      problem:
        /^In a review iteration only the reviewed story US-1 may change, but story US-2 changed \(passes\)\. Restore it/,
    },
    {
      name: "the reviewed story's title changed",
      story: 'US-1',
      before,
      after: list(['US-1', { ...changesRequested, title: 'new title' }], ['US-2', open]),
      problem:
        /^In a review iteration only the passes, reviewStatus, reviewCount and reviewFeedback of story US-1 may change, but its title changed too\. Restore it/,
    },
    {
      name: 'review fields of two stories changed, story unknown',
      before: list(['US-1', pending], ['US-2', pending]),
      after: list(['US-1', approved], ['US-2', approved]),
      problem:
        /^A review iteration reviews one story, but the review fields of US-1 and US-2 changed\. Restore all but the story you reviewed/,
    },
    {
      name: 'two non-review fields of the reviewed story changed: both named, and "them"',
      story: 'US-1',
      before,
      after: list(['US-1', { ...changesRequested, title: 'new title', notes: 'x' }], ['US-2', open]),
      problem: exactly(
        'In a review iteration only the passes, reviewStatus, reviewCount and reviewFeedback of story US-1 may change, but its title, notes changed too. Restore them',
      ),
    },
    {
      name: 'another story changed in two fields: both named',
      story: 'US-1',
      before,
      after: list(['US-1', pending], ['US-2', { ...open, notes: 'x', title: 'y' }]),
      problem: exactly(
        'In a review iteration only the reviewed story US-1 may change, but story US-2 changed (title, notes). Restore it',
      ),
    },
    {
      name: 'story unknown: a story with review and other changes still counts as reviewed',
      before: list(['US-1', pending], ['US-2', pending]),
      after: list(['US-1', { ...approved, title: 'renamed' }], ['US-2', approved]),
      problem: exactly(
        'A review iteration reviews one story, but the review fields of US-1 and US-2 changed. Restore all but the story you reviewed',
      ),
    },
    {
      name: 'a non-review field of a story changed, story unknown',
      before,
      after: list(['US-1', pending], ['US-2', { ...open, notes: 'x' }]),
      problem: /only the reviewed story may change, but story US-2 changed \(notes\)/,
    },
  ];
  it.each(rows)('$name', (row) => {
    if (row.problem) expect(check('review', row)).toMatch(row.problem);
    else expect(check('review', row)).toBeUndefined();
  });
});

describe('checkTransitions: review-fix', () => {
  const before = list(['US-1', changesRequested], ['US-2', open]);
  const fixed = { ...changesRequested, passes: true, reviewStatus: 'pending' };
  const rows: Row[] = [
    {
      name: 'the story under fix passes again and goes back to pending',
      story: 'US-1',
      before,
      after: list(['US-1', fixed], ['US-2', open]),
    },
    { name: 'the fix not finished yet', story: 'US-1', before, after: before },
    { name: 'the story under fix inferred', before, after: list(['US-1', fixed], ['US-2', open]) },
    {
      name: 'notes edited on the story under fix',
      story: 'US-1',
      before,
      after: list(['US-1', { ...fixed, notes: 'fixed it' }], ['US-2', open]),
    },
    {
      name: 'another story newly passing',
      story: 'US-1',
      before,
      after: list(['US-1', fixed], ['US-2', done]),
      problem:
        /^In a review-fix iteration only story US-1 may change its passes and reviewStatus, but story US-2's passes changed\. Restore it/,
    },
    {
      name: 'the story under fix approved by the fixer',
      story: 'US-1',
      before,
      after: list(['US-1', { ...fixed, reviewStatus: 'approved' }], ['US-2', open]),
      problem:
        /^Story US-1's reviewStatus may only go back to "pending" in a review-fix iteration \(it is now "approved"\)/,
    },
    {
      name: "the reviewer's feedback cleared",
      story: 'US-1',
      before,
      after: list(['US-1', { ...fixed, reviewFeedback: '' }], ['US-2', open]),
      problem: /^Story US-1's reviewFeedback must stay as the reviewer left it in a review-fix iteration/,
    },
    {
      name: 'the story under fix unpassed',
      story: 'US-1',
      before: list(['US-1', { ...changesRequested, passes: true }], ['US-2', open]),
      after: list(['US-1', { ...changesRequested, passes: false }], ['US-2', open]),
      problem: /^Story US-1 went from passes: true to false in a review-fix iteration/,
    },
    {
      name: 'another story passing and pending: both fields named',
      story: 'US-1',
      before,
      after: list(['US-1', fixed], ['US-2', pending]),
      problem: exactly(
        "In a review-fix iteration only story US-1 may change its passes and reviewStatus, but story US-2's passes, reviewStatus changed. Restore it",
      ),
    },
    {
      name: 'the story under fix back to pending while it still fails (the fix goes on)',
      story: 'US-1',
      before,
      after: list(['US-1', { ...changesRequested, reviewStatus: 'pending' }], ['US-2', open]),
    },
    {
      name: "the reviewer's count changed",
      story: 'US-1',
      before,
      after: list(['US-1', { ...fixed, reviewCount: 0 }], ['US-2', open]),
      problem: exactly(
        "Story US-1's reviewCount must stay as the reviewer left it in a review-fix iteration. Restore it",
      ),
    },
    {
      name: 'the reviewer\'s count and feedback changed: both named, and "them"',
      story: 'US-1',
      before,
      after: list(['US-1', { ...fixed, reviewCount: 0, reviewFeedback: '' }], ['US-2', open]),
      problem: exactly(
        "Story US-1's reviewCount and reviewFeedback must stay as the reviewer left them in a review-fix iteration. Restore them",
      ),
    },
    {
      name: 'two stories touched, story unknown',
      before,
      after: list(['US-1', fixed], ['US-2', done]),
      problem: /^A review-fix iteration fixes one story, but the passes or review fields of US-1 and US-2 changed/,
    },
  ];
  it.each(rows)('$name', (row) => {
    if (row.problem) expect(check('review-fix', row)).toMatch(row.problem);
    else expect(check('review-fix', row)).toBeUndefined();
  });
});

describe('isEqual', () => {
  it.each([
    [{ a: 1, b: [1, { c: 2 }] }, { b: [1, { c: 2 }], a: 1 }, true],
    [{ a: 1 }, { a: 1, b: undefined }, false],
    [[1, 2], [2, 1], false],
    [[], {}, false],
    [null, {}, false],
    ['1', 1, false],
    [1, {}, false],
    [{}, 1, false],
    [{}, null, false],
    [{ a: 1, b: 2 }, { a: 1, b: 3 }, false],
  ])('%j vs %j: %s', (a, b, equal) => {
    expect(isEqual(a, b)).toBe(equal);
  });
});
