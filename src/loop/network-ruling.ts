import type { AgentRun } from './port-data.js';
import { formatDurationSpec } from '../domain/duration.js';
import type { Counters, IterationFacts, JudgeSettings } from './judge-inputs.js';
import type { Wait } from './port-data.js';
import type { Termination } from './termination.js';

/** The first pause after the network failed mid-run: it doubles with each failure in a row. */
export const NETWORK_BASE_MS = 15_000;
/** The longest single pause: a network back after an hour is tried within five minutes. */
export const NETWORK_CAP_MS = 5 * 60_000;

/** What a network failure asks of the loop: a pause before the next try, the end of the run, or nothing. */
export type NetworkRuling = { wait: Wait } | { termination: Termination } | undefined;

/**
 * A client that failed because it could not reach its API, after an iteration of this run reached
 * it: the network dropped (a train, a laptop's lid, a router's restart). The loop waits — 15 s, doubling,
 * at most 5 minutes a pause, never past --max-runtime — and tries again, until the pauses of this
 * outage reach --max-network-wait; then the failure ends the run as it would at the start. A
 * network failure before any iteration worked ends the run at once: it is a set-up to fix.
 * `counters` are this iteration's (nextCounters): `networkFailures` counts this failure too.
 */
export function networkRuling(facts: IterationFacts, settings: JudgeSettings, counters: Counters): NetworkRuling {
  const { failure } = facts.run;
  if (failure?.kind !== 'setup' || failure.cause !== 'network' || !counters.worked) return undefined;
  const waited = counters.networkWaitedMs;
  const left = settings.maxNetworkWaitMs - waited;
  if (left <= 0) {
    // --max-network-wait is longer than zero, so an outage that used it up always waited.
    const spec = formatDurationSpec(settings.maxNetworkWaitMs);
    return {
      termination: {
        reason: 'agent_setup',
        cause: 'network',
        message: `${failure.message} (still, after ${formatDurationSpec(waited)} of waiting for the network: --max-network-wait ${spec})`,
        hint: failure.hint,
      },
    };
  }
  const base = settings.networkBackoffMs ?? NETWORK_BASE_MS;
  const pause = Math.min(left, NETWORK_CAP_MS, base * 2 ** Math.max(0, counters.networkFailures - 1));
  return {
    wait: { until: Math.min(facts.deadline, facts.now + pause), message: failure.message, why: 'network' },
  };
}

/** Whether the agent reached its API: it ended without failing, or its API limited or throttled it. */
export function reachedApi(run: AgentRun): boolean {
  const { failure, stoppedBy } = run;
  if (failure === undefined) return stoppedBy?.cause !== 'interrupt' && stoppedBy?.cause !== 'max_runtime';
  return failure.kind === 'usage_limit' || (failure.kind === 'error' && failure.busy !== undefined);
}

/** Whether the iteration failed for the network. */
export function failedForNetwork(run: AgentRun): boolean {
  return run.failure?.kind === 'setup' && run.failure.cause === 'network';
}
