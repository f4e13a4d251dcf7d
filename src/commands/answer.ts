import { readAnswerText, type AnswerSource } from '../answer/answer-text.js';
import { recordAnswer } from '../answer/record-answer.js';
import { findWaiting, type Waiting } from '../answer/waiting.js';
import { detectCi } from '../process/ci-environment.js';
import type { RunOptionKey } from '../config/run-options.js';
import { quoteLines } from '../domain/quote-lines.js';
import { RalphError } from '../errors.js';
import { lockRefusal } from '../files/active-lock.js';
import { readOwnFile } from '../files/own-file.js';
import { ralphPaths, shownPath, type RalphPaths } from '../files/paths.js';
import type { RecordPaths } from '../files/record-paths.js';
import { storedTaskList, taskListId } from '../files/run-state.js';
import { parseTasks } from '../files/tasks.js';
import { findRepoRoot } from '../git/repository.js';
import { runPaths } from '../git/run-paths.js';
import { chooseTaskList, TASKS_VARIABLE, type ChosenList } from '../lists/chosen-list.js';
import { existingListWorktree } from '../lists/list-worktree.js';
import { findTaskLists, worktreeDir } from '../lists/task-lists.js';
import { neutralise, oneLine } from '../text/neutralise.js';
import { fencedFromRunner } from '../ui/runner-fence.js';

/** Where `ralph answer --run` reads the last run's flags: ralph's record, in the records of the work tree `root`. */
export interface ReplaySource {
  root: string;
  records: RecordPaths;
  /** The record's path as the person at the terminal would type it. */
  shown: string;
}

/** What `ralph answer --run` starts the loop with: the last run's own flags, checked again. */
export interface ReplayedRun {
  /** The words as the record keeps them, recorded again by the run they start. */
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
   * --run: start the loop again at once, with the last run's options, which this reads from ralph's
   * record of it — the CLI's parser of run options, given from above.
   */
  replay?: (source: ReplaySource) => Promise<ReplayedRun>;
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
  // Read where the human is: a --file in a worktree would be the agent's to write.
  const answer = await readAnswerText(options, options.cwd);
  const say = (line: string) => process.stderr.write(`${line}\n`);
  const here = await runPaths(root, { say });
  const named = options.tasks ?? (env[TASKS_VARIABLE] || undefined);
  const place = await waitingPlace({ root, records: here.records }, options.cwd, named, env);
  const paths = place.root === root ? here : await runPaths(place.root, { say });
  const shown = (path: string) => shownPath(options.cwd, path);
  // A run in progress is no loop waiting: its agent may be writing progress.txt this instant.
  const busy = await lockRefusal(paths.active);
  if (busy) throw busy;
  const waiting = await findWaiting(paths);
  if (!waiting) throw await nothingWaits(root, paths, shown);
  const { records } = paths;
  const replay = options.replay
    ? await options.replay({ root: paths.root, records, shown: shown(records.lastRun) })
    : undefined;
  const { archive } = await recordAnswer(paths, waiting, answer, {
    at: options.now ?? Date.now(),
    taskList:
      place.taskList ??
      (await taskListOf(root, (await chooseTaskList(root, options.cwd, stringOr(replay?.flags.tasks), env)).file)),
  });
  const said = confirmation(waiting, { shown, paths, archive, replay, place });
  // The question and the reason are an agent's words: on Actions the runner must not obey them.
  stdout.write(detectCi(env).github ? fencedFromRunner(said) : said);
  if (!replay) return 0;
  const { runCommand } = await import('./run.js');
  return runCommand({
    cwd: place.root,
    flags: replay.flags,
    noGates: replay.noGates,
    yes: replay.yes,
    runArgs: replay.args,
    env: place.env ?? env,
    ...(place.worktreeOf ? { worktreeOf: place.worktreeOf } : {}),
  });
}

/** Where the loop that waits lives, as `ralph answer` finds it. */
interface WaitingPlace {
  /** The top of the checkout it runs in: the repository's, or its list's worktree. */
  root: string;
  /** Its task list's identity, when the list was named (else the last run's flags choose it). */
  taskList?: string;
  /** A worktree loop's: the repository's top and its list, and the environment it goes on with. */
  worktreeOf?: { root: string; list: ChosenList };
  env?: NodeJS.ProcessEnv;
  /** The commands that go on and that answer it, as the confirmation says them. */
  goOn: string;
  answer: string;
}

/**
 * With a named list (--tasks, RALPH_TASKS): its worktree when it has one, where the list is that
 * worktree's ralph/tasks.json; else the checkout, but only when the run waiting there is on that
 * list — an answer meant for one loop must never land on another's question.
 */
async function waitingPlace(
  { root, records }: { root: string; records: RecordPaths },
  cwd: string,
  named: string | undefined,
  env: NodeJS.ProcessEnv,
): Promise<WaitingPlace> {
  const plain = { root, goOn: 'ralph run', answer: 'ralph answer' };
  if (named === undefined) return plain;
  const list = await chooseTaskList(root, cwd, named, env);
  const dir = await existingListWorktree(root, list);
  if (dir === undefined) {
    const taskList = await taskListOf(root, list.file);
    const waitingOn = await storedTaskList(records);
    if (waitingOn !== undefined && waitingOn !== taskList)
      throw new RalphError(
        'setup',
        `--tasks ${named}: that list has no worktree, and the loop in this checkout works on another list (${oneLine(waitingOn)})`,
        'name the list whose loop waits, or answer without --tasks',
      );
    const tasks = `--tasks ${shownPath(cwd, list.file)}`;
    return { root, taskList, goOn: `ralph run ${tasks}`, answer: `ralph answer ${tasks}` };
  }
  const { [TASKS_VARIABLE]: _named, ...rest } = env;
  return {
    root: dir,
    taskList: await taskListOf(dir, ralphPaths(dir).tasks),
    worktreeOf: { root, list },
    env: rest,
    goOn: `ralph run --worktree --tasks ${shownPath(cwd, list.file)}`,
    answer: `ralph answer --tasks ${shownPath(cwd, list.file)}`,
  };
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
  return parsed?.ok ? taskListId(root, file) : '';
}

function stringOr(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/** What was answered, where it went, and what comes next. */
function confirmation(
  waiting: Waiting,
  context: {
    shown: (path: string) => string;
    paths: RalphPaths;
    archive: string;
    replay?: ReplayedRun;
    place: Pick<WaitingPlace, 'goOn' | 'answer'>;
  },
): string {
  const { shown, paths, archive, replay, place } = context;
  const next = replay
    ? `Going on: ralph run${replay.args.map((word) => ` ${oneLine(word)}`).join('')}`
    : `Next: \`${place.goOn}\` (or \`${place.answer} --run\` next time) goes on.`;
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
