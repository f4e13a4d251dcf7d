import type { AgentKind } from '../agent/dialects.js';
import { withFallback } from '../agent/fallback-runner.js';
import type { ResolvedSettings } from '../config/resolve-settings.js';
import type { LoopPorts } from '../loop/ports.js';

/** The run's agent with its `--fallback-agent` behind it, on the real clock. */
export function withFallbackAgent(
  { settings }: ResolvedSettings,
  primary: LoopPorts['agent'],
  fallback: { kind: AgentKind; runner: LoopPorts['agent']; notice: (line: string) => void },
): LoopPorts['agent'] {
  return withFallback(
    { kind: settings.agent, runner: primary },
    { kind: fallback.kind, runner: fallback.runner },
    { now: () => Date.now(), notice: fallback.notice },
  );
}

/** The run's one agent, each of its runs saying which kind ran it (the CSV's `agent` column). */
export function ranBy(kind: AgentKind, runner: LoopPorts['agent']): LoopPorts['agent'] {
  return { run: async (request) => ({ ...(await runner.run(request)), agent: kind }) };
}
