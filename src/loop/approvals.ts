import type { TaskList } from '../domain/tasks.js';
import type { Mode } from './mode.js';

/** What one iteration did to the task list, for the approvals it made. */
export interface ApprovalChange {
  before: TaskList;
  after: TaskList;
  mode: Mode;
  /** The story the iteration was about (the one a review iteration reviews). */
  story?: string;
}

/**
 * The approvals ralph did not see a review make, after one iteration. A story that became
 * approved counts only when it is the story a review iteration was reviewing; any other new
 * approval (an implement or fix iteration, another story's review, a hand edit during the run)
 * stays unconfirmed until a review iteration of that story leaves it approved. A story that is no
 * longer approved needs no confirmation. Approvals present when the run started are not in the set.
 */
export function nextUnconfirmed(
  unconfirmed: ReadonlySet<string>,
  { before, after, mode, story }: ApprovalChange,
): Set<string> {
  const wasApproved = new Set(before.stories.filter((each) => each.reviewStatus === 'approved').map((each) => each.id));
  const next = new Set<string>();
  for (const { id, reviewStatus } of after.stories) {
    if (reviewStatus !== 'approved') continue;
    const reviewedHere = mode === 'review' && story === id;
    if (reviewedHere) continue;
    if (unconfirmed.has(id) || !wasApproved.has(id)) next.add(id);
  }
  return next;
}

/**
 * The unconfirmed approvals a run starts with: those remembered that are still approved (a human
 * who reset one settled it).
 */
export function startingUnconfirmed(remembered: readonly string[], tasks: TaskList): Set<string> {
  const approved = new Set(tasks.stories.filter((story) => story.reviewStatus === 'approved').map((story) => story.id));
  return new Set(remembered.filter((id) => approved.has(id)));
}

/** The ids of the approved stories, as ralph sees the list now. */
export function approvedIds(tasks: TaskList): string[] {
  return tasks.stories.filter((story) => story.reviewStatus === 'approved').map((story) => story.id);
}

/**
 * Approvals made since ralph last looked (`seen`, recorded as each iteration started): after a run
 * that was killed before it could judge its iteration, these are claims no one checked.
 */
export function approvedSince(seen: readonly string[], tasks: TaskList): string[] {
  const looked = new Set(seen);
  return approvedIds(tasks).filter((id) => !looked.has(id));
}
