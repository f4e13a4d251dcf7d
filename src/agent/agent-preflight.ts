import { basename } from 'node:path';
import type { AgentDialect } from './dialect.js';
import type { AgentPreflight, AgentSetting } from './preflight-types.js';

export type * from './preflight-types.js';

/** The preflight of the client this agent is, by `--version`; undefined for one ralph does not know (a stand-in). */
export function preflightFor(agent: AgentSetting, dialect: AgentDialect): AgentPreflight | undefined {
  return dialect.versionPattern.test(agent.version) ? dialect.preflight?.(agent) : undefined;
}

/**
 * Whether ralph may ask this agent its `--version` without risk of starting a session: the client
 * itself, named as it installs itself (a wrapper of the user's might take `--version` for a prompt).
 */
export function answersVersion(path: string, dialect: AgentDialect): boolean {
  const name = basename(path).replace(/\.(exe|cmd)$/i, '');
  return name.toLowerCase() === dialect.bin;
}
