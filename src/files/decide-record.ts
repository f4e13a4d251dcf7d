import { createHash } from 'node:crypto';
import type { DecideState } from '../loop/port-data.js';
import type { RunPaths } from './record-paths.js';
import { readRunState, updateRunState } from './run-state.js';
import { decideAnswer, decideQuestion } from './signal-files.js';
import type { DecideExchange } from '../loop/port-data.js';
import { readOwnFileNoLink } from './own-file.js';

/*
 * decide.txt lies in ralph/, which the agent writes: a FIFO there would hang the run before the next
 * prompt (a plain read waits for a writer, and SIGTERM does not end a read in the thread pool), and a
 * link to ~/.ssh/id_rsa would carry the key into the next prompt. So it is read only as a regular file
 * of its own (readOwnFileNoLink): anything else is refused, an io error (74) naming it.
 */

/** The fingerprint of a decide.txt's question, as the run state keeps it. */
function fingerprint(text: string): string {
  return createHash('sha256').update(decideQuestion(text)).digest('hex');
}

/** Remembers (the run state) the question ralph just wrote to decide.txt, read back as the file holds it. */
export async function rememberQuestion(paths: RunPaths, taskList: string): Promise<void> {
  const text = await readOwnFileNoLink(paths.decide);
  if (text === undefined) return;
  await updateRunState(paths.records, taskList, (state) => ({ ...state, decideAsked: fingerprint(text) }));
}

/**
 * Where decide.txt stands — answered only when ralph wrote its question (its record holds its
 * fingerprint) and someone wrote below it. A decide.txt the agent wrote itself, "answer" included,
 * is no human's answer: it is not announced to the next agent.
 */
export async function askedDecideState(paths: RunPaths, taskList: string): Promise<DecideState> {
  const text = await readOwnFileNoLink(paths.decide);
  if (text === undefined) return 'none';
  if (!decideAnswer(text)) return 'pending';
  const { decideAsked } = await readRunState(paths.records, taskList);
  return decideAsked === fingerprint(text) ? 'answered' : 'none';
}

/** The question and the answer decide.txt holds now, for the prompt that delivers the answer. */
export async function readDecideExchange(path: string): Promise<DecideExchange | undefined> {
  const text = await readOwnFileNoLink(path);
  if (text === undefined) return undefined;
  const answer = decideAnswer(text);
  return answer ? { question: decideQuestion(text), answer } : undefined;
}
