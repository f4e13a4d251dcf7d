import type { ReviewPolicy } from '../domain/tasks.js';
import type { RalphPaths } from '../files/paths.js';
import { readOwnFile } from '../files/own-file.js';

/** The variable that sets --skip-review (run-options.ts's envName of the flag). */
const SKIP_REVIEW_VARIABLE = 'RALPH_SKIP_REVIEW';

/**
 * Whether the review cycle is on, as `ralph status` and `ralph report` read it: from the
 * environment and config.json, and on whenever they cannot be read. When neither names skipReview
 * every reading gives "on" — a valid file, an invalid one, a bad variable alike — so the
 * configuration's schema (zod, every agent kind's dialect) is loaded only when one of them does.
 */
export async function statusReviewPolicy(paths: RalphPaths, env: NodeJS.ProcessEnv): Promise<ReviewPolicy> {
  if (env[SKIP_REVIEW_VARIABLE] === undefined && !(await mayNameSkipReview(paths.config))) return { review: true };
  const { readReviewPolicy } = await import('../config/review-policy.js');
  return readReviewPolicy(paths.config, 'ralph/config.json', env).catch(() => ({ review: true }));
}

/** Whether config.json may set skipReview: it says so, or escapes a character (a key could hide in `\u…`). */
async function mayNameSkipReview(path: string): Promise<boolean> {
  const text = await readOwnFile(path).catch(() => undefined);
  return text !== undefined && (text.includes('skipReview') || text.includes('\\'));
}
