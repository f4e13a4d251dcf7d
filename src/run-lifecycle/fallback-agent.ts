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
