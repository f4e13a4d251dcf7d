import type { RunSettings } from '../config/run-options.js';
import type { LoopSettings } from '../loop/loop-state.js';
import { NETWORK_BASE_MS } from '../loop/network-ruling.js';

/** The feedback section's cap in a prompt; longer feedback goes to ralph/logs/feedback-NNN.md. */
const MAX_FEEDBACK_BYTES = 8 * 1024;

/** The loop's settings from the resolved run options. */
export function loopSettings(
  settings: RunSettings,
  firstIteration: number,
  branch?: string,
  taskFile?: string,
  env: NodeJS.ProcessEnv = process.env,
): LoopSettings {
  return {
    maxIterations: settings.maxIterations,
    maxStuck: settings.maxStuck,
    firstIteration,
    maxRuntimeMs: settings.maxRuntime,
    ...(settings.maxCost === undefined ? {} : { maxCostUsd: settings.maxCost }),
    maxAgentFailures: settings.maxAgentFailures,
    maxValidationFailures: settings.maxValidationFailures,
    onUsageLimit: settings.onUsageLimit,
    ...(settings.maxUsage === undefined ? {} : { maxUsage: settings.maxUsage / 100 }),
    maxFeedbackBytes: MAX_FEEDBACK_BYTES,
    gatesWhen: settings.gatesWhen,
    maxGateFailures: settings.maxGateFailures,
    review: !settings.skipReview,
    maxReviews: settings.maxReviews,
    maxNetworkWaitMs: settings.maxNetworkWait,
    ...networkBackoff(env),
    ...(branch ? { branch } : {}),
    ...(taskFile && taskFile !== 'ralph/tasks.json' ? { taskFile } : {}),
  };
}

/** The variable the end-to-end tests shorten the network wait's first pause with, so an outage passes in a second. */
export const NETWORK_BACKOFF_VARIABLE = 'RALPH_TEST_NETWORK_BACKOFF_MS';

/**
 * The first pause of a network wait, from ralph's own environment (never ralph/config.json, which
 * the agent may write): it can only be shortened, down to 100 ms, never lengthened.
 */
function networkBackoff(env: NodeJS.ProcessEnv): { networkBackoffMs?: number } {
  const ms = Number(env[NETWORK_BACKOFF_VARIABLE]);
  return Number.isInteger(ms) && ms >= 100 && ms < NETWORK_BASE_MS ? { networkBackoffMs: ms } : {};
}
