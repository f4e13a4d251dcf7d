import type { RunPaths } from '../files/record-paths.js';
import { findRepoRoot } from '../git/repository.js';
import { runPaths } from '../git/run-paths.js';
import { chooseTaskList, requireNamedList, type ChosenList } from '../lists/chosen-list.js';
import { readStatus } from '../status/read-status.js';
import { statusReviewPolicy } from '../status/status-policy.js';
import { renderStatus } from '../status/render-status.js';
import { forecastJson } from '../status/forecast-text.js';
import { fencedFromRunner } from '../ui/runner-fence.js';
import { detectCi } from '../process/ci-environment.js';

export interface StatusOptions {
  cwd: string;
  /** --tasks: the task list to show, instead of ralph/tasks.json. */
  tasks?: string;
  /** Print one JSON object instead of text. */
  json?: boolean;
  /** How many summary.csv rows to show. */
  rows?: number;
  now?: number;
  stdout?: NodeJS.WritableStream;
  env?: NodeJS.ProcessEnv;
}

/** `ralph status`: where the loop stands, from its files alone — the agent is never called. */
export async function statusCommand(options: StatusOptions): Promise<number> {
  const stdout = options.stdout ?? process.stdout;
  const root = await findRepoRoot(options.cwd);
  const env = options.env ?? process.env;
  const chosen = await chooseTaskList(root, options.cwd, options.tasks, env);
  requireNamedList(root, options.cwd, chosen.file);
  const say = (line: string) => process.stderr.write(`${line}\n`);
  const paths = (await listWorktreePaths(root, chosen, say)) ?? (await runPaths(root, { tasks: chosen.file, say }));
  // With the review cycle on, a story is complete when it passes and is approved.
  const policy = await statusReviewPolicy(paths, env);
  const now = options.now ?? Date.now();
  const status = await readStatus(paths, { now, rows: options.rows ?? 10, policy });
  const forecast = status.forecast === null ? null : forecastJson(status.forecast);
  stdout.write(options.json ? machineJson({ ...status, forecast }) : forTheLog(renderStatus(status, now), env));
  return 0;
}

/**
 * A list under ralph/lists/ whose loop runs in its own worktree (`run --worktree`, `--parallel`) is
 * shown from there, as `ralph lists` reads it: its task list, lock and logs are the worktree's.
 * Loaded only then: the usual status reads no git and no schema.
 */
async function listWorktreePaths(
  root: string,
  chosen: ChosenList,
  say: (line: string) => void,
): Promise<RunPaths | undefined> {
  if (chosen.name === undefined) return undefined;
  const { existingListWorktree } = await import('../lists/list-worktree.js');
  const dir = await existingListWorktree(root, chosen);
  return dir === undefined ? undefined : await runPaths(dir, { say });
}

/**
 * The status as JSON. Story titles and reasons are an agent's words: `##` is written `#\u0023`, the
 * same string to any JSON reader, so no CI log reads a command in it (GitHub's legacy `##[…]`,
 * Azure's `##vso[…]`, both honoured anywhere in a line).
 */
function machineJson(status: unknown): string {
  return `${JSON.stringify(status, null, 2).replace(/##/g, '#\\u0023')}\n`;
}

/** The status for people; on GitHub Actions fenced from the runner, which would obey a title's `::error::`. */
function forTheLog(text: string, env: NodeJS.ProcessEnv): string {
  return detectCi(env).github ? fencedFromRunner(text) : text;
}
