import type { Mode } from '../loop/mode.js';
import { checkTransitions } from '../loop/transitions.js';
import { parseStories } from './task-stories.js';
import type { Uncommitted } from './uncommitted.js';

/** Whether the agent may stop now; when not, the one thing to fix first. */
export type StopDecision = { allow: true } | { allow: false; reason: string };

export interface StopChecks {
  /** ralph/tasks.json as it was when the iteration began. */
  snapshotText: string;
  /** ralph/tasks.json now; undefined when it is gone. */
  tasksText: string | undefined;
  mode: Mode;
  /** The story under review or under fix, when the loop names it. */
  story?: string;
  /** The review cycle is on (false under --skip-review). */
  review?: boolean;
  /** Asked last, and only when the task list is in order: git is the slowest check. */
  uncommitted: () => Promise<Uncommitted>;
}

/**
 * Runs the checks in order — a sound task list with the same stories, legal transitions for the
 * mode, nothing uncommitted — and stops at the first that fails.
 */
export async function decideStop(checks: StopChecks): Promise<StopDecision> {
  const taskList = checkTaskList(checks);
  if (taskList) return { allow: false, reason: taskList };
  const uncommitted = await checks.uncommitted();
  if (uncommitted.total > 0) return { allow: false, reason: describeUncommitted(uncommitted) };
  return { allow: true };
}

/** Checks (1) and (2): what is wrong with tasks.json, or undefined. */
function checkTaskList(checks: StopChecks): string | undefined {
  if (checks.tasksText === undefined) {
    return "ralph/tasks.json is missing. Restore it (the git dir's ralph/tasks-snapshot.json has it as the iteration began) and commit it.";
  }
  const now = parseStories(checks.tasksText);
  if (!now.ok) return `ralph/tasks.json ${now.problem}. Fix it (ralph reads it after every iteration) and commit it.`;
  const before = parseStories(checks.snapshotText);
  // An iteration that began with a broken list was asked to repair it: there is nothing to compare with.
  if (!before.ok) return undefined;
  return checkTransitions({
    before: before.stories,
    after: now.stories,
    mode: checks.mode,
    story: checks.story,
    review: checks.review ?? true,
  });
}

/** `Uncommitted changes: src/a.ts, new.txt and 3 more. Commit them …` */
export function describeUncommitted(uncommitted: Uncommitted): string {
  const more = uncommitted.total - uncommitted.paths.length;
  const list = uncommitted.paths.join(', ') + (more > 0 ? ` and ${more} more` : '');
  return `Uncommitted changes: ${list}. Commit them (git add -A && git commit) before stopping.`;
}
