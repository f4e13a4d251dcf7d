/**
 * The words of a `ralph run` command line that `ralph answer --run` may replay (last-run.json keeps
 * them as `runArgs`). Left out: what acts once (`--reset-resumes`, `--dry-run`), and what may carry
 * a secret (a `--notify` URL's token): those come from the configuration and the environment again.
 */
const LEFT_OUT: Readonly<Record<string, number>> = {
  '--reset-resumes': 0,
  '--dry-run': 0,
  '--notify': 1,
};

/** The words after `run` on a command line, without those that are never replayed. */
export function replayableRunArgs(words: readonly string[]): string[] {
  const kept: string[] = [];
  for (let index = 0; index < words.length; index++) {
    const word = words[index] as string;
    const name = word.split('=', 1)[0] as string;
    const skip = LEFT_OUT[name];
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
