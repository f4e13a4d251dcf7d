import { ralphPaths } from '../files/paths.js';
import { findRepoRoot } from '../git/repository.js';
import { readStatus } from '../status/read-status.js';
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
  const status = await readStatus(ralphPaths(root), { now: options.now ?? Date.now(), rows: options.rows ?? 10 });
  stdout.write(options.json ? JSON.stringify(status, null, 2) + '\n' : renderStatus(status));
  return 0;
}
