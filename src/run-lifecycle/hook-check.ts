import { join } from 'node:path';
import { findExecutable } from '../agent/find-executable.js';
import { readOptional } from '../files/signal-files.js';
import { NPX_STOP_HOOK_COMMAND, registeredStopHook } from '../init/claude-settings.js';
import { PACKAGE_NAME } from '../package-info.js';
import type { Check } from './check.js';

/**
 * Claude Code's Stop hook as the agent will run it: registered in `.claude/settings.json`, and its
 * `ralph` found on the agent's PATH. A hook that cannot start fails every stop without a word, and
 * ralph's checks of each stop are lost. A warning, never a refusal: the loop's own checks still hold.
 */
export async function checkStopHook(root: string, cwd: string, agentPathVariable: string | undefined): Promise<Check> {
  const command = registeredStopHook(await readOptional(join(root, '.claude', 'settings.json')));
  if (command === undefined)
    return {
      name: 'stop hook',
      status: 'warning',
      detail: 'not in .claude/settings.json: nothing checks each stop of the agent (ralph init adds it)',
    };
  const onPath = command.split(/\s+/)[0] === 'ralph';
  if (!onPath || (await findExecutable('ralph', cwd, agentPathVariable ?? '')))
    return { name: 'stop hook', status: 'ok', detail: command };
  return {
    name: 'stop hook',
    status: 'warning',
    detail:
      `"${command}" cannot start: no ralph on the agent's PATH, so every stop goes unchecked — ` +
      `install ralph (npm install -g ${PACKAGE_NAME}) or register "${NPX_STOP_HOOK_COMMAND}" instead`,
  };
}
