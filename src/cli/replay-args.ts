/**
 * The words of a `ralph run` command line that `ralph answer --run` may replay (last-run.json keeps
 * them as `runArgs`). Left out: what acts once (`--reset-resumes`, `--dry-run`), and what may carry
 * a secret (a `--notify` URL's token): those come from the configuration and the environment again.
 */
const LEFT_OUT: Readonly<Record<string, number>> = {
  '--reset-resumes': 0,
  '--accept-removed': 0,
  '--accept-approvals': 0,
  '--dry-run': 0,
  '--notify': 1,
};

/**
 * What a loop in its worktree leaves out besides: its record is the worktree's, and `ralph answer
 * --run` is typed there, where the list is ralph/tasks.json and the worktree is already made.
 */
const LEFT_OUT_IN_A_WORKTREE: Readonly<Record<string, number>> = { '--worktree': 0, '--from': 1, '--tasks': 1 };

/** The words after `run` on a command line, without those that are never replayed. */
export function replayableRunArgs(words: readonly string[]): string[] {
  const inWorktree = words.includes('--worktree');
  const kept: string[] = [];
  for (let index = 0; index < words.length; index++) {
    const word = words[index] as string;
    const name = word.split('=', 1)[0] as string;
    const skip = LEFT_OUT[name] ?? (inWorktree ? LEFT_OUT_IN_A_WORKTREE[name] : undefined);
    if (skip === undefined) kept.push(word);
    else if (!word.includes('=')) index += skip;
  }
  return kept;
}

/** The words of `ralph run` in a full argv (node, script, then the command's), or undefined for another command. */
export function runWords(argv: readonly string[]): string[] | undefined {
  const words = argv.slice(2);
  return words[0] === 'run' ? words.slice(1) : undefined;
}
