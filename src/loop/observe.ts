import type { TaskList, TasksParse } from '../files/tasks.js';
import { nextUnconfirmed } from './approvals.js';
import type { ModeChoice } from './mode.js';
import type { LoopPorts } from './ports.js';
import { describeRewrite, observeMovement, type HistoryRewrite, type Position } from './progress.js';
import { checkTransitions, storyRecords } from './transitions.js';

/** Where the agent can find the list as it was, once the Stop hook's snapshot has moved on. */
const GIT_SOURCE = '`git log -p -- ralph/tasks.json` shows it as it was';

/** What the loop knows before an iteration, for judging what the iteration did. */
export interface Baseline {
  /** The last position HEAD reached by progress (the run's start at first). */
  accepted: Position;
  /** The last valid task list. */
  tasks: TaskList;
  /** Approvals no review iteration made. */
  unconfirmed: ReadonlySet<string>;
}

/** What an iteration did to the repository and the task list. */
export interface Observation {
  /** HEAD moved forward on the branch: progress. */
  committed: boolean;
  /** The new commit, when it did. */
  commit?: string;
  rewrite?: HistoryRewrite;
  /** The new position to accept (the old one when HEAD did not move forward). */
  accepted: Position;
  tasks: TasksParse;
  /** The rule of the task list the iteration broke. */
  ruleBroken?: string;
  unconfirmed: ReadonlySet<string>;
}

/**
 * Reads what the iteration left — HEAD against the accepted position, tasks.json against the last
 * valid list under the mode's rules — warns about rewritten history, and remembers approvals no
 * review made.
 */
export async function observeIteration(
  baseline: Baseline,
  { mode, story }: ModeChoice,
  review: boolean,
  { git, files, report }: Pick<LoopPorts, 'git' | 'files' | 'report'>,
): Promise<Observation> {
  const { position, movement } = await observeMovement(git, baseline.accepted);
  if (movement.kind === 'rewritten') report.warning(describeRewrite(movement.rewrite));
  const tasks = await files.readTasks();
  let ruleBroken: string | undefined;
  let unconfirmed = baseline.unconfirmed;
  if (tasks.ok) {
    const id = story?.id;
    const check = { before: storyRecords(baseline.tasks.stories), after: storyRecords(tasks.tasks.stories), mode, review, source: GIT_SOURCE };
    ruleBroken = checkTransitions(id === undefined ? check : { ...check, story: id });
    if (ruleBroken !== undefined) report.warning(`the iteration broke a rule of the task list: ${ruleBroken}`);
    if (review) unconfirmed = await rememberUnconfirmed(baseline.unconfirmed, nextUnconfirmed(baseline.unconfirmed, { before: baseline.tasks, after: tasks.tasks, mode, ...(id === undefined ? {} : { story: id }) }), files);
  }
  return {
    committed: movement.kind === 'forward',
    ...(movement.kind === 'forward' ? { commit: movement.head } : {}),
    ...(movement.kind === 'rewritten' ? { rewrite: movement.rewrite } : {}),
    accepted: movement.kind === 'forward' ? position : baseline.accepted,
    tasks,
    ...(ruleBroken === undefined ? {} : { ruleBroken }),
    unconfirmed,
  };
}

/** Saves the unconfirmed approvals when they changed. */
async function rememberUnconfirmed(before: ReadonlySet<string>, after: Set<string>, files: LoopPorts['files']): Promise<Set<string>> {
  const same = before.size === after.size && [...after].every((id) => before.has(id));
  if (!same) await files.saveUnconfirmedApprovals([...after]);
  return after;
}
