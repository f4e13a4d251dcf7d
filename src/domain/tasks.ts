/** One story of the task list. Keys ralph does not know are kept: the loop checks the agent leaves them alone. */
export interface Story {
  id: string;
  title: string;
  description?: string;
  acceptanceCriteria?: string[];
  priority?: number;
  passes: boolean;
  notes?: string;
  // The review cycle's fields; the agent's reviewCount is informational (ralph counts itself).
  reviewStatus?: 'pending' | 'changes_requested' | 'approved';
  reviewCount?: number;
  reviewFeedback?: string;
  [key: string]: unknown;
}

/** The task list, whichever key its stories came under. */
export interface TaskList {
  project?: string;
  branchName?: string;
  description?: string;
  /** The task list is still the example `ralph init` wrote. */
  example?: boolean;
  /** Names of other lists under ralph/lists/ that must end COMPLETE before this one starts. */
  dependsOn?: string[];
  stories: Story[];
}

/** Why a tasks.json text is not a task list: one line, naming the place. */
export type TasksParse = { ok: true; tasks: TaskList } | { ok: false; error: string };

/**
 * Whether stories must also be approved by a review iteration to count as complete, and the
 * approvals no review iteration made (they count only once a review confirms them).
 */
export type ReviewPolicy = { review: boolean; unconfirmed?: ReadonlySet<string> };

/** Stories done and in all. */
export function countStories(tasks: TaskList, policy: ReviewPolicy): { complete: number; total: number } {
  return {
    complete: tasks.stories.filter((story) => isStoryComplete(story, policy)).length,
    total: tasks.stories.length,
  };
}

/** A story is complete when it passes — and, with the review cycle on, a review approved it. */
export function isStoryComplete(story: Story, { review, unconfirmed }: ReviewPolicy): boolean {
  return story.passes && (!review || (story.reviewStatus === 'approved' && !unconfirmed?.has(story.id)));
}

/** Stories not complete yet, highest priority (lowest number) first. */
export function openStories(tasks: TaskList, policy: ReviewPolicy): Story[] {
  return byPriority(tasks.stories.filter((story) => !isStoryComplete(story, policy)));
}

/** Stories in the order they are worked on: lowest priority number first, list order on ties. */
export function byPriority(stories: readonly Story[]): Story[] {
  return [...stories].sort((a, b) => (a.priority ?? Infinity) - (b.priority ?? Infinity));
}
