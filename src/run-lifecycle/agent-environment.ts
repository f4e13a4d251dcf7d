import { SESSION_VARIABLES } from '../agent/session-variables.js';
import type { GateEnvironment } from '../gates/types.js';

/**
 * The runner's file commands and tokens: a process holding one can set the job's later steps'
 * environment and PATH (`GITHUB_ENV`, `GITHUB_PATH`), their outputs and summary, or act with the
 * job's token. ralph keeps them for itself; the agent and the gates (which run the agent's code)
 * never see them.
 */
const RUNNER_ONLY = new Set([
  'GITHUB_ENV',
  'GITHUB_PATH',
  'GITHUB_OUTPUT',
  'GITHUB_STEP_SUMMARY',
  'GITHUB_STATE',
  'GITHUB_TOKEN',
  'GH_TOKEN',
]);

/** Whether a variable stays with ralph: the set above and every `ACTIONS_*` (runtime, cache, OIDC tokens). */
export function isRunnerOnly(name: string): boolean {
  const upper = name.toUpperCase();
  return RUNNER_ONLY.has(upper) || upper.startsWith('ACTIONS_');
}

/**
 * The one environment the agent and the gates get: ralph's own, plus config `agent.env` (for the
 * agent), without the runner's variables — a config in the work tree cannot add them back — and
 * without the variables a client sets for what it runs (its dialect's `sessionVariables`), so a
 * ralph started from inside an agent still starts a fresh one.
 */
export function agentEnvironment(env: NodeJS.ProcessEnv, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const merged: NodeJS.ProcessEnv = { ...env, ...extra };
  for (const name of SESSION_VARIABLES) delete merged[name];
  for (const name of Object.keys(merged)) if (isRunnerOnly(name)) delete merged[name];
  return merged;
}

/**
 * The gates' environment, every gate's — a run's, `ralph integrate`'s, `--parallel`'s bases and
 * `--integrate`: the agent's without `agent.env` (the run and the dry run show the same). The one
 * place a GateEnvironment is made.
 */
export function gateEnvironment(env: NodeJS.ProcessEnv): GateEnvironment {
  return agentEnvironment(env) as GateEnvironment;
}
