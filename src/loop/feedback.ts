import { quoteLines } from '../domain/quote-lines.js';
import type { BlockResolution, DecideExchange, RepetitionReport, UnfinishedStory } from './port-data.js';
import { describeRewrite, type HistoryRewrite } from './progress.js';
import { unreachable } from './termination.js';
import { counted } from '../domain/plural.js';

/** Something the next iteration should hear about before it starts. */
export type FeedbackItem =
  /** The agent said COMPLETE but tasks.json disagrees, or the iteration broke a rule of the task list. */
  | { kind: 'complete_rejected'; remaining: UnfinishedStory[]; broke?: 'rule_broken' | 'history_rewritten' }
  /** The agent left tasks.json unreadable. */
  | { kind: 'tasks_invalid'; error: string }
  /** The iteration changed tasks.json in a way its mode does not allow: the rule, as one line. */
  | { kind: 'rule_broken'; rule: string }
  /** Commits left the branch, or HEAD left it. */
  | { kind: 'history_rewritten'; rewrite: HistoryRewrite }
  /** Promise tags that are no signal (empty reason, unknown word). */
  | { kind: 'invalid_tags'; tags: string[] }
  /** The agent's output ended without its final result: it was cut off. */
  | { kind: 'truncated' }
  /** The agent kept making the same tool call; ralph stopped it. */
  | { kind: 'repetition'; repetition: RepetitionReport }
  /** ralph stopped the agent at a time limit. */
  | { kind: 'time_limit'; limit: 'iteration' | 'idle' }
  /** The agent process failed. */
  | { kind: 'agent_failed'; lines: string[] }
  /** The quality gates failed: the blocking event, already formatted for the agent. */
  | { kind: 'gates_blocked'; event: string };

/** The loop-feedback section of a prompt (empty when there is nothing to say). */
export function renderFeedback(
  items: readonly FeedbackItem[],
  decideAnswered: boolean,
  exchange?: DecideExchange,
  resolved?: BlockResolution,
): string {
  // A blocking event is a section of its own; the rest are bullet points.
  const events = items.flatMap((item) => (item.kind === 'gates_blocked' ? [item.event.trimEnd()] : []));
  const lines = items.filter((item) => item.kind !== 'gates_blocked').map(renderItem);
  if (decideAnswered) {
    lines.push(
      '- A human answered your question in `ralph/decide.txt`: read the answer below `---`, act on it, then delete the file.',
      ...(exchange ? [renderExchange(exchange)] : []),
    );
  }
  if (resolved) {
    lines.push(
      '- The loop was blocked, and a human resolved it (their note is also in `ralph/progress.txt`):',
      `  The block:\n${indented(resolved.reason)}\n  The resolution:\n${indented(resolved.answer)}`,
    );
  }
  if (lines.length === 0 && events.length === 0) return '';
  return [
    `## Loop feedback\n`,
    ...(lines.length ? [`${lines.join('\n')}\n`] : []),
    ...events.map((event) => `${event}\n`),
  ].join('\n');
}

/** Text quoted and indented under a bullet. */
function indented(text: string): string {
  return quoteLines(text)
    .split('\n')
    .map((line) => `    ${line}`)
    .join('\n');
}

/** The question and the answer, each quoted under the bullet, so neither can pose as the loop's own words. */
function renderExchange({ question, answer }: DecideExchange): string {
  return `  Your question:\n${indented(question)}\n  The answer:\n${indented(answer)}`;
}

function renderItem(item: FeedbackItem): string {
  switch (item.kind) {
    case 'complete_rejected': {
      const named = (why: UnfinishedStory['why']) =>
        item.remaining.filter((story) => story.why === why).map((story) => `${story.id} (${story.title})`);
      const [failing, unreviewed, unconfirmed] = [named('failing'), named('unreviewed'), named('unconfirmed')];
      const reasons = [
        ...(failing.length
          ? [`these stories still have \`passes: false\` in ralph/tasks.json: ${failing.join(', ')}`]
          : []),
        ...(unreviewed.length ? [`these pass but no review approved them yet: ${unreviewed.join(', ')}`] : []),
        ...(unconfirmed.length
          ? [
              `these were marked approved outside a review iteration, so a review must still approve them: ${unconfirmed.join(', ')}`,
            ]
          : []),
        ...(item.broke === 'rule_broken' ? ['the iteration broke a rule of the task list'] : []),
        ...(item.broke === 'history_rewritten' ? ['commits left the branch'] : []),
      ];
      const next =
        item.remaining.length > 0
          ? 'Finish them (or mark them passing once verified)'
          : 'Put that right (see the feedback above)';
      return `- Your previous \`<promise>COMPLETE</promise>\` was rejected: ${reasons.join('; ') || 'ralph/tasks.json is not valid'}. ${next} before claiming completion.`;
    }
    case 'tasks_invalid':
      return `- ralph/tasks.json is not a valid task list after the previous iteration: ${item.error}. Repair it first.`;
    case 'rule_broken':
      return `- The previous iteration broke a rule of the task list: ${item.rule}`;
    case 'history_rewritten':
      return `- The previous iteration moved HEAD off the branch's history: ${describeRewrite(item.rewrite)} Never reset, rebase, amend or switch branches: ralph counts only new commits on top of the branch as progress, and every iteration counts as a failure until the branch is back. Put it back first, then redo your work as new commits.`;
    case 'invalid_tags':
      return `- These promise tags were ignored because they are no signal: ${item.tags.join(', ')}. Use \`<promise>COMPLETE</promise>\`, \`<promise>BLOCKED:reason</promise>\` or \`<promise>DECIDE:question</promise>\`, with a non-empty reason or question.`;
    case 'truncated':
      return '- The previous iteration was cut off before it finished (its output ended without a final result). Check `git status` and `git log` for half-done work, then continue.';
    case 'repetition': {
      const { tool, count, inputPreview, lastOutcome } = item.repetition;
      const outcome = lastOutcome
        ? ` It last returned${lastOutcome.isError ? ' an error' : ''}: ${lastOutcome.preview}`
        : '';
      return `- The previous iteration was stopped because it called \`${tool}\` ${counted(count, 'time')} with the same input: ${inputPreview}.${outcome} Repeating it will not work: step back, find out why it fails, and take a different approach.`;
    }
    case 'time_limit':
      return item.limit === 'idle'
        ? '- The previous iteration was stopped because it produced no output for too long (idle timeout). Avoid commands that wait forever (watchers, servers in the foreground, prompts for input).'
        : '- The previous iteration was stopped at the iteration time limit. Take a smaller step: commit working progress early, and finish the story in the next iteration.';
    case 'gates_blocked':
      return item.event;
    case 'agent_failed':
      return `- The previous iteration's agent process failed. Its last error output:\n${item.lines.map((line) => `    ${line}`).join('\n')}`;
    default:
      return unreachable(item);
  }
}
