import type { TaskList, TasksParse } from '../domain/tasks.js';
import { approvedIds, nextUnconfirmed } from './approvals.js';
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
  /**
   * The last list that kept the task list's rules: what the rules judge the next list against. A
   * broken rule stays broken until the agent undoes the change (an identical COMPLETE is rejected again).
   */
  keptRules: TaskList;
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
 * valid list under the mode's rules — warns about rewritten history and broken rules, and
 * remembers approvals no review made.
 */
export async function observeIteration(
  baseline: Baseline,
  choice: ModeChoice,
  review: boolean,
  ports: Pick<LoopPorts, 'git' | 'files' | 'report'>,
): Promise<Observation> {
  const { position, movement } = await observeMovement(ports.git, baseline.accepted);
  if (movement.kind === 'rewritten') ports.report.warning(describeRewrite(movement.rewrite));
  const tasks = await ports.files.readTasks();
  const { ruleBroken, unconfirmed } = tasks.ok
    ? await judgeTasks(baseline, tasks.tasks, choice, review, ports)
    : { unconfirmed: baseline.unconfirmed };
  return {
    committed: movement.kind === 'forward',
    ...(movement.kind === 'forward' ? { commit: movement.head } : {}),
    ...(movement.kind === 'rewritten' ? { rewrite: movement.rewrite } : {}),
    accepted: movement.kind === 'forward' ? position : baseline.accepted,
    tasks,
    ruleBroken,
    unconfirmed,
  };
}

/** The rule a valid new task list broke, if any, and the approvals no review made (saved when they changed). */
async function judgeTasks(
  baseline: Baseline,
  after: TaskList,
  { mode, story }: ModeChoice,
  review: boolean,
  { files, report }: Pick<LoopPorts, 'files' | 'report'>,
): Promise<{ ruleBroken: string | undefined; unconfirmed: ReadonlySet<string> }> {
  const about = story ? { story: story.id } : {};
  const ruleBroken = checkTransitions({
    before: storyRecords(baseline.keptRules.stories),
    after: storyRecords(after.stories),
    mode,
    review,
    source: GIT_SOURCE,
    ...about,
  });
  if (ruleBroken !== undefined) report.warning(`the iteration broke a rule of the task list: ${ruleBroken}`);
  const stories = after.stories.map((each) => each.id);
  if (!review) {
    if (ruleBroken === undefined) await files.recordList({ stories });
    return { ruleBroken, unconfirmed: baseline.unconfirmed };
  }
  const before = baseline.unconfirmed;
  const unconfirmed = nextUnconfirmed(before, { before: baseline.tasks, after, mode, ...about });
  if (unconfirmed.size !== before.size || [...unconfirmed].some((id) => !before.has(id)))
    await files.saveUnconfirmedApprovals([...unconfirmed]);
  const approved = approvedIds(after).filter((id) => !unconfirmed.has(id));
  await files.recordList(ruleBroken === undefined ? { stories, approved } : { stories: [], approved });
  return { ruleBroken, unconfirmed };
}
