import type { ResolvedSettings } from '../config/resolve-settings.js';
import { RalphError } from '../errors.js';
import { findExecutable } from '../process/find-executable.js';
import { AGENT_KINDS, dialectOf, type AgentKind } from '../agent/dialects.js';

/**
 * What the chosen kind cannot do is refused before any call, never silently not done: a cost cap
 * on a client that reports no cost would never fire, and a sandbox template that does not exist
 * would fail on the first call.
 */
export function checkAgentKind({ settings }: ResolvedSettings): void {
  const fallback = settings.fallbackAgent;
  if (fallback === settings.agent)
    throw new RalphError(
      'usage',
      `--fallback-agent ${fallback} is the --agent itself: it would meet the same usage limit`,
      'name another kind, or leave --fallback-agent out',
    );
  for (const kind of fallback ? [settings.agent, fallback] : [settings.agent]) checkKind(kind, settings);
}

/** One kind against what the run asks of it (the fallback shares the cost cap). */
function checkKind(kind: AgentKind, settings: ResolvedSettings['settings']): void {
  const dialect = dialectOf(kind);
  const flag = kind === settings.agent ? '--agent' : '--fallback-agent';
  if (settings.maxCost !== undefined && !dialect.reportsCost) {
    const others = AGENT_KINDS.filter((other) => dialectOf(other).reportsCost).join(' or ');
    throw new RalphError(
      'usage',
      `--max-cost cannot work with ${flag} ${kind}: ${dialect.name} reports tokens and turns, not what a call cost`,
      `cap the run with --max-iterations or --max-runtime, or use an agent that reports cost (${others})`,
    );
  }
  if (settings.sandbox !== false && !dialect.features.sandbox) {
    const able = AGENT_KINDS.filter((other) => dialectOf(other).features.sandbox);
    throw new RalphError(
      'usage',
      `--sandbox is not available for ${flag} ${kind}: ralph's Docker sandbox runs ${able.map((other) => dialectOf(other).name).join(' and ')} only`,
      `run without --sandbox (in a container or VM you trust), or use ${able.map((other) => `--agent ${other}`).join(' or ')}`,
    );
  }
}

/** A fallback that cannot start would be found only when the first agent's limit comes: looked for now. */
export async function checkFallbackInstalled(
  { settings }: ResolvedSettings,
  cwd: string,
  path: string | undefined,
): Promise<void> {
  if (settings.fallbackAgent === undefined) return;
  const dialect = dialectOf(settings.fallbackAgent);
  if ((await findExecutable(dialect.bin, cwd, path)) !== undefined) return;
  throw new RalphError(
    'setup',
    `fallback agent executable '${dialect.bin}' not found on PATH`,
    `install ${dialect.name} (${dialect.install}), or leave --fallback-agent out`,
  );
}
