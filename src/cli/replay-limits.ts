import { realpath } from 'node:fs/promises';
import { isAbsolute, relative, resolve } from 'node:path';
import type { RunOptionKey } from '../config/run-options.js';
import { RalphError } from '../errors.js';
import { neutralise } from '../text/neutralise.js';
import { agentBinReplayRefusal } from '../answer/replay-agent-bin.js';

type Flags = Partial<Record<RunOptionKey, unknown>>;

/** The flags whose value is a file the run reads and hands on: the prompt becomes the agent's. */
const FILE_FLAGS = { prompt: '--prompt', tasks: '--tasks' } as const;

/**
 * Refuses a replay that names a file outside the repository (links followed): its text would become
 * the next agent's prompt, or its list. A person who means it types `ralph run --prompt …` themselves.
 */
export async function replayedFiles(flags: Flags, root: string, shown: string): Promise<void> {
  const top = await realpath(root).catch(() => root);
  for (const [key, flag] of Object.entries(FILE_FLAGS) as [keyof typeof FILE_FLAGS, string][]) {
    const value = flags[key];
    if (typeof value !== 'string') continue;
    const path = resolve(root, value);
    const inside = relative(top, await realpath(path).catch(() => path));
    if (inside !== '..' && !inside.startsWith('../') && !isAbsolute(inside)) continue;
    throw new RalphError(
      'setup',
      `--run: ${shown} holds ${flag} ${neutralise(value)}, a file outside the repository; a replay reads no file from there`,
      `nothing was answered: answer without --run, then type \`ralph run ${flag} …\` yourself if you mean that file`,
    );
  }
}

/**
 * Refuses a replay whose --agent-bin is a program the agent could not already make run: one on PATH
 * or outside the repository (answer/replay-agent-bin.ts says which are taken, and why).
 */
export async function replayedAgentBin(flags: Flags, root: string, shown: string): Promise<void> {
  const value = flags.agentBin;
  if (typeof value !== 'string') return;
  const refusal = await agentBinReplayRefusal(value, root);
  if (refusal === undefined) return;
  throw new RalphError(
    'setup',
    `--run: ${shown} holds --agent-bin ${neutralise(value)}, ${refusal}; a replay runs no program from there`,
    'nothing was answered: answer without --run, then type `ralph run --agent-bin …` yourself if you mean that program',
  );
}

/**
 * The replay's iteration limit: never above the one the record says its run had. Without one in the
 * words, the recorded limit is pinned, so a ralph/config.json raised since (the agent can write it)
 * does not raise it either; only a limit the person types on a command line does.
 */
export function withRecordedLimit(flags: Flags, recorded: unknown, shown: string): Flags {
  if (typeof recorded !== 'number' || !Number.isInteger(recorded) || recorded < 1) return flags;
  const given = flags.maxIterations;
  if (given === undefined) return { ...flags, maxIterations: recorded };
  if (typeof given === 'number' && given <= recorded) return flags;
  throw new RalphError(
    'setup',
    `--run: ${shown} holds --max-iterations ${typeof given === 'number' ? given : '?'}, above the ${recorded} its run had`,
    'nothing was answered: answer without --run, then type `ralph run --max-iterations …` yourself to raise it',
  );
}

/**
 * The box's mode and network as a replay may take them: only the narrowest, a box named (which never
 * runs without one) and the allow-list. A flag replayed stands above the person's RALPH_BOX and
 * config, so `--box auto` or `--box-network open` there would undo a box they asked for elsewhere.
 */
const NARROWEST: { readonly [K in 'box' | 'boxNetwork']: { flag: string; kept: readonly unknown[] } } = {
  box: { flag: '--box', kept: ['bubblewrap', 'seatbelt'] },
  boxNetwork: { flag: '--box-network', kept: ['allow-list'] },
};

/** Refuses a replay that would give the agent a wider box than the narrowest: that is the person's to type. */
export function replayedBox(flags: Flags, shown: string): void {
  for (const [key, { flag, kept }] of Object.entries(NARROWEST)) {
    const value = flags[key as keyof typeof NARROWEST];
    if (value === undefined || kept.includes(value)) continue;
    throw new RalphError(
      'setup',
      `--run: ${shown} holds ${flag} ${neutralise(typeof value === 'string' ? value : JSON.stringify(value))}, which would widen the agent's box; a replay takes only ${kept.join(' or ')}`,
      `nothing was answered: answer without --run, then type \`ralph run ${flag} …\` yourself if you mean it`,
    );
  }
}
