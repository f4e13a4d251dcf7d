import { unreachable } from './termination.js';

/** Something the previous iteration should hear about before it starts. */
export type FeedbackItem =
  /** The agent said COMPLETE but tasks.json disagrees. */
  | { kind: 'complete_rejected'; remaining: { id: string; title: string }[] }
  /** The agent left tasks.json unreadable. */
  | { kind: 'tasks_invalid'; error: string }
  /** Promise tags that are no signal (empty reason, unknown word). */
  | { kind: 'invalid_tags'; tags: string[] };

/** The prompt of one iteration: the user's prompt, then the loop's feedback section when there is any. */
export function buildPrompt(base: string, items: readonly FeedbackItem[], decideAnswered: boolean): string {
  const lines = items.map(renderItem);
  if (decideAnswered) {
    lines.push(
      '- A human answered your question in `ralph/decide.txt`: read the answer below `---`, act on it, then delete the file.',
    );
  }
  if (lines.length === 0) return base;
  return `${base.trimEnd()}\n\n## Loop feedback\n\n${lines.join('\n')}\n`;
}

function renderItem(item: FeedbackItem): string {
  switch (item.kind) {
    case 'complete_rejected': {
      const stories = item.remaining.map((story) => `${story.id} (${story.title})`).join(', ');
      return `- Your previous \`<promise>COMPLETE</promise>\` was rejected: these stories still have \`passes: false\` in ralph/tasks.json: ${stories}. Finish them (or mark them passing once verified) before claiming completion.`;
    }
    case 'tasks_invalid':
      return `- ralph/tasks.json is not a valid task list after the previous iteration: ${item.error}. Repair it first.`;
    case 'invalid_tags':
      return `- These promise tags were ignored because they are no signal: ${item.tags.join(', ')}. Use \`<promise>COMPLETE</promise>\`, \`<promise>BLOCKED:reason</promise>\` or \`<promise>DECIDE:question</promise>\`, with a non-empty reason or question.`;
    default:
      return unreachable(item);
  }
}
