import { readAnswerText, type AnswerSource } from '../answer/answer-text.js';
import { recordAnswer } from '../answer/record-answer.js';
import { findWaiting, type Waiting } from '../answer/waiting.js';
import { detectCi } from '../config/ci-environment.js';
import type { RunOptionKey } from '../config/run-options.js';
import { quoteLines } from '../domain/quote-lines.js';
import { RalphError } from '../errors.js';
import { lockRefusal } from '../files/active-lock.js';
import { readOwnFile } from '../files/own-file.js';
import { ralphPaths, shownPath, type RalphPaths } from '../files/paths.js';
import { taskListId, withListBranch } from '../files/run-state.js';
import { parseTasks } from '../files/tasks.js';
import { findRepoRoot } from '../git/repository.js';
import { chooseTaskList, TASKS_VARIABLE } from '../lists/chosen-list.js';
import { existingListWorktree } from '../lists/list-worktree.js';
import { findTaskLists, worktreeDir } from '../lists/task-lists.js';
import { neutralise } from '../ui/neutralise.js';
import { fencedFromRunner } from '../ui/runner-fence.js';

/** What `ralph answer --run` starts the loop with: the last run's own flags, checked again. */
export interface ReplayedRun {
  /** The words as last-run.json keeps them, recorded again by the run they start. */
  args: string[];
  flags: Partial<Record<RunOptionKey, unknown>>;
  yes: boolean;
  noGates: boolean;
}

export interface AnswerCommandOptions extends AnswerSource {
  cwd: string;
  /** --tasks: the list whose loop waits; with a worktree of its own (--worktree, --parallel), answered there. */
  tasks?: string;
  /**
   * --run: start the loop again at once, with the last run's options, which this reads from
   * last-run.json (path, and the path as shown) — the CLI's parser of run options, given from above.
   */
  replay?: (path: string, shown: string) => Promise<ReplayedRun>;
  now?: number;
  env?: NodeJS.ProcessEnv;
  stdout?: NodeJS.WritableStream;
}

/**
 * `ralph answer`: answers what the loop waits for — a DECIDE's question, a BLOCKED's reason — and,
 * with --run, goes on. Everything is checked before anything is written: the answer, what waits,
 * and with --run the last run's options; a refusal changes no file.
 */
export async function answerCommand(options: AnswerCommandOptions): Promise<number> {
  const stdout = options.stdout ?? process.stdout;
  const env = options.env ?? process.env;
  const root = await findRepoRoot(options.cwd);
  const named = options.tasks ?? (env[TASKS_VARIABLE] || undefined);
  if (named !== undefined) {
    const dir = await existingListWorktree(root, await chooseTaskList(root, options.cwd, named, env));
    // The loop lives in its worktree, where its list is ralph/tasks.json: answered as if typed there.
    if (dir !== undefined) {
      const { [TASKS_VARIABLE]: _named, ...rest } = env;
      return answerCommand({ ...options, cwd: dir, tasks: undefined, env: rest });
    }
  }
  const paths = ralphPaths(root);
  const shown = (path: string) => shownPath(options.cwd, path);
  const answer = await readAnswerText(options, options.cwd);
  // A run in progress is no loop waiting: its agent may be writing progress.txt this instant.
  const busy = await lockRefusal(paths.active);
  if (busy) throw busy;
  const waiting = await findWaiting(paths);
  if (!waiting) throw await nothingWaits(root, paths, shown);
  const replay = options.replay ? await options.replay(paths.lastRun, shown(paths.lastRun)) : undefined;
  const { archive } = await recordAnswer(paths, waiting, answer, {
    at: options.now ?? Date.now(),
    taskList: await taskListOf(
      root,
      (await chooseTaskList(root, options.cwd, stringOr(replay?.flags.tasks) ?? named, env)).file,
    ),
  });
  const said = confirmation(waiting, { shown, paths, archive, replay });
  // The question and the reason are an agent's words: on Actions the runner must not obey them.
  stdout.write(detectCi(env).github ? fencedFromRunner(said) : said);
  if (!replay) return 0;
  const { runCommand } = await import('./run.js');
  return runCommand({
    cwd: options.cwd,
    flags: replay.flags,
    noGates: replay.noGates,
    yes: replay.yes,
    runArgs: replay.args,
    env,
  });
}

/**
 * Nothing waits here: the refusal, naming the loops that wait in their worktrees (a parallel run's),
 * each with the command that answers it from here. A list that cannot be read names none.
 */
async function nothingWaits(root: string, paths: RalphPaths, shown: (path: string) => string): Promise<RalphError> {
  const elsewhere: string[] = [];
  for (const list of await findTaskLists(root).catch(() => [])) {
    const dir = worktreeDir(root, list.branch);
    const waiting = await findWaiting(ralphPaths(dir)).catch(() => undefined);
    if (waiting) elsewhere.push(`ralph answer --tasks ${shown(list.file)} "<your answer>" (${waiting.kind})`);
  }
  return new RalphError(
    'setup',
    `nothing to answer: there is neither ${shown(paths.blocked)} nor ${shown(paths.decide)}`,
    elsewhere.length > 0
      ? `a loop waits in its worktree: ${elsewhere.join('; ')}`
      : 'the loop waits for no one: `ralph run` goes on',
  );
}

/**
 * The identity of the task list the waiting run worked on (--tasks, RALPH_TASKS, the config, as
 * `ralph run` chooses it), which state.json is kept under; '' when the list cannot be read (no run
 * starts then). Another list's identity would replace that run's state with a fresh one.
 */
async function taskListOf(root: string, file: string): Promise<string> {
  const text = await readOwnFile(file).catch(() => undefined);
  const parsed = text === undefined ? undefined : parseTasks(text);
  return parsed?.ok ? taskListId(withListBranch(parsed.tasks, root, file)) : '';
}

function stringOr(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/** What was answered, where it went, and what comes next. */
function confirmation(
  waiting: Waiting,
  context: { shown: (path: string) => string; paths: RalphPaths; archive: string; replay?: ReplayedRun },
): string {
  const { shown, paths, archive, replay } = context;
  const next = replay
    ? `Going on: ralph run${replay.args.map((word) => ` ${neutralise(word)}`).join('')}`
    : 'Next: `ralph run` (or `ralph answer --run` next time) goes on.';
  const lines =
    waiting.kind === 'decide'
      ? [
          `Answered the question in ${shown(paths.decide)}:`,
          quoteLines(neutralise(waiting.question)),
          ...(waiting.previousAnswer ? ['(the answer that was there is replaced; the archive keeps it)'] : []),
          'The next iteration is shown the question and your answer.',
        ]
      : [
          `Resolved the BLOCKED of ${shown(paths.blocked)}:`,
          quoteLines(neutralise(waiting.reason)),
          `Your resolution is in ${shown(paths.progress)}, which every iteration reads; ${shown(paths.blocked)} is cleared.`,
        ];
  return [...lines, `Archived in ${shown(archive)}.`, next, ''].join('\n');
}
