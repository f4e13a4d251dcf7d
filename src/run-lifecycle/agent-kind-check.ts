import type { ResolvedSettings } from '../config/resolve-settings.js';
import { RalphError } from '../errors.js';
import { AGENT_KINDS, dialectOf } from '../agent/dialects.js';

/**
 * What the chosen kind cannot do is refused before any call, never silently not done: a cost cap
 * on a client that reports no cost would never fire, and a sandbox template that does not exist
 * would fail on the first call.
 */
export function checkAgentKind({ settings }: ResolvedSettings): void {
  const kind = settings.agent;
  const dialect = dialectOf(kind);
  if (settings.maxCost !== undefined && !dialect.reportsCost) {
    const others = AGENT_KINDS.filter((other) => dialectOf(other).reportsCost).join(' or ');
    throw new RalphError(
      'usage',
      `--max-cost cannot work with --agent ${kind}: ${dialect.name} reports tokens and turns, not what a call cost`,
      `cap the run with --max-iterations or --max-runtime, or use an agent that reports cost (${others})`,
    );
  }
  if (settings.sandbox !== false && !dialect.features.sandbox) {
    throw new RalphError(
      'usage',
      `--sandbox is not available for --agent ${kind}: ralph's Docker sandbox runs Claude Code only`,
      'run without --sandbox (in a container or VM you trust), or use --agent claude',
    );
  }
}
