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
 * without `CLAUDECODE`, so a ralph started from inside Claude Code still starts a fresh agent.
 */
export function agentEnvironment(env: NodeJS.ProcessEnv, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const merged: NodeJS.ProcessEnv = { ...env, ...extra };
  delete merged.CLAUDECODE;
  for (const name of Object.keys(merged)) if (isRunnerOnly(name)) delete merged[name];
  return merged;
}
