import type { ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { isErrno } from '../errors.js';
import type { Readable } from 'node:stream';
import type { AgentCommand } from './agent-command.js';
import { findExecutable } from '../process/find-executable.js';
import { startInGroup, type InGroup } from '../process/start-in-group.js';
import { describeSpawnError, findNulByte } from './spawn-failure.js';

/** A started agent: its process group's leader, with its output as two pipes. */
export type AgentChild = ChildProcess & { pid: number; stdout: Readable; stderr: Readable };

/** A started agent, or the one line that says why it could not be started. */
export type StartedAgent = { child: AgentChild } | { cause: string };

/**
 * Starts the agent in its own process group, or says in one line why it could not be started:
 * a NUL byte, E2BIG, ENOENT, EACCES. Such a spawn has no pid and will never emit `exit`.
 *
 * Started as every supervised child is (src/process/start-in-group.ts): execa's promise, stream
 * and option machinery cost about as much CPU as the fork itself, once an iteration.
 */
export async function startAgent(
  command: AgentCommand,
  env: NodeJS.ProcessEnv,
  cwd: string,
  wrap?: (file: string, args: readonly string[]) => { file: string; args: string[] },
): Promise<StartedAgent> {
  const nul = findNulByte(command, env);
  if (nul !== undefined) return { cause: `the agent could not be started: ${nul}` };
  let started: InGroup;
  try {
    const { file, args } = await wrapped(command, env, cwd, wrap);
    // Its own process group, so one signal reaches the agent and everything it started; exactly
    // this environment (nothing of ralph's own added); the prompt on stdin, or no stdin at all.
    started = startInGroup(file, args, {
      cwd,
      env,
      stdio: [command.input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
    });
  } catch (error) {
    return { cause: whyNotStarted(error, command, env, cwd) };
  }
  const { child } = started;
  if (child?.pid === undefined) {
    // Refused (ENOENT, EACCES, E2BIG, an argument spawn will not take): `ended` says why.
    const { error } = await started.ended;
    return { cause: whyNotStarted(error, command, env, cwd) };
  }
  if (command.input !== undefined && child.stdin) {
    // An agent that exits without reading its prompt closes the pipe: no error of ralph's.
    child.stdin.on('error', () => undefined);
    child.stdin.end(command.input);
  }
  return { child: child as AgentChild };
}

/**
 * The kernel's ENOENT names no path: a folder to start in that was deleted under the run (the
 * checkout removed) reads as a missing agent unless it is looked for.
 */
function whyNotStarted(error: unknown, command: AgentCommand, env: NodeJS.ProcessEnv, cwd: string): string {
  if (isErrno(error, 'ENOENT') && !existsSync(cwd))
    return `the agent could not be started: its working directory ${cwd} no longer exists; restore the checkout, cd into it and run again`;
  return describeSpawnError(error, command, env);
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
