import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { ioError } from '../errors.js';
import { rememberQuestion } from '../files/decide-record.js';
import { appendOwnFile } from '../files/own-file.js';
import { replaceOwnFile } from '../files/replace-own-file.js';
import type { RunPaths } from '../files/record-paths.js';
import { updateRunState } from '../files/run-state.js';
import { quoteLines } from '../domain/quote-lines.js';
import { isoSeconds } from '../loop/time.js';
import { neutralise } from '../text/neutralise.js';
import type { Waiting } from './waiting.js';

/** Where one answer went, for the human's confirmation. */
export interface Recorded {
  /** The archive of answers this one was added to (ralph/logs/answers/<date>.md). */
  archive: string;
}

/**
 * Records a human's answer to what the loop waits for. Always into the archive of answers first,
 * so nothing the run produced is lost; then under a DECIDE the answer goes below decide.txt's
 * `---` (the question kept word for word, and remembered in the run state as ralph's: a human answered
 * it, whoever wrote it), and under a BLOCKED the resolution goes into progress.txt, where every
 * agent reads, and blocked.txt goes.
 */
export async function recordAnswer(
  paths: RunPaths,
  waiting: Waiting,
  answer: string,
  context: { at: number; taskList: string },
): Promise<Recorded> {
  const archive = await archiveAnswer(paths, waiting, answer, context.at);
  // A human answered: the runs that waited for it were no unproductive resumes (as --reset-resumes).
  await updateRunState(paths.records, context.taskList, (state) => ({
    ...state,
    resumeAttempts: 0,
    ...(waiting.kind === 'blocked' ? { resolvedBlock: { reason: waiting.reason, answer } } : {}),
  }));
  if (waiting.kind === 'decide') {
    await replaceOwnFile(paths.root, paths.decide, decideWithAnswer(waiting.above, answer));
    await rememberQuestion(paths, context.taskList);
  } else {
    await appendOwnFile(
      paths.root,
      paths.progress,
      (empty) => `${empty ? '' : '\n'}${resolution(waiting.reason, answer, context.at)}`,
    );
    // The name goes, never what a link there points to.
    await rm(paths.blocked, { force: true }).catch((error: unknown) => {
      throw ioError(error, paths.blocked, 'write');
    });
  }
  return { archive };
}

/** decide.txt once answered: the question as it stood, `---`, the answer under `## Answer`. */
export function decideWithAnswer(above: string, answer: string): string {
  return `${above}\n\n---\n## Answer\n${answer}\n`;
}

/** The note progress.txt gets when a human resolves a BLOCKED: the reason, quoted, then the resolution. */
export function resolution(reason: string, answer: string, at: number): string {
  return [
    `## Unblocked by a human (${isoSeconds(at)})`,
    'The loop was blocked (ralph/blocked.txt):',
    quoteLines(neutralise(reason)),
    '',
    'Resolution:',
    answer,
    '',
  ].join('\n');
}

/** Adds the exchange to ralph/logs/answers/<date>.md, one file per day; resolves to its path. */
async function archiveAnswer(paths: RunPaths, waiting: Waiting, answer: string, at: number): Promise<string> {
  const stamp = isoSeconds(at);
  const path = join(paths.logs, 'answers', `${stamp.slice(0, 10)}.md`);
  const asked =
    waiting.kind === 'decide'
      ? ['### Question (ralph/decide.txt)', quoteLines(neutralise(waiting.question))]
      : ['### Blocked (ralph/blocked.txt)', quoteLines(neutralise(waiting.reason))];
  const replaced =
    waiting.kind === 'decide' && waiting.previousAnswer
      ? ['', '### The answer it replaced', quoteLines(neutralise(waiting.previousAnswer))]
      : [];
  const entry = [
    `## ${waiting.kind === 'decide' ? 'DECIDE' : 'BLOCKED'} answered ${stamp}`,
    ...asked,
    ...replaced,
    '',
    '### Answer',
    quoteLines(answer),
    '',
    '',
  ].join('\n');
  await appendOwnFile(paths.root, path, entry);
  return path;
}
