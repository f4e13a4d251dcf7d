import { claudePreflight, isClaudeCodeVersion } from './claude/preflight.js';
import type { AgentPreflight, AgentSetting } from './preflight-types.js';

export type * from './preflight-types.js';

/** The preflight of the client this agent is, by `--version`; undefined for one ralph does not know (a stand-in). */
export function preflightFor(agent: AgentSetting): AgentPreflight | undefined {
  if (isClaudeCodeVersion(agent.version)) return claudePreflight(agent);
  return undefined;
}
