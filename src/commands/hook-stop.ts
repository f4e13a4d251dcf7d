import { stat } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { readLiveActive } from '../files/active-lock.js';
import { readOwnFile } from '../files/own-file.js';
import { shownPath } from '../files/paths.js';
import { runPaths } from '../git/run-paths.js';
import { decideStop } from '../hook/decide-stop.js';
import { appendHookLog, hookFiles, readBlocks, writeBlocks } from '../hook/hook-files.js';
import { stopHookOf } from '../agent/dialects.js';
import { toLoopState } from '../hook/loop-state.js';
import { listUncommitted } from '../hook/uncommitted.js';

/**
 * Blocks per iteration before the hook lets the agent stop anyway, and records it: the client
 * itself stops honouring blocks after 8, and a hook must never trap the agent.
 */
const MAX_BLOCKS_PER_ITERATION = 3;

const STDIN_TIMEOUT_MS = 5_000;
const GIT_TIMEOUT_MS = 10_000;
/** Paths named in an "Uncommitted changes" reason; the rest are counted. */
const PATHS_SHOWN = 10;

export interface HookStopOptions {
  stdin: NodeJS.ReadableStream & { isTTY?: boolean };
  stdout: NodeJS.WritableStream;
  env: NodeJS.ProcessEnv;
  cwd: string;
  now?: () => Date;
}

/**
 * `ralph hook stop`, the agent client's Stop hook (its dialect reads the input): outside a loop it
 * allows at once; during one it blocks a stop that leaves the task list broken or work
 * uncommitted, by printing `{"decision":"block","reason":…}`. It always exits 0 and never blocks
 * because of its own errors.
 */
export async function hookStopCommand(options: HookStopOptions): Promise<number> {
  try {
    await hookStop(options);
  } catch {
    // Not even the repository could be found to log into: the stop is allowed.
  }
  return 0;
}

async function hookStop(options: HookStopOptions): Promise<void> {
  const now = options.now ?? (() => new Date());
  const hook = stopHookOf();
  const parsed = await hook.readInput(options.stdin, STDIN_TIMEOUT_MS);
  const start = (parsed.ok ? parsed.input.cwd : undefined) ?? hook.projectDir(options.env) ?? options.cwd;
  const root = await findWorkTree(resolve(options.cwd, start));
  if (root === undefined) return;
  // No move of older records here: the hook runs in the agent's box, where the records are read-only.
  const paths = await runPaths(root);
  const files = hookFiles(paths.logs);
  const log = (line: string) => appendHookLog(files.log, now(), line);

  try {
    const active = await readLiveActive(paths.active);
    if (active === undefined) return;
    if (!parsed.ok) throw new Error(parsed.problem);
    const loop = toLoopState(active as unknown as Record<string, unknown>);
    const snapshotText = await readOwnFile(paths.records.tasksSnapshot);
    if (snapshotText === undefined)
      throw new Error(
        `${shownPath(root, paths.records.tasksSnapshot)} is missing (ralph run writes it when an iteration begins)`,
      );
    const decision = await decideStop({
      snapshotText,
      tasksText: await readOwnFile(chosenTasks(root, active.tasks) ?? paths.tasks),
      mode: loop.mode,
      story: loop.story,
      review: loop.review,
      uncommitted: () => listUncommitted(root, { timeoutMs: GIT_TIMEOUT_MS, keep: PATHS_SHOWN }),
    });
    if (decision.allow) return;

    const at = { run: loop.run, iteration: loop.iteration };
    const blocks = (await readBlocks(files.state, at)) + 1;
    // Counted before blocking: a block that could not be counted could repeat forever.
    await writeBlocks(files.state, { ...at, blocks });
    const label = `iteration ${loop.iteration} (${loop.mode})`;
    if (blocks > MAX_BLOCKS_PER_ITERATION) {
      await log(
        `${label}: allowed stop attempt ${blocks} after ${MAX_BLOCKS_PER_ITERATION} blocks this iteration, though: ${decision.reason}`,
      );
      return;
    }
    options.stdout.write(`${JSON.stringify({ decision: 'block', reason: decision.reason })}\n`);
    await log(`${label}: blocked ${blocks}/${MAX_BLOCKS_PER_ITERATION}: ${decision.reason}`);
  } catch (error) {
    await log(`hook error, allowed the stop: ${(error as Error).message}`);
  }
}

/**
 * The task list the run chose with `--tasks`, as its lock names it: only a plain relative path inside
 * ralph/ (the lock is in the agent's reach, and the hook reads nothing outside the repository).
 */
function chosenTasks(root: string, tasks: unknown): string | undefined {
  if (typeof tasks !== 'string' || !/^ralph\/[A-Za-z0-9._/-]+\.json$/.test(tasks)) return undefined;
  return tasks.split('/').some((part) => part === '..' || part === '.' || part === '') ? undefined : join(root, tasks);
}

/** The nearest folder at or above `start` that holds `.git` (a folder, or a file in a worktree). */
async function findWorkTree(start: string): Promise<string | undefined> {
  for (let dir = start; ; dir = dirname(dir)) {
    if (await exists(join(dir, '.git'))) return dir;
    if (dirname(dir) === dir) return undefined;
  }
}

async function exists(path: string): Promise<boolean> {
  try {
    await stat(path);
    return true;
  } catch {
    return false;
  }
}
