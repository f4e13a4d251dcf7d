import { join } from 'node:path';
import { readOwnFile } from '../files/own-file.js';
import { parseTasks } from '../files/tasks.js';
import { gitOutput } from '../git/safe-git.js';
import { readTemplate } from '../templates.js';
import type { Whereabouts } from './next-steps.js';

/**
 * The first-run steps already done in the repository, so a second `ralph init` does not repeat
 * them: the PRD and the stories written, the scaffold committed — which it is not while anything
 * of it is untracked, or anything this init wrote (a workflow, a tarball) differs from the commit.
 */
export async function stepsDone(
  root: string,
  /** What init writes for the client besides (its hook settings). */
  agentFiles: readonly string[] = [],
  /** What this init created or changed, repository paths. */
  written: readonly string[] = [],
): Promise<Pick<Whereabouts, 'prdWritten' | 'storiesWritten' | 'committed'>> {
  const prd = await readOwnFile(join(root, 'ralph/prd.md'));
  const tasks = parseTasks((await readOwnFile(join(root, 'ralph/tasks.json'))) ?? '');
  // What `ralph init` writes that belongs in the repository's history.
  const scaffold = ['ralph', ...agentFiles, '.gitignore'];
  const untracked = await gitOutput(root, ['ls-files', '--others', '--exclude-standard', '--', ...scaffold]).catch(
    () => 'unknown',
  );
  // Changed or new, ignored files aside (ralph/logs/): what the commit step must add.
  const uncommitted =
    written.length === 0
      ? ''
      : await gitOutput(root, ['status', '--porcelain', '--untracked-files=all', '--', ...written]).catch(
          () => 'unknown',
        );
  return {
    prdWritten: prd !== undefined && prd !== (await readTemplate('prd.md')),
    storiesWritten: tasks.ok && !tasks.tasks.example,
    committed: untracked.trim() === '' && uncommitted.trim() === '',
  };
}
