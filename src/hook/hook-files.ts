import { dirname, join } from 'node:path';
import { parseJson } from '../files/json-text.js';
import { appendOwnFile, readOwnFile } from '../files/own-file.js';
import { replaceOwnFile } from '../files/replace-own-file.js';
import { oneLine } from '../text/neutralise.js';

/**
 * How many times the hook has blocked the current iteration. Kept in ralph/logs/hook-state.json,
 * a file only the hook writes: the records in the git dir are read-only in the agent's box, where
 * the hook runs, and two writers of one file would lose each other's updates.
 */
export interface HookState {
  /** The run's `startedAt`: iteration numbers alone could repeat after the logs are cleared. */
  run: string;
  iteration: number;
  blocks: number;
}

/** The hook's files under ralph/logs/. */
export function hookFiles(logsDir: string) {
  return { state: join(logsDir, 'hook-state.json'), log: join(logsDir, 'hook.log') };
}

/** Blocks so far in this iteration of this run: 0 when the file is missing or is about another. */
export async function readBlocks(path: string, at: { run: string; iteration: number }): Promise<number> {
  const text = await readOwnFile(path);
  if (text === undefined) return 0;
  const parsed = parseJson(text);
  // The caller logs it and allows the stop: a corrupt count must not trap the agent.
  if (!parsed.ok) throw new SyntaxError(`${path} is not valid JSON (${parsed.error})`);
  const state = (parsed.value !== null && typeof parsed.value === 'object' ? parsed.value : {}) as Partial<HookState>;
  const isCurrent = state.run === at.run && state.iteration === at.iteration;
  return isCurrent && Number.isInteger(state.blocks) ? state.blocks! : 0;
}

/** Records the count for this iteration, atomically. */
export async function writeBlocks(path: string, state: HookState): Promise<void> {
  await replaceOwnFile(repositoryOf(path), path, JSON.stringify(state) + '\n');
}

/** Appends one line to ralph/logs/hook.log; a log that cannot be written never fails the hook. */
export async function appendHookLog(path: string, at: Date, line: string): Promise<void> {
  try {
    await appendOwnFile(repositoryOf(path), path, `${at.toISOString().replace(/\.\d{3}Z$/, 'Z')} ${oneLine(line)}\n`);
  } catch {
    // Nowhere left to report it: the stop is allowed either way.
  }
}

/** The repository of a file in ralph/logs/ (`<root>/ralph/logs/<file>`): ralph/ and its logs are checked from it. */
function repositoryOf(path: string): string {
  return dirname(dirname(dirname(path)));
}
