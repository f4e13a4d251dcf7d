import { InvalidArgumentError, Option, type Command } from 'commander';
import { parseText, positiveNumber, wholeNumber, type ValueKind } from '../config/value-kinds.js';

/** The options of `ralph run --parallel` (the supervisor's own; every other run option goes to each loop). */
export function addParallelOptions(run: Command): Command {
  return run
    .addOption(
      new Option(
        '--parallel',
        'run one loop per task list under ralph/lists/ (or per LIST named), each on its worktree',
      ),
    )
    .addOption(
      checked(
        new Option('--jobs <n>', 'with --parallel: loops at once (default: the number of lists, at most 4)'),
        wholeNumber(1),
      ),
    )
    .addOption(
      checked(
        new Option('--max-total-cost <usd>', "with --parallel: the loops' summed cost that stops them all"),
        positiveNumber(),
      ),
    )
    .addOption(
      new Option(
        '--on-conflict <action>',
        "with --parallel: when a loop's commit conflicts with another loop's branch, report (default) or stop-later",
      ).choices(['report', 'stop-later']),
    )
    .addOption(
      new Option(
        '--integrate',
        'with --parallel: then merge the lists that ended COMPLETE into an integration branch, gates after each (ralph integrate)',
      ),
    );
}

function checked(option: Option, kind: ValueKind<number>): Option {
  return option.argParser((raw: string) => {
    const parsed = parseText(kind, raw);
    if (!parsed.ok) throw new InvalidArgumentError(`${parsed.error}.`);
    return parsed.value;
  });
}

/** `ralph run --parallel [LIST...]`: the lists named, and every other run option passed on to each loop. */
export async function runParallel(options: Record<string, unknown>, names: string[]): Promise<number> {
  const [{ runParallelCommand }, { givenRunArgs }] = await Promise.all([
    import('../commands/run-parallel.js'),
    import('./run-flags.js'),
  ]);
  return await runParallelCommand({
    cwd: process.cwd(),
    names,
    passThrough: givenRunArgs(options),
    ...(typeof options.jobs === 'number' ? { jobs: options.jobs } : {}),
    ...(typeof options.maxTotalCost === 'number' ? { maxTotalCost: options.maxTotalCost } : {}),
    ...(options.onConflict === 'stop-later' ? { onConflict: 'stop-later' as const } : {}),
    integrate: options.integrate === true,
  });
}
