import { findRepoRoot } from '../git/repository.js';
import { pruneWorktrees, type PruneVerdict } from '../lists/prune-worktrees.js';
import { neutralise } from '../text/neutralise.js';

export interface WorktreesPruneOptions {
  cwd: string;
  /** What a branch must be merged into for its worktree to go (default: HEAD, the current branch). */
  base?: string;
  stdout?: NodeJS.WritableStream;
}

/** `ralph worktrees prune`: removes the task lists' worktrees that are done with, says what stayed and why. */
export async function worktreesPruneCommand(options: WorktreesPruneOptions): Promise<number> {
  const stdout = options.stdout ?? process.stdout;
  const root = await findRepoRoot(options.cwd);
  const verdicts = await pruneWorktrees(root, options.base);
  stdout.write(renderPrune(verdicts));
  return 0;
}

function renderPrune(verdicts: readonly PruneVerdict[]): string {
  if (verdicts.length === 0) return 'No worktree under ralph/worktrees/.\n';
  const lines = verdicts.map((verdict) => {
    switch (verdict.action) {
      case 'removed':
        return `removed ${verdict.dir} (${verdict.why})${verdict.logsKeptIn ? `; its logs are in ${verdict.logsKeptIn}/` : ''}`;
      case 'forgotten':
        return `forgot  ${verdict.dir} (${verdict.why})`;
      case 'kept':
        return `kept    ${verdict.dir} (${verdict.why})`;
    }
  });
  // Branch names come from task lists and git: every control character is shown, never sent.
  return neutralise(`${lines.join('\n')}\n`, { color: false });
}
