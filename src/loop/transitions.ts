import type { Story } from '../domain/tasks.js';
import type { Mode } from './mode.js';

/**
 * The rules of the task list, one set for the loop's judge and the Stop hook: which changes to
 * tasks.json an iteration of each mode may make.
 */

/** One story of tasks.json: its id, and every field as written (the rules read raw fields, not the schema). */
export interface StoryRecord {
  id: string;
  fields: Readonly<Record<string, unknown>>;
}

/** The modes `.ralph-active` may name. */
export const LOOP_MODES: readonly Mode[] = ['implement', 'review', 'review-fix'];

/** The fields a review decides; in a review iteration nothing else may change. */
const REVIEW_FIELDS = ['passes', 'reviewStatus', 'reviewCount', 'reviewFeedback'];

// In ralph's records (the git dir: .git/ralph, or a linked worktree's own), which the agent may read, not write.
const SNAPSHOT_HINT = "the git dir's ralph/tasks-snapshot.json has the list as the iteration began";

export interface TransitionCheck {
  /** The stories when the iteration began. */
  before: readonly StoryRecord[];
  /** The stories now. */
  after: readonly StoryRecord[];
  mode: Mode;
  /** The story under review or under fix, when the loop names it. */
  story?: string;
  /** The review cycle is on; with --skip-review the rules about review statuses do not apply. */
  review: boolean;
  /** Where the list as it was can be found, for the fix (default: the Stop hook's snapshot). */
  source?: string;
}

type Pair = readonly [before: StoryRecord, after: StoryRecord];

/**
 * The first illegal change since the iteration began, as one line saying what to fix; undefined
 * when every change is legal.
 */
export function checkTransitions(check: TransitionCheck): string | undefined {
  const hint = check.source ?? SNAPSHOT_HINT;
  const sameStories = checkSameStories(check.before, check.after, hint);
  if (sameStories) return sameStories;
  const pairs = check.before.map((story, index) => [story, check.after[index]!] as const);
  const story = pairs.some(([before]) => before.id === check.story) ? check.story : undefined;
  switch (check.mode) {
    case 'implement':
      return checkImplement(pairs, check.review, hint);
    case 'review':
      return checkReview(pairs, story, hint);
    case 'review-fix':
      return checkReviewFix(pairs, story, hint);
  }
}

/** Stories are neither added, removed nor reordered while an iteration runs. */
function checkSameStories(
  before: readonly StoryRecord[],
  after: readonly StoryRecord[],
  hint: string,
): string | undefined {
  const was = before.map((story) => story.id);
  const now = after.map((story) => story.id);
  const removed = was.filter((id) => !now.includes(id));
  if (removed.length > 0) {
    return `ralph/tasks.json lost ${stories(removed)} during the iteration. Put ${them(removed)} back (${hint}): stories are never removed while the loop runs.`;
  }
  const added = now.filter((id) => !was.includes(id));
  if (added.length > 0) {
    return `ralph/tasks.json gained ${stories(added)} during the iteration. Remove ${them(added)} (${hint}): stories are never added while the loop runs.`;
  }
  if (was.join('\n') !== now.join('\n')) {
    return `ralph/tasks.json has its stories in a different order (was ${was.join(', ')}; now ${now.join(', ')}). Restore the original order.`;
  }
  return undefined;
}

/** At most one story newly passes, none stops passing, and only a review approves or requests changes. */
function checkImplement(pairs: readonly Pair[], review: boolean, hint: string): string | undefined {
  const unpassed = pairs.filter(([before, after]) => passes(before) && !passes(after)).map(idOf);
  if (unpassed.length > 0) {
    return `${capital(stories(unpassed))} went from passes: true to false in an implement iteration. Set passes back to true: only a review takes a story back.`;
  }
  const newlyPassing = pairs.filter(([before, after]) => !passes(before) && passes(after)).map(idOf);
  if (newlyPassing.length > 1) {
    return `${newlyPassing.length} stories were marked passes: true in one implement iteration (${newlyPassing.join(', ')}); an iteration implements one story. Set passes back to false on all but the one you finished and verified.`;
  }
  if (!review) return undefined;
  const approved = pairs.filter(([before, after]) => became(before, after, 'approved')).map(idOf);
  if (approved.length > 0) {
    return `${capital(stories(approved))} got reviewStatus "approved" in an implement iteration; only a review approves a story. Set ${them(approved)} back to "pending".`;
  }
  const sentBack = pairs.filter(([before, after]) => became(before, after, 'changes_requested')).map(idOf);
  if (sentBack.length > 0) {
    return `${capital(stories(sentBack))} got reviewStatus "changes_requested" in an implement iteration; only a review requests changes. Restore ${them(sentBack)} (${hint}).`;
  }
  return undefined;
}

