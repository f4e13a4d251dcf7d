import type { AgentRunner } from '../loop/ports.js';
import type { AgentRequest, AgentRun } from '../loop/port-data.js';

/** An agent kind's runner. */
export interface KindRunner {
  kind: string;
  runner: AgentRunner;
}

/** What the fallback needs of the world: the time, and a line for the transcript. */
export interface FallbackPorts {
  now(): number;
  notice(line: string): void;
}

/**
 * A second agent that covers for the first while the first one's usage limit runs. When the primary
 * meets a limit whose reset is known (and that a wait lifts), the same iteration is run again on the
 * fallback, and every iteration after it until that reset; then the primary again. A limit on the
 * fallback too is the loop's to wait for (or stop on), as with one agent. Every run says which kind
 * ran it; the primary's limited call is counted in the iteration's cost.
 */
export function withFallback(primary: KindRunner, fallback: KindRunner, ports: FallbackPorts): AgentRunner {
  let primaryLimitedUntil = 0;
  const tagged = async (which: KindRunner, request: AgentRequest): Promise<AgentRun> => ({
    ...(await which.runner.run(request)),
    agent: which.kind,
  });
  return {
    async run(request) {
      if (ports.now() < primaryLimitedUntil) return tagged(fallback, request);
      const first = await tagged(primary, request);
      const limit = first.failure?.kind === 'usage_limit' ? first.failure : undefined;
      const resetAt = limit?.reset?.at;
      if (!limit || limit.exhausted || resetAt === undefined || resetAt <= ports.now()) return first;
      primaryLimitedUntil = resetAt;
      ports.notice(
        `${primary.kind} hit its usage limit until ${new Date(resetAt).toISOString()}: ` +
          `${fallback.kind} runs this iteration and the next ones until then`,
      );
      const second = await tagged(fallback, request);
      return { ...second, stats: { ...second.stats, costUsd: sumCost(first.stats.costUsd, second.stats.costUsd) } };
    },
  };
}

/** Both calls' cost; unknown only when neither reported one. */
function sumCost(a: number | undefined, b: number | undefined): number | undefined {
  return a === undefined && b === undefined ? undefined : (a ?? 0) + (b ?? 0);
}
