import { join } from 'node:path';
import { readOwnFile } from '../files/own-file.js';
import { parseTasks } from '../files/tasks.js';
import { gitOutput } from '../git/safe-git.js';
import { readTemplate } from '../templates.js';
import type { Whereabouts } from './next-steps.js';

/**
 * The first-run steps already done in the repository, so a second `ralph init` does not repeat
 * them: the PRD and the stories written, the scaffold committed.
 */
export async function stepsDone(
  root: string,
  /** What init writes for the client besides (its hook settings). */
  agentFiles: readonly string[] = [],
): Promise<Pick<Whereabouts, 'prdWritten' | 'storiesWritten' | 'committed'>> {
  const prd = await readOwnFile(join(root, 'ralph/prd.md'));
  const tasks = parseTasks((await readOwnFile(join(root, 'ralph/tasks.json'))) ?? '');
  // What `ralph init` writes that belongs in the repository's history.
  const scaffold = ['ralph', ...agentFiles, '.gitignore'];
  const untracked = await gitOutput(root, ['ls-files', '--others', '--exclude-standard', '--', ...scaffold]).catch(
    () => 'unknown',
  );
  return {
    prdWritten: prd !== undefined && prd !== (await readTemplate('prd.md')),
    storiesWritten: tasks.ok && !tasks.tasks.example,
    committed: untracked.trim() === '',
  };
}
