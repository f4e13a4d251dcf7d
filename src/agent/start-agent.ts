import { execa, type ResultPromise } from 'execa';
import type { AgentCommand } from './agent-command.js';
import { findExecutable } from '../process/find-executable.js';
import { describeSpawnError, findNulByte } from './spawn-failure.js';

/** How each agent is spawned (the prompt on stdin, or no stdin at all). */
export type AgentSpawnOptions = {
  cwd: string;
  env: NodeJS.ProcessEnv;
  extendEnv: false;
  detached: true;
  cleanup: false;
  buffer: false;
  reject: false;
} & ({ stdin: 'ignore' } | { input: string });

/** A started agent, or the one line that says why it could not be started. */
export type StartedAgent = { child: ResultPromise<AgentSpawnOptions> } | { cause: string };

/**
 * Starts the agent in its own process group, or says in one line why it could not be started:
 * a NUL byte, E2BIG, ENOENT, EACCES. Such a spawn has no pid and will never emit `exit`.
 */
export async function startAgent(
  command: AgentCommand,
  env: NodeJS.ProcessEnv,
  cwd: string,
  wrap?: (file: string, args: readonly string[]) => { file: string; args: string[] },
): Promise<StartedAgent> {
  const nul = findNulByte(command, env);
  if (nul !== undefined) return { cause: `the agent could not be started: ${nul}` };
  const spawnOptions: AgentSpawnOptions = {
    cwd,
    env,
    extendEnv: false,
    // Its own process group, so one signal reaches the agent and everything it started.
    detached: true,
    cleanup: false,
    ...(command.input === undefined ? { stdin: 'ignore' as const } : { input: command.input }),
    buffer: false,
    reject: false,
  };
  let child: ResultPromise<AgentSpawnOptions>;
  try {
    const { file, args } = await wrapped(command, env, cwd, wrap);
    child = execa(file, args, spawnOptions);
  } catch (error) {
    return { cause: describeSpawnError(error, command, env) };
  }
  if (child.pid !== undefined) return { child };
  const result = await child;
  return { cause: describeSpawnError(result.cause ?? result, command, env) };
}

/**
 * The command through the containment's wrapper (a cgroup's). Only an executable that exists is
 * wrapped: one that does not is spawned as it is, so the kernel's ENOENT or EACCES names it.
 */
async function wrapped(
  command: AgentCommand,
  env: NodeJS.ProcessEnv,
  cwd: string,
  wrap: ((file: string, args: readonly string[]) => { file: string; args: string[] }) | undefined,
): Promise<{ file: string; args: readonly string[] }> {
  if (!wrap) return command;
  const path = await findExecutable(command.file, cwd, env.PATH ?? '');
  return path ? wrap(path, command.args) : command;
}
