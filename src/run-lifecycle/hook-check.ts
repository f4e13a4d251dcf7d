import { basename, join } from 'node:path';
import { findExecutable } from '../process/find-executable.js';
import { readOwnFile } from '../files/own-file.js';
import { AGENT_KINDS, dialectOf } from '../agent/dialects.js';
import type { StopHook } from '../agent/stop-hook.js';
import { PACKAGE_NAME } from '../package-info.js';
import type { AgentCheckOptions } from './agent-check.js';
import type { Check } from './check.js';

/**
 * The client's Stop hook as the agent will run it: registered in its settings, and its `ralph`
 * found on the agent's PATH. A hook that cannot start fails every stop without a word, and ralph's
 * checks of each stop are lost. A dry-run warning, never a refusal: the loop's own checks still
 * hold. Undefined where there is nothing to check: a client without a Stop hook, a stand-in (not the
 * kind's own executable), or a sandbox (the hook then runs where ralph cannot look).
 */
export async function checkStopHook(
  root: string,
  {
    cwd,
    agentBin,
    agentEnv,
    agentKind = AGENT_KINDS[0],
  }: Pick<AgentCheckOptions, 'cwd' | 'agentBin' | 'agentEnv'> & Partial<Pick<AgentCheckOptions, 'agentKind'>>,
): Promise<Check | undefined> {
  const dialect = dialectOf(agentKind);
  const hook = dialect.stopHook;
  if (hook === undefined || agentBin === undefined || basename(agentBin) !== dialect.bin) return undefined;
  const settings = await readSettings(root, hook);
  if (typeof settings !== 'object') return warning(settings);
  const command = settings.map(hook.registered).find((found) => found !== undefined);
  if (command === undefined)
    return warning(`not in ${hook.settingsPath}: nothing checks each stop of the agent (ralph init adds it)`);
  const onPath = command.split(/\s+/)[0] === 'ralph';
  if (!onPath || (await findExecutable('ralph', cwd, agentEnv.PATH ?? '')))
    return { name: 'stop hook', status: 'ok', detail: command };
  return warning(
    `"${command}" cannot start: no ralph on the agent's PATH, so every stop goes unchecked — ` +
      // Not `npm install -g <name>`: until a release is on the registry, that name installs nothing (or another's).
      `put ralph on it (\`npm link\` in ralph's folder, or \`npm install -g\` a release's .tgz: README, "ralph on your PATH"), ` +
      `or, with ${PACKAGE_NAME} a dev dependency of the project, register "${hook.npxCommand}" instead`,
  );
}

/** The texts of the settings files there are, or why one cannot be read. */
async function readSettings(root: string, hook: StopHook): Promise<(string | undefined)[] | string> {
  const texts: (string | undefined)[] = [];
  for (const name of hook.readFrom) {
    const path = join(root, name);
    try {
      // In the work tree, the agent's to write: a FIFO there hung the dry run; readOwnFile refuses it at once.
      texts.push(await readOwnFile(path));
    } catch (error) {
      return `cannot read ${name} (${(error as Error).message.split('\n')[0]}), so whether it starts is unknown`;
    }
  }
  return texts;
}

function warning(detail: string): Check {
  return { name: 'stop hook', status: 'warning', detail };
}
