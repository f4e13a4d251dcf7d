import { describe, expect, it } from 'vitest';
import { renderFeedback, type FeedbackItem } from '../../../src/loop/feedback.js';
import { chooseMode } from '../../../src/loop/mode.js';
import { renderModeSection } from '../../../src/loop/mode-section.js';
import type { TaskList } from '../../../src/domain/tasks.js';
import { buildPrompt, feedbackPreview } from '../../../src/loop/prompt.js';

describe('renderFeedback: the loop-feedback section of the next prompt', () => {
  it('is empty when there is nothing to say', () => {
    expect(renderFeedback([], false)).toBe('');
  });

  it('is a heading and one bullet per item, in the order they came', () => {
    expect(
      renderFeedback(
        [{ kind: 'truncated' }, { kind: 'rule_broken', rule: 'stories removed from ralph/tasks.json: US-2, US-3' }],
        false,
      ),
    ).toBe(
      '## Loop feedback\n\n' +
        '- The previous iteration was cut off before it finished (its output ended without a final result). Check `git status` and `git log` for half-done work, then continue.\n' +
        '- The previous iteration broke a rule of the task list: stories removed from ralph/tasks.json: US-2, US-3\n',
    );
  });

  it('puts a blocking event after the bullets, as a section of its own without its trailing blank lines', () => {
    const section = renderFeedback(
      [{ kind: 'gates_blocked', event: '## Completion Blocked: lint\n\nfix it\n\n' }, { kind: 'truncated' }],
      false,
    );
    expect(section).toMatch(
      /^## Loop feedback\n\n- The previous iteration was cut off[^\n]*\n\n## Completion Blocked: lint\n\nfix it\n$/,
    );
  });

  it('a blocking event alone is the whole section under the heading', () => {
    expect(renderFeedback([{ kind: 'gates_blocked', event: '## Completion Blocked: lint\n' }], false)).toBe(
      '## Loop feedback\n\n## Completion Blocked: lint\n',
    );
  });

  it('quotes a question and its answer, and a resolved block, line by line under their bullets', () => {
    expect(renderFeedback([], true, { question: 'A or B?', answer: 'B.\n\nNot A.' })).toContain(
      '  Your question:\n    > A or B?\n  The answer:\n    > B.\n    > \n    > Not A.\n',
    );
    expect(renderFeedback([], false, undefined, { reason: 'no key', answer: 'Added.' })).toBe(
      '## Loop feedback\n\n- The loop was blocked, and a human resolved it (their note is also in `ralph/progress.txt`):\n' +
        '  The block:\n    > no key\n  The resolution:\n    > Added.\n',
    );
  });

  it('points at an answered decide.txt, alone or after the other items', () => {
    const hint =
      '- A human answered your question in `ralph/decide.txt`: read the answer below `---`, act on it, then delete the file.';
    expect(renderFeedback([], true)).toBe(`## Loop feedback\n\n${hint}\n`);
    expect(renderFeedback([{ kind: 'truncated' }], true)).toMatch(
      new RegExp(`cut off[^\\n]*\\n${hint.replace(/[.*+?^${}()|[\]\\`]/g, '\\$&')}\\n$`),
    );
  });

  it('names failing and unreviewed stories of a rejected COMPLETE apart', () => {
    const section = renderFeedback(
      [
        {
          kind: 'complete_rejected',
          remaining: [
            { id: 'US-1', title: 'Login', why: 'failing' },
            { id: 'US-2', title: 'Logout', why: 'unreviewed' },
            { id: 'US-3', title: 'Signup', why: 'failing' },
          ],
        },
      ],
      false,
    );
    expect(section).toContain(
      '- Your previous `<promise>COMPLETE</promise>` was rejected: these stories still have `passes: false` in ralph/tasks.json: US-1 (Login), US-3 (Signup); ' +
        'these pass but no review approved them yet: US-2 (Logout). Finish them (or mark them passing once verified) before claiming completion.',
    );
  });

  it('a rejected COMPLETE with only failing stories names no unreviewed ones, and the other way round', () => {
    const failing = renderFeedback(
      [{ kind: 'complete_rejected', remaining: [{ id: 'US-1', title: 'Login', why: 'failing' }] }],
      false,
    );
    expect(failing).toContain(
      'rejected: these stories still have `passes: false` in ralph/tasks.json: US-1 (Login). Finish them',
    );
    const unreviewed = renderFeedback(
      [{ kind: 'complete_rejected', remaining: [{ id: 'US-2', title: 'Logout', why: 'unreviewed' }] }],
      false,
    );
    expect(unreviewed).toContain('rejected: these pass but no review approved them yet: US-2 (Logout). Finish them');
  });

  it('a rejected COMPLETE with no story to name says the task list is not valid', () => {
    expect(renderFeedback([{ kind: 'complete_rejected', remaining: [] }], false)).toContain(
      'was rejected: ralph/tasks.json is not valid. Put that right (see the feedback above) before claiming completion.',
    );
  });

  it.each([
    ['rule_broken', 'the iteration broke a rule of the task list'],
    ['history_rewritten', 'commits left the branch'],
  ] as const)('a rejected COMPLETE with every story done says what else stood in its way: %s', (broke, why) => {
    expect(renderFeedback([{ kind: 'complete_rejected', remaining: [], broke }], false)).toContain(
      `- Your previous \`<promise>COMPLETE</promise>\` was rejected: ${why}. Put that right (see the feedback above) before claiming completion.`,
    );
  });

  it('a rejected COMPLETE names every story awaiting review', () => {
    const remaining = [
      { id: 'US-1', title: 'Login', why: 'unreviewed' as const },
      { id: 'US-2', title: 'Logout', why: 'unreviewed' as const },
    ];
    expect(renderFeedback([{ kind: 'complete_rejected', remaining }], false)).toContain(
      'these pass but no review approved them yet: US-1 (Login), US-2 (Logout). Finish them',
    );
  });

  it.each<[string, FeedbackItem, string]>([
    [
      'an unreadable task list, with the error',
      { kind: 'tasks_invalid', error: 'line 3: missing id' },
      '- ralph/tasks.json is not a valid task list after the previous iteration: line 3: missing id. Repair it first.',
    ],
    [
      'ignored promise tags, with the right forms',
      { kind: 'invalid_tags', tags: ['<promise>DONE</promise>', '<promise>BLOCKED:</promise>'] },
      '- These promise tags were ignored because they are no signal: <promise>DONE</promise>, <promise>BLOCKED:</promise>. Use `<promise>COMPLETE</promise>`, `<promise>BLOCKED:reason</promise>` or `<promise>DECIDE:question</promise>`, with a non-empty reason or question.',
    ],
    [
      'an idle-timeout stop',
      { kind: 'time_limit', limit: 'idle' },
      '- The previous iteration was stopped because it produced no output for too long (idle timeout). Avoid commands that wait forever (watchers, servers in the foreground, prompts for input).',
    ],
    [
      'an --iteration-timeout stop',
      { kind: 'time_limit', limit: 'iteration' },
      '- The previous iteration was stopped at the iteration time limit. Take a smaller step: commit working progress early, and finish the story in the next iteration.',
    ],
    [
      "a failed agent's error lines, indented",
      { kind: 'agent_failed', lines: ['Error: boom', 'at main'] },
      "- The previous iteration's agent process failed. Its last error output:\n    Error: boom\n    at main",
    ],
  ])('explains %s', (_name, item, text) => {
    expect(renderFeedback([item], false)).toBe(`## Loop feedback\n\n${text}\n`);
  });

  it('explains a repetition with its tool, count, input, and what the call last returned', () => {
    const repetition = { tool: 'Bash', count: 5, kind: 'consecutive' as const, inputPreview: '{"command":"npm test"}' };
    const withError = renderFeedback(
      [{ kind: 'repetition', repetition: { ...repetition, lastOutcome: { isError: true, preview: 'FAIL x' } } }],
      false,
    );
    expect(withError).toContain(
      '- The previous iteration was stopped because it called `Bash` 5 times with the same input: {"command":"npm test"}. It last returned an error: FAIL x Repeating it will not work: step back, find out why it fails, and take a different approach.',
    );
    const withResult = renderFeedback(
      [{ kind: 'repetition', repetition: { ...repetition, lastOutcome: { isError: false, preview: 'ok' } } }],
      false,
    );
    expect(withResult).toContain('{"command":"npm test"}. It last returned: ok Repeating it');
    const bare = renderFeedback([{ kind: 'repetition', repetition }], false);
    expect(bare).toContain('{"command":"npm test"}. Repeating it');
  });
});

