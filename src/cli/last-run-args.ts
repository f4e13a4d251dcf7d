import { Command, CommanderError, Option } from 'commander';
import { RalphError } from '../errors.js';
import { parseJson } from '../files/json-text.js';
import { readLastRunText } from '../files/last-run.js';
import { addRunOptions, givenRunFlags } from './run-flags.js';
import type { ReplayedRun, ReplaySource } from '../commands/answer.js';
import { neutralise } from '../text/neutralise.js';
import { unvouchedWorktree } from '../lists/list-worktree.js';
import { replayedAgentBin, replayedBox, replayedFiles, withRecordedLimit } from './replay-limits.js';

/**
 * The last run's flags, from ralph's own record of it (never the copy in ralph/logs/, which the agent
 * can rewrite). The words are still no command: without a box the agent can reach the record too, so
 * they are parsed as `ralph run`'s own options, through the same checks as the command line — an
 * unknown word, an argument or a bad value refuses the replay (64) before anything is answered — and
 * become the same options object a typed `ralph run` would, no file outside the repository and no
 * limit above the recorded one (replay-limits.ts).
 */
export async function readLastRunArgs(source: ReplaySource): Promise<ReplayedRun> {
  const { shown } = source;
  const text = await readLastRunText(source.records);
  const hint = 'nothing was answered: answer without --run, then run `ralph run` with your options yourself';
  if (text === undefined) throw new RalphError('setup', `--run: ${shown} not found (no run recorded yet)`, hint);
  // A worktree ralph did not make holds records no box kept: the agent may have written them.
  const unvouched = await unvouchedWorktree(source.root);
  if (unvouched !== undefined)
    throw new RalphError('setup', `--run: ${shown} lies in a worktree ralph cannot vouch for (${unvouched})`, hint);
  const parsed = parseJson(text);
  const record: unknown = parsed.ok ? parsed.value : undefined;
  const stored: unknown =
    typeof record === 'object' && record !== null ? (record as { runArgs?: unknown }).runArgs : undefined;
  if (!Array.isArray(stored) || !stored.every((word): word is string => typeof word === 'string'))
    throw new RalphError(
      'setup',
      `--run: ${shown} records no options of the last run (written by an older ralph, or edited)`,
      hint,
    );
  const taken = stored.map((word) => word.split('=', 1)[0] as string).find((name) => name in FROM_YOU_ONLY);
  if (taken !== undefined)
    throw new RalphError(
      'setup',
      `--run: ${shown} holds ${taken}, which ${FROM_YOU_ONLY[taken]}; ralph takes that from you, not from a file the agent can write`,
      'nothing was answered: answer without --run, then run `ralph run …` yourself with the flags you mean',
    );
  const replayed = parseRunArgs(stored, shown, hint);
  replayedBox(replayed.flags, shown);
  await replayedFiles(replayed.flags, source.root, shown);
  await replayedAgentBin(replayed.flags, source.root, shown);
  const { replayMaxIterations } = record as { replayMaxIterations?: unknown };
  return { args: [...stored], ...replayed, flags: withRecordedLimit(replayed.flags, replayMaxIterations, shown) };
}

/**
 * The words a replay never takes from the file, and why. Each names a program to run or a file to
 * write, widens the agent's box, or turns one of ralph's checks off: without a box the agent can write
 * even ralph's record, and a worktree it made before one held them has records of its own, so these
 * come from the human's own command line only. ralph never records --notify (a URL may hold a token),
 * so one there was put there. --agent-bin is taken only for a program the agent could already make
 * run (replay-limits.ts).
 */
const FROM_YOU_ONLY: Readonly<Record<string, string>> = {
  '--notify': 'ralph never records there and which names a program or an address to send to',
  '--no-gates': 'turns the quality gates off',
  '--skip-review': 'turns the review cycle off',
  '--allow-dirty': 'turns the check for uncommitted changes off',
  '--skip-preflight': "turns the agent's preflight off",
  '--no-branch': "turns the switch to the task list's branch off",
  // The box: a replay never widens it (replayedBox keeps only a box named and the allow-list).
  '--box-write': "widens the agent's box",
  '--box-allow-host': "widens the agent's network",
  '--sandbox': 'runs the agent in a Docker sandbox instead of the box, which holds less of the repository',
  '--events-file': 'names a file ralph writes, outside the box',
};

/** Parses the words as `ralph run` would, with a command of its own that prints nothing and exits nowhere. */
function parseRunArgs(words: readonly string[], shown: string, hint: string): Omit<ReplayedRun, 'args'> {
  const run = addRunOptions(
    new Command('run')
      .option('--no-gates')
      .addOption(new Option('-y, --yes'))
      .allowExcessArguments(false)
      .exitOverride()
      .configureOutput({ writeOut: () => undefined, writeErr: () => undefined }),
  );
  try {
    run.parse([...words], { from: 'user' });
  } catch (error) {
    if (!(error instanceof CommanderError)) throw error;
    const why = neutralise(error.message.replace(/^error: /, '').split('\n')[0] ?? 'not a ralph run option');
    throw new RalphError('setup', `--run: ${shown} holds what \`ralph run\` does not take: ${why}`, hint);
  }
  const values = run.opts<Record<string, unknown>>();
  return { flags: givenRunFlags(values), yes: values.yes === true, noGates: values.gates === false };
}