/** Only the reviewed story changes, and only in its passes and review fields. */
function checkReview(pairs: readonly Pair[], story: string | undefined, hint: string): string | undefined {
  const changes = pairs
    .map(([before, after]) => ({ id: before.id, fields: changedFields(before, after) }))
    .filter((change) => change.fields.length > 0);
  let reviewed = story;
  if (reviewed === undefined) {
    const decided = changes
      .filter((change) => change.fields.some((field) => REVIEW_FIELDS.includes(field)))
      .map((change) => change.id);
    if (decided.length > 1) {
      return `A review iteration reviews one story, but the review fields of ${decided.join(' and ')} changed. Restore all but the story you reviewed (${hint}).`;
    }
    reviewed = decided[0];
  }
  for (const change of changes) {
    if (change.id !== reviewed) {
      const which = reviewed === undefined ? 'the reviewed story' : `the reviewed story ${reviewed}`;
      return `In a review iteration only ${which} may change, but story ${change.id} changed (${change.fields.join(', ')}). Restore it (${hint}).`;
    }
    const other = change.fields.filter((field) => !REVIEW_FIELDS.includes(field));
    if (other.length > 0) {
      return `In a review iteration only the passes, reviewStatus, reviewCount and reviewFeedback of story ${change.id} may change, but its ${other.join(', ')} changed too. Restore ${them(other)} (${hint}).`;
    }
  }
  return undefined;
}

/**
 * Like implement for the story under fix: it may pass again and go back to "pending"; nothing else
 * of a review changes.
 */
function checkReviewFix(pairs: readonly Pair[], story: string | undefined, hint: string): string | undefined {
  const touched = pairs.filter(([before, after]) => changedFields(before, after, REVIEW_FIELDS).length > 0);
  if (story === undefined && touched.length > 1) {
    return `A review-fix iteration fixes one story, but the passes or review fields of ${touched.map(([before]) => before.id).join(' and ')} changed. Restore all but the story you fixed (${hint}).`;
  }
  const fixed = story ?? touched[0]?.[0].id;
  for (const [before, after] of touched) {
    if (before.id !== fixed) {
      return `In a review-fix iteration only story ${fixed} may change its passes and reviewStatus, but story ${before.id}'s ${changedFields(before, after, REVIEW_FIELDS).join(', ')} changed. Restore it (${hint}).`;
    }
    if (passes(before) && !passes(after)) {
      return `Story ${before.id} went from passes: true to false in a review-fix iteration. Set passes back to true once the fix is done and verified.`;
    }
    if (!isEqual(before.fields.reviewStatus, after.fields.reviewStatus) && after.fields.reviewStatus !== 'pending') {
      return `Story ${before.id}'s reviewStatus may only go back to "pending" in a review-fix iteration (it is now ${JSON.stringify(after.fields.reviewStatus)}); the next review decides. Set it to "pending".`;
    }
    const kept = changedFields(before, after, ['reviewCount', 'reviewFeedback']);
    if (kept.length > 0) {
      return `Story ${before.id}'s ${kept.join(' and ')} must stay as the reviewer left ${them(kept)} in a review-fix iteration. Restore ${them(kept)} (${hint}).`;
    }
  }
  return undefined;
}

/** The stories of a parsed task list, as the rules read them. */
export function storyRecords(stories: readonly Story[]): StoryRecord[] {
  return stories.map((story) => ({ id: story.id, fields: story }));
}

function became(before: StoryRecord, after: StoryRecord, status: string): boolean {
  return after.fields.reviewStatus === status && before.fields.reviewStatus !== status;
}

function passes(story: StoryRecord): boolean {
  return story.fields.passes === true;
}

function idOf([before]: Pair): string {
  return before.id;
}

/** The names of the fields that differ, among `keys` (default: every field either has). */
function changedFields(before: StoryRecord, after: StoryRecord, keys?: readonly string[]): string[] {
  const names = keys ?? [...new Set([...Object.keys(before.fields), ...Object.keys(after.fields)])];
  return names.filter((name) => !isEqual(before.fields[name], after.fields[name]));
}

/** Deep equality of JSON values; key order does not matter. */
export function isEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const left = a as Record<string, unknown>;
  const right = b as Record<string, unknown>;
  const keys = Object.keys(left);
  if (keys.length !== Object.keys(right).length) return false;
  return keys.every((key) => Object.hasOwn(right, key) && isEqual(left[key], right[key]));
}

function stories(ids: readonly string[]): string {
  return ids.length === 1 ? `story ${ids[0]}` : `stories ${ids.join(', ')}`;
}

function them(ids: readonly string[]): string {
  return ids.length === 1 ? 'it' : 'them';
}

function capital(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
