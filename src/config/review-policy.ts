import type { ReviewPolicy } from '../domain/tasks.js';
import { loadConfig } from './load-config.js';
import { resolveSettings } from './resolve-settings.js';

/** Whether the review cycle is on for this repository (flag-less commands: environment and config). */
export async function readReviewPolicy(
  configPath: string,
  shownPath: string,
  env: NodeJS.ProcessEnv,
): Promise<ReviewPolicy> {
  const { settings } = resolveSettings({}, env, await loadConfig(configPath, shownPath));
  return { review: !settings.skipReview };
}
