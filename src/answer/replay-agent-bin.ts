import { realpath } from 'node:fs/promises';
import { isAbsolute, relative, resolve } from 'node:path';
import { packagePath } from '../templates.js';

/**
 * Whether `ralph answer --run` may replay an `--agent-bin` it finds in ralph's record — a file the
 * agent can write when there is no box. A replay never runs a program the agent could not already
 * make run: one inside the repository (links followed) is code of the agent's reach anyway, as the
 * gates run every iteration, and ralph's own scripted agent (`ralph demo --print-agent-path`) is
 * ralph's. Anything else — a program found on PATH, a path outside the repository — is refused, as
 * a prompt file from outside is: the person types it again. The run's summary, and the refusal at a
 * start while a question waits, say the same (summary and preflight ask this function).
 * Resolves to undefined when it may, else what the program is, for the refusal's words.
 */
export async function agentBinReplayRefusal(value: string, root: string): Promise<string | undefined> {
  if (!value.includes('/')) return 'a program found on PATH';
  const path = await realOrAsIs(resolve(root, value));
  if (path === (await realOrAsIs(packagePath('bin/scripted-agent.js')))) return undefined;
  const inside = relative(await realOrAsIs(root), path);
  if (inside !== '' && inside !== '..' && !inside.startsWith('../') && !isAbsolute(inside)) return undefined;
  return 'a program outside the repository';
}

/** The `--agent-bin` of a run's words (`--agent-bin X` or `--agent-bin=X`, the last one given), if any. */
export function agentBinOf(words: readonly string[]): string | undefined {
  let found: string | undefined;
  words.forEach((word, index) => {
    if (word === '--agent-bin') found = words[index + 1];
    else if (word.startsWith('--agent-bin=')) found = word.slice('--agent-bin='.length);
  });
  return found;
}

/** Whether the run with these words can be answered with `ralph answer --run` as far as its --agent-bin goes. */
export async function replaysAgentBin(words: readonly string[] | undefined, root: string): Promise<boolean> {
  const value = agentBinOf(words ?? []);
  return value === undefined || (await agentBinReplayRefusal(value, root)) === undefined;
}

async function realOrAsIs(path: string): Promise<string> {
  return realpath(path).catch(() => path);
}
