import { ralphPaths } from '../files/paths.js';
import { findRepoRoot } from '../git/repository.js';
import { readStatus } from '../status/read-status.js';
import { readReviewPolicy } from '../config/review-policy.js';
import { renderStatus } from '../status/render-status.js';

export interface StatusOptions {
  cwd: string;
  /** Print one JSON object instead of text. */
  json?: boolean;
  /** How many summary.csv rows to show. */
  rows?: number;
  now?: number;
  stdout?: NodeJS.WritableStream;
}

/** `ralph status`: where the loop stands, from its files alone — the agent is never called. */
export async function statusCommand(options: StatusOptions): Promise<number> {
  const stdout = options.stdout ?? process.stdout;
  const root = await findRepoRoot(options.cwd);
  const paths = ralphPaths(root);
  // With the review cycle on, a story is complete when it passes and is approved.
  const policy = await readReviewPolicy(paths.config, 'ralph/config.json', process.env).catch(() => ({ review: true }));
  const status = await readStatus(paths, { now: options.now ?? Date.now(), rows: options.rows ?? 10, policy });
  stdout.write(options.json ? JSON.stringify(status, null, 2) + '\n' : renderStatus(status));
  return 0;
}
