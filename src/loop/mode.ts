import { byPriority, type ReviewPolicy, type Story, type TaskList } from '../domain/tasks.js';

/** What an iteration is for: building a story, reviewing one, or fixing one a review sent back. */
export type Mode = 'implement' | 'review' | 'review-fix';

/** The mode of the next iteration and the story it is about: a review is always of one story. */
export type ModeChoice = { mode: 'implement'; story?: Story } | { mode: 'review' | 'review-fix'; story: Story };

/**
 * Picks the next iteration's mode from tasks.json: a passing story that awaits review
 * (reviewStatus missing or pending, or an approval no review made) is reviewed first, then a
 * story sent back is fixed, otherwise the next story is implemented. Without the review cycle
 * every iteration implements.
 */
export function chooseMode(tasks: TaskList, { review, unconfirmed }: ReviewPolicy): ModeChoice {
  const stories = byPriority(tasks.stories);
  if (review) {
    const awaitsReview = (story: Story) =>
      story.reviewStatus === undefined ||
      story.reviewStatus === 'pending' ||
      (story.reviewStatus === 'approved' && unconfirmed?.has(story.id) === true);
    const toReview = stories.find((story) => story.passes && awaitsReview(story));
    if (toReview) return { mode: 'review', story: toReview };
    const toFix = stories.find((story) => story.reviewStatus === 'changes_requested');
    if (toFix) return { mode: 'review-fix', story: toFix };
  }
  const next = stories.find((story) => !story.passes);
  return next ? { mode: 'implement', story: next } : { mode: 'implement' };
}
