import { quoteLines } from '../domain/quote-lines.js';
import type { ModeChoice } from './mode.js';

/** Fills a mode guide (templates/modes/*.md) with the story it is about. */
export function renderModeSection(template: string, { story }: ModeChoice, policy: string): string {
  const values: Record<string, string> = {
    id: story?.id ?? '(none)',
    title: story?.title ?? '',
    feedback: quoteLines(story?.reviewFeedback?.trim() || '(no feedback was written: read the review commit)'),
  };
  const filled = template.replace(/\{\{(\w+)\}\}/g, (whole, key: string) => values[key] ?? whole);
  return policy ? `${filled.trimEnd()}\n\n${policy.trim()}\n` : filled;
}
