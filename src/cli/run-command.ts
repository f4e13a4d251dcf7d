import type { Command } from 'commander';
import { RalphError } from '../errors.js';

/** `ralph run`'s declaration: kept apart from main.ts, the command with the most options. */

type SetExitCode = (code: number) => void;

/** The `run` command, with its many options declared lazily: see `declareRunOptions`. */
export function declareRun(program: Command, setExitCode: SetExitCode, argv: readonly string[]): Command {
  const run = program
    .command('run')
    .description('run the loop: one fresh agent per iteration until every story passes')
    .option('--dry-run', 'check everything, print the resolved configuration and the agent command, call no agent')
    .option('--no-gates', 'skip the quality gates of ralph/config.json for this run')
    .option('--reset-resumes', 'clear the count of unproductive resumes (after fixing their cause)')
    .option('--accept-removed', 'the stories missing from the task list since the last run were removed on purpose')
    .option('--accept-approvals', 'count the approvals in the task list that no review of ralph made, on your word')
    .option('-y, --yes', 'run even when ralph/tasks.json is still the example ralph init wrote')
    .option('--worktree', "run in the task list's own git worktree under ralph/worktrees/ (made when missing)")
    .option('--from <ref>', 'with --worktree: where a new branch starts (default: HEAD)')
    // Arguments are checked by hand: `ralph run 10` (the ralph.sh habit) gets the flag it meant.
    .allowExcessArguments(true)
    .action(async (options: Record<string, unknown>, command: Command) => {
      if (options.parallel === true)
        return setExitCode(await (await import('./parallel-flags.js')).runParallel(options, command.args));
      refuseArguments(command.args);
      if (options.from !== undefined && options.worktree !== true)
        throw new RalphError('usage', '--from needs --worktree', 'add --worktree, or drop --from');
      const [{ runCommand }, { givenRunFlags }, { replayableRunArgs, runWords }] = await Promise.all([
        import('../commands/run.js'),
        import('./run-flags.js'),
        import('./replay-args.js'),
      ]);
      const words = runWords(argv);
      setExitCode(
        await runCommand({
          cwd: process.cwd(),
          flags: givenRunFlags(options),
          dryRun: options.dryRun === true,
          noGates: options.gates === false,
          resetResumes: options.resetResumes === true,
          acceptRemoved: options.acceptRemoved === true,
          acceptApprovals: options.acceptApprovals === true,
          yes: options.yes === true,
          ...(words ? { runArgs: replayableRunArgs(words) } : {}),
          worktree: options.worktree === true,
          ...(typeof options.from === 'string' ? { from: options.from } : {}),
        }),
      );
    });
  program.hook('preSubcommand', async (_program, command) => {
    if (command === run) await declareRunOptions(run);
  });
  return run;
}

const runOptionsDeclared = new WeakSet<Command>();

/**
 * zod checks the run options' values and takes longer to load than the rest of the CLI: the options
 * are declared only when `run` is about to be parsed or its help shown, so every other command starts fast.
 */
export async function declareRunOptions(run: Command): Promise<void> {
  if (runOptionsDeclared.has(run)) return;
  runOptionsDeclared.add(run);
  (await import('./run-flags.js')).addRunOptions(run);
  (await import('./parallel-flags.js')).addParallelOptions(run);
}

/** `ralph run` takes no arguments; a bare number is ralph.sh's iteration count. */
function refuseArguments(args: readonly string[]): void {
  const [first] = args;
  if (first === undefined) return;
  const hint = /^\d+$/.test(first)
    ? `did you mean --max-iterations ${first}?`
    : 'ralph run takes no arguments: see ralph run --help';
  throw new RalphError('usage', `unexpected argument '${first}' for 'run'`, hint);
}
