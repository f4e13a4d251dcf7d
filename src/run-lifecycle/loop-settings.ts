import type { RunSettings } from '../config/run-options.js';
import type { LoopSettings } from '../loop/loop-state.js';

/** The feedback section's cap in a prompt; longer feedback goes to ralph/logs/feedback-NNN.md. */
const MAX_FEEDBACK_BYTES = 8 * 1024;

/** The loop's settings from the resolved run options. */
export function loopSettings(
  settings: RunSettings,
  firstIteration: number,
  branch?: string,
  taskFile?: string,
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
    ...(branch ? { branch } : {}),
    ...(taskFile && taskFile !== 'ralph/tasks.json' ? { taskFile } : {}),
  };
}
