import type { AgentDialect } from '../agent/dialect.js';

/**
 * What the chosen client does not support of what ralph offers, each with what that means, so
 * the dry run says it before a run finds out: empty for a client that supports it all.
 */
export function unsupportedBy(dialect: AgentDialect): string[] {
  return [
    ...(dialect.reportsCost ? [] : ['--max-cost (it reports tokens and turns, not what a call cost)']),
    ...(dialect.features.sandbox ? [] : ["--sandbox (ralph's Docker sandbox has no template for it)"]),
    ...(dialect.stopHook ? [] : ['the Stop hook (no `ralph hook stop` checks each stop of the agent)']),
  ];
}

/** The dry run's lines for it: none when nothing is missing. */
export function renderUnsupported(dialect: AgentDialect): string[] {
  const missing = unsupportedBy(dialect);
  if (missing.length === 0) return [];
  return ['', `Not supported by ${dialect.name}:`, ...missing.map((what) => `  ${what}`)];
}
