import { readFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { findExecutable } from '../process/find-executable.js';
import { unlessMissing } from '../files/missing-file.js';
import { NPX_STOP_HOOK_COMMAND, registeredStopHook } from '../init/claude-settings.js';
import { PACKAGE_NAME } from '../package-info.js';
import type { AgentCheckOptions } from './agent-check.js';
import type { Check } from './check.js';

/** Where Claude Code reads a project's hooks: the shared settings, then the local ones. */
const SETTINGS_FILES = ['settings.json', 'settings.local.json'];

/**
 * Claude Code's Stop hook as the agent will run it: registered in `.claude/`, and its `ralph` found
 * on the agent's PATH. A hook that cannot start fails every stop without a word, and ralph's checks
 * of each stop are lost. A dry-run warning, never a refusal: the loop's own checks still hold.
 * Undefined where there is nothing to check: another agent than Claude Code, or a sandbox (the
 * hook then runs where ralph cannot look).
 */
export async function checkStopHook(
  root: string,
  { cwd, agentBin, agentEnv }: Pick<AgentCheckOptions, 'cwd' | 'agentBin' | 'agentEnv'>,
): Promise<Check | undefined> {
  if (agentBin === undefined || basename(agentBin) !== 'claude') return undefined;
  const settings = await readSettings(root);
  if (typeof settings !== 'object') return warning(settings);
  const command = settings.map(registeredStopHook).find((found) => found !== undefined);
  if (command === undefined)
    return warning('not in .claude/settings.json: nothing checks each stop of the agent (ralph init adds it)');
  const onPath = command.split(/\s+/)[0] === 'ralph';
  if (!onPath || (await findExecutable('ralph', cwd, agentEnv.PATH ?? '')))
    return { name: 'stop hook', status: 'ok', detail: command };
  return warning(
    `"${command}" cannot start: no ralph on the agent's PATH, so every stop goes unchecked — ` +
      `install ralph (npm install -g ${PACKAGE_NAME}) or register "${NPX_STOP_HOOK_COMMAND}" instead`,
  );
}

/** The texts of the settings files there are, or why one cannot be read. */
async function readSettings(root: string): Promise<(string | undefined)[] | string> {
  const texts: (string | undefined)[] = [];
  for (const name of SETTINGS_FILES) {
    const path = join(root, '.claude', name);
    try {
      texts.push(await unlessMissing(() => readFile(path, 'utf8')));
    } catch (error) {
      return `cannot read .claude/${name} (${(error as Error).message.split('\n')[0]}), so whether it starts is unknown`;
    }
  }
  return texts;
}

function warning(detail: string): Check {
  return { name: 'stop hook', status: 'warning', detail };
}
