import type { DecideState } from '../loop/port-data.js';
import { isoSeconds } from '../loop/time.js';
import { readOwnFile } from './own-file.js';
import { replaceOwnFile } from './replace-own-file.js';
import { neutralise } from '../text/neutralise.js';

/** Writes ralph/blocked.txt: where the reason came from, then the reason. */
export async function writeBlocked(
  root: string,
  path: string,
  entry: { iteration: number; at: number; reason: string },
): Promise<void> {
  await replaceOwnFile(
    root,
    path,
    `## Blocked (from iteration ${entry.iteration}, ${isoSeconds(entry.at)})\n${neutralise(entry.reason)}\n`,
  );
}

/** Writes ralph/decide.txt with the question and an empty answer section for the human. */
export async function writeDecide(
  root: string,
  path: string,
  entry: { iteration: number; at: number; question: string },
): Promise<void> {
  const text = `## Question (from iteration ${entry.iteration}, ${isoSeconds(entry.at)})\n${neutralise(entry.question)}\n\n---\n## Answer\n`;
  await replaceOwnFile(root, path, text);
}

/**
 * What a human does about a BLOCKED: the start checks and the run's summary say the same. `replays`
 * false: `ralph answer --run` would refuse the run's --agent-bin (answer/replay-agent-bin.ts),
 * so the answer and the run are two commands.
 */
export function resolveBlocked(path: string, replays = true): string {
  return replays
    ? `resolve it, then say what you did with \`ralph answer --run "<what you did>"\` (or delete ${path} and run again)`
    : `resolve it, say what you did with \`ralph answer "<what you did>"\`, then run again with your --agent-bin, which --run does not replay (or delete ${path} and run again)`;
}

/** What a human does about a DECIDE, in the same words wherever ralph says it. */
export function answerDecide(path: string, replays = true): string {
  return replays
    ? `answer with \`ralph answer --run "<your answer>"\` (or write it below the --- line in ${path} and run again)`
    : `answer with \`ralph answer "<your answer>"\`, then run again with your --agent-bin, which --run does not replay (or write it below the --- line in ${path} and run again)`;
}

/** The answer below `---` in a decide.txt text (without its `## Answer` heading), or "". */
export function decideAnswer(text: string): string {
  const lines = text.split(/\r?\n/);
  const separator = lines.findIndex((line) => line.trim() === '---');
  if (separator === -1) return '';
  return lines
    .slice(separator + 1)
    .filter((line) => !/^#+\s*Answer\s*$/i.test(line.trim()))
    .join('\n')
    .trim();
}

/** The question of a decide.txt text: what stands above `---`, without its heading. */
export function decideQuestion(text: string): string {
  const lines = text.split(/\r?\n/);
  const separator = lines.findIndex((line) => line.trim() === '---');
  return (separator === -1 ? lines : lines.slice(0, separator))
    .filter((line) => !/^#+\s*Question\b/.test(line.trim()))
    .join('\n')
    .trim();
}

/** The reason in a blocked.txt text, without the heading ralph writes above it. */
export function blockedReason(text: string): string {
  return text
    .split(/\r?\n/)
    .filter((line) => !/^#+\s*Blocked\b/.test(line.trim()))
    .join('\n')
    .trim();
}

/** Whether ralph/decide.txt is absent, waiting for a human, or answered. */
export async function readDecideState(path: string): Promise<DecideState> {
  const text = await readOwnFile(path);
  if (text === undefined) return 'none';
  return decideAnswer(text) ? 'answered' : 'pending';
}
