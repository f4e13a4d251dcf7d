import type { Stopper } from './stopper.js';
import { AwakeClock } from '../process/awake-clock.js';

/**
 * The iteration and idle timers, on awake time (a machine asleep, or ralph and its agent stopped,
 * use neither up), and --max-runtime's end on the wall clock; returns what clears them.
 */
export function startTimers(
  options: { iterationTimeoutMs: number; idleTimeoutMs: number },
  stopper: Pick<Stopper, 'stop'>,
  deadline: number | undefined,
  streams: NodeJS.ReadableStream[],
): () => void {
  const awake = new AwakeClock();
  const total = awake.timer(options.iterationTimeoutMs, () => stopper.stop({ cause: 'timeout' }));
  const idle = awake.timer(options.idleTimeoutMs, () => stopper.stop({ cause: 'idle_timeout' }));
  // At most what a timer can hold (24.8 days); a longer run's end is met again by the next iteration.
  const untilDeadline = deadline === undefined ? undefined : Math.min(MAX_TIMER_MS, Math.max(0, deadline - Date.now()));
  const runtime =
    untilDeadline === undefined ? undefined : setTimeout(() => stopper.stop({ cause: 'max_runtime' }), untilDeadline);
  const onActivity = () => idle.refresh();
  for (const stream of streams) stream.on('data', onActivity);
  return () => {
    total.clear();
    idle.clear();
    clearTimeout(runtime);
    for (const stream of streams) stream.off('data', onActivity);
  };
}

const MAX_TIMER_MS = 2 ** 31 - 1;
