import { readOwnFileNoLink } from '../files/own-file.js';
import type { RalphPaths } from '../files/paths.js';
import { blockedReason, decideAnswer, decideQuestion } from '../files/signal-files.js';

/** What the loop waits for a human about: a BLOCKED wins over a DECIDE, as the start checks say. */
export type Waiting =
  | { kind: 'blocked'; reason: string }
  | {
      kind: 'decide';
      question: string;
      /** decide.txt above its `---` line as it stands: the answer goes below it, the question kept word for word. */
      above: string;
      previousAnswer: string;
    };

/**
 * Reads ralph/blocked.txt, then ralph/decide.txt. The agent may have planted either: a link or a
 * FIFO in their place is refused (io), never followed, so nothing outside the repository is read.
 */
export async function findWaiting(paths: RalphPaths): Promise<Waiting | undefined> {
  const blocked = await readOwnFileNoLink(paths.blocked);
  if (blocked !== undefined) return { kind: 'blocked', reason: blockedReason(blocked) || '(no reason was given)' };
  const decide = await readOwnFileNoLink(paths.decide);
  if (decide === undefined) return undefined;
  return {
    kind: 'decide',
    question: decideQuestion(decide) || '(no question was given)',
    above: aboveSeparator(decide),
    previousAnswer: decideAnswer(decide),
  };
}

/** A decide.txt text above its `---` line (all of it when there is none), trailing blank lines dropped. */
export function aboveSeparator(text: string): string {
  const lines = text.split(/\r?\n/);
  const separator = lines.findIndex((line) => line.trim() === '---');
  return (separator === -1 ? lines : lines.slice(0, separator)).join('\n').trimEnd();
}
