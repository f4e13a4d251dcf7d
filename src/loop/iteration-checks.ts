// The checks an iteration earns once its agent is done: the project's quality gates, and ralph's own review count.
import type { TaskList } from '../domain/tasks.js';
import type { IterationFacts } from './judge-inputs.js';
import { isVerifiedComplete } from './judge.js';
import type { LoopSettings } from './loop-state.js';
import type { LoopPorts } from './ports.js';
import type { GateTrigger } from './port-data.js';

/** Runs the quality gates when the iteration earned it: a verified COMPLETE claim, or (gatesWhen commit) a commit. */
export async function checkGates(
  { iteration, deadline }: { iteration: number; deadline: number },
  claim: Parameters<typeof isVerifiedComplete>[0],
  committed: boolean,
  settings: LoopSettings,
  { gates, interrupts }: LoopPorts,
): Promise<IterationFacts['gates']> {
  // A claim stands on its work, even when a time limit stopped the agent afterwards.
  if (!gates) return undefined;
  const trigger: GateTrigger | undefined = isVerifiedComplete(claim, settings)
    ? 'complete'
    : settings.gatesWhen === 'commit' && committed
      ? 'commit'
      : undefined;
  if (!trigger) return undefined;
  // An interrupt judges nothing, even one that came after the agent ended: gates it kept from
  // running did not pass, so a run with gates never ends complete unchecked.
  if (interrupts.received()) return { trigger, verdict: { passed: false, interrupted: true } };
  return { trigger, verdict: await gates.check({ iteration, trigger, deadline }) };
}

/**
 * After a review iteration: when the review sent the story back, ralph's own count for it goes
 * up (the agent's reviewCount is informational); at --max-reviews a human must look.
 */
export async function countReview(
  storyId: string,
  tasks: TaskList,
  settings: LoopSettings,
  { files }: LoopPorts,
): Promise<IterationFacts['reviewCap']> {
  const reviewed = tasks.stories.find((story) => story.id === storyId);
  if (reviewed?.reviewStatus !== 'changes_requested') return undefined;
  const count = await files.recordReviewRejection(storyId);
  if (count < settings.maxReviews) return undefined;
  return { id: storyId, count, ...(reviewed.reviewFeedback ? { feedback: reviewed.reviewFeedback } : {}) };
}
