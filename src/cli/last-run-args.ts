import { Command, CommanderError, Option } from 'commander';
import { RalphError } from '../errors.js';
import { parseJson } from '../files/json-text.js';
import { readOwnFileNoLink } from '../files/own-file.js';
import { addRunOptions, givenRunFlags } from './run-flags.js';
import type { ReplayedRun } from '../commands/answer.js';
import { neutralise } from '../ui/neutralise.js';

/**
 * The last run's flags from ralph/logs/last-run.json. The agent can write that file, so its words
 * are no command: they are parsed as `ralph run`'s own options, through the same checks as the
 * command line — an unknown word, an argument or a bad value refuses the replay (64) before anything
 * is answered — and become the same options object a typed `ralph run` would.
 */
export async function readLastRunArgs(path: string, shown: string): Promise<ReplayedRun> {
  const text = await readOwnFileNoLink(path);
  const hint = 'run `ralph run` with your options yourself';
  if (text === undefined) throw new RalphError('setup', `--run: ${shown} not found (no run recorded yet)`, hint);
  const parsed = parseJson(text);
  const stored: unknown =
    parsed.ok && typeof parsed.value === 'object' && parsed.value !== null
      ? (parsed.value as { runArgs?: unknown }).runArgs
      : undefined;
  if (!Array.isArray(stored) || !stored.every((word): word is string => typeof word === 'string'))
    throw new RalphError(
      'setup',
      `--run: ${shown} records no options of the last run (written by an older ralph, or edited)`,
      hint,
    );
  // ralph never records --notify (a URL may hold a token): one there was written by someone else, and
  // a `cmd:` target is a program to run, which comes from the human only, like --agent-bin.
  if (stored.some((word) => word === '--notify' || word.startsWith('--notify=')))
    throw new RalphError(
      'setup',
      `--run: ${shown} holds --notify, which ralph never records there; the file was edited`,
      'run `ralph run …` yourself with the flags you mean',
    );
  const replayed = parseRunArgs(stored, shown, hint);
  // A program to run is no word to take from a file the agent writes: it comes from the human only.
  if (replayed.flags.agentBin !== undefined)
    throw new RalphError(
      'setup',
      `--run: ${shown} holds --agent-bin, which names a program to run; ralph takes that from you, not from a file the agent can write`,
      'run `ralph run --agent-bin <path> …` yourself, or set RALPH_AGENT_BIN',
    );
  return { args: [...stored], ...replayed };
}

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