describe('buildPrompt', () => {
  it('joins the prompt, the guide and the feedback with one blank line, ending in one newline', () => {
    expect(buildPrompt('Do it.\n\n', '## guide\n', '## Loop feedback\n\n- x\n')).toBe(
      'Do it.\n\n## guide\n\n## Loop feedback\n\n- x\n',
    );
  });

  it('leaves out empty and blank parts', () => {
    expect(buildPrompt('Do it.', '  \n', '')).toBe('Do it.\n');
  });
});

describe('feedbackPreview: feedback too long for the prompt', () => {
  it('keeps the first bytes and says where the whole feedback is', () => {
    expect(feedbackPreview('abcdefgh   ', 'ralph/logs/feedback-3.md', 4)).toBe(
      'abcd\n\n… (cut here: the whole feedback is in `ralph/logs/feedback-3.md` — read it before anything else)\n',
    );
  });

  it('does not end on half a character', () => {
    expect(feedbackPreview('abcé', 'f.md', 4)).toMatch(/^abc\n\n… \(cut here/);
  });

  it('keeps a replacement character the feedback really contains, dropping only a cut one at the end', () => {
    expect(feedbackPreview('a\uFFFDbé', 'f.md', 6)).toMatch(/^a\uFFFDb\n\n…/);
  });

  it('trims the blank end of the kept part', () => {
    expect(feedbackPreview('ab  \n\ncd', 'f.md', 5)).toMatch(/^ab\n\n…/);
  });
});

describe('renderModeSection: a mode guide filled with its story', () => {
  const story = { id: 'US-7', title: 'Export CSV', passes: false, priority: 1 };

  it('fills the id and title, leaving unknown placeholders as they are', () => {
    expect(renderModeSection('Story {{id}} — {{title}} ({{unknown}})\n', { mode: 'implement', story }, '')).toBe(
      'Story US-7 — Export CSV ({{unknown}})\n',
    );
  });

  it('quotes the review feedback line by line', () => {
    const sent = { ...story, reviewFeedback: '  add tests\nrename x  \n' };
    expect(renderModeSection('{{feedback}}', { mode: 'review-fix', story: sent }, '')).toBe('> add tests\n> rename x');
  });

  it('says when a review sent a story back without feedback, blank or missing', () => {
    const expected = '> (no feedback was written: read the review commit)';
    expect(
      renderModeSection('{{feedback}}', { mode: 'review-fix', story: { ...story, reviewFeedback: '  \n' } }, ''),
    ).toBe(expected);
    expect(renderModeSection('{{feedback}}', { mode: 'review-fix', story }, '')).toBe(expected);
  });

  it('names no story in the finish guide', () => {
    expect(renderModeSection('[{{id}}][{{title}}]', { mode: 'implement' }, '')).toBe('[(none)][]');
  });

  it('appends the review policy after one blank line', () => {
    expect(renderModeSection('## guide {{id}}\n\n', { mode: 'review', story }, '\n policy \n')).toBe(
      '## guide US-7\n\npolicy\n',
    );
  });
});

describe('chooseMode: what the next iteration is for', () => {
  const list = (...stories: TaskList['stories']): TaskList => ({ stories });

  it('without the review cycle implements the highest-priority failing story, whatever its review fields', () => {
    const tasks = list(
      { id: 'A', title: 'a', passes: true, priority: 1 },
      { id: 'B', title: 'b', passes: false, priority: 3, reviewStatus: 'changes_requested' },
      { id: 'C', title: 'c', passes: false, priority: 2 },
    );
    expect(chooseMode(tasks, { review: false })).toEqual({ mode: 'implement', story: tasks.stories[2] });
  });

  it('implements with no story when every story passes', () => {
    expect(chooseMode(list({ id: 'A', title: 'a', passes: true }), { review: false })).toEqual({ mode: 'implement' });
  });

  it('reviews a passing story whose review is pending or not set, before fixing or implementing', () => {
    const pending = list(
      { id: 'A', title: 'a', passes: false, priority: 1 },
      { id: 'B', title: 'b', passes: false, priority: 2, reviewStatus: 'changes_requested' },
      { id: 'C', title: 'c', passes: true, priority: 3, reviewStatus: 'pending' },
    );
    expect(chooseMode(pending, { review: true })).toMatchObject({ mode: 'review', story: { id: 'C' } });
    const unset = list(
      { id: 'A', title: 'a', passes: false, priority: 1 },
      { id: 'C', title: 'c', passes: true, priority: 3 },
    );
    expect(chooseMode(unset, { review: true })).toMatchObject({ mode: 'review', story: { id: 'C' } });
  });

  it('does not review an approved story, nor a failing one that awaits review', () => {
    const tasks = list(
      { id: 'A', title: 'a', passes: true, priority: 1, reviewStatus: 'approved' },
      { id: 'B', title: 'b', passes: false, priority: 2, reviewStatus: 'pending' },
    );
    expect(chooseMode(tasks, { review: true })).toMatchObject({ mode: 'implement', story: { id: 'B' } });
  });

  it('reviews an approval no review made, and only while the story is still approved', () => {
    const approved = list(
      { id: 'A', title: 'a', passes: true, priority: 1, reviewStatus: 'approved' },
      { id: 'B', title: 'b', passes: false, priority: 2 },
    );
    expect(chooseMode(approved, { review: true, unconfirmed: new Set(['A']) })).toMatchObject({
      mode: 'review',
      story: { id: 'A' },
    });
    // The set names approvals; a story since sent back is fixed, whatever a stale set still says.
    const sentBack = list(
      { id: 'A', title: 'a', passes: true, priority: 1, reviewStatus: 'changes_requested' },
      { id: 'B', title: 'b', passes: false, priority: 2 },
    );
    expect(chooseMode(sentBack, { review: true, unconfirmed: new Set(['A']) })).toMatchObject({
      mode: 'review-fix',
      story: { id: 'A' },
    });
  });

  it('fixes a story sent back before implementing a new one', () => {
    const tasks = list(
      { id: 'A', title: 'a', passes: false, priority: 1 },
      { id: 'B', title: 'b', passes: false, priority: 2, reviewStatus: 'changes_requested' },
    );
    expect(chooseMode(tasks, { review: true })).toMatchObject({ mode: 'review-fix', story: { id: 'B' } });
  });

  it('picks by priority, not by list order', () => {
    const tasks = list(
      { id: 'A', title: 'a', passes: true, priority: 2 },
      { id: 'B', title: 'b', passes: true, priority: 1 },
    );
    expect(chooseMode(tasks, { review: true })).toMatchObject({ mode: 'review', story: { id: 'B' } });
  });
});
