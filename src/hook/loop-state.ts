import type { Mode } from '../loop/mode.js';
import { LOOP_MODES } from '../loop/transitions.js';

/** What the hook needs of a live `.ralph-active`. */
export interface LoopState {
  run: string;
  iteration: number;
  mode: Mode;
  /** The story under review or under fix; absent in implement mode. */
  story?: string;
  /** The review cycle is on (false under --skip-review). */
  review: boolean;
}

/**
 * Reads the hook's view of the running loop out of `.ralph-active`'s JSON. A missing mode is
 * `implement` (a loop from before the review cycle); anything malformed is an error, which the
 * hook logs and lets the stop through.
 */
export function toLoopState(active: Record<string, unknown>): LoopState {
  const { startedAt, iteration, mode = 'implement', story, review } = active;
  if (!Number.isInteger(iteration)) throw new Error(`ralph/.ralph-active has no integer "iteration"`);
  if (!LOOP_MODES.includes(mode as Mode))
    throw new Error(`ralph/.ralph-active has an unknown mode ${JSON.stringify(mode)}`);
  return {
    run: typeof startedAt === 'string' ? startedAt : '',
    iteration: iteration as number,
    mode: mode as Mode,
    story: typeof story === 'string' || typeof story === 'number' ? String(story) : undefined,
    review: review !== false,
  };
}
