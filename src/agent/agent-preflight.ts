import { claudePreflight, isClaudeCodeVersion, isClaudeExecutable } from './claude/preflight.js';
import type { AgentPreflight, AgentSetting } from './preflight-types.js';

export type * from './preflight-types.js';

/** The preflight of the client this agent is, by `--version`; undefined for one ralph does not know (a stand-in). */
export function preflightFor(agent: AgentSetting): AgentPreflight | undefined {
  if (isClaudeCodeVersion(agent.version)) return claudePreflight(agent);
  return undefined;
}

/** Whether ralph may ask this agent its `--version` without risk of starting a session: a client it knows by name. */
export function answersVersion(path: string): boolean {
  return isClaudeExecutable(path);
}
