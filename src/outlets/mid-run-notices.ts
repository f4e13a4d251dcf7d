import type { LoopReporter } from '../loop/ports.js';
import { combinedEvents } from './combined-listeners.js';
import type { Notifier } from './notifier.js';
import type { RunEvents } from './run-listener.js';

/**
 * The loop already reports the two mid-run moments worth a notification; the notifications listen
 * to its events rather than giving the loop another port. A usage-limit wait (or a --max-usage
 * one) notifies with its reset; the strike that leaves one more before --max-stuck notifies once.
 * A network outage mid-run notifies once, at its first pause (not at every retry of it). The
 * notification is sent aside: the loop is never held up by it.
 */
export function midRunNotices(
  notifier: Notifier,
  maxStuck: number,
): Pick<RunEvents, 'usageLimitWait' | 'iterationFinished'> {
  let stuckBefore = 0;
  let outage = false;
  return {
    usageLimitWait: (wait) => {
      if (wait.why === 'usage_limit' || wait.why === 'max_usage') {
        const resetsAt = new Date(wait.resetsAt ?? wait.until).toISOString();
        notifier.notifyLater({ event: 'usage_limit_wait', resetsAt, why: wait.why });
      }
      if (wait.why === 'network' && !outage) {
        const retryAt = new Date(wait.until).toISOString();
        notifier.notifyLater({ event: 'network_wait', retryAt, message: wait.message });
      }
      outage = wait.why === 'network';
      return () => undefined;
    },
    iterationFinished: (event) => {
      // An iteration that did not fail for the network ends the outage: the next one notifies again.
      if (event.failure?.kind !== 'setup' || event.failure.cause !== 'network') outage = false;
      const { stuckCount, iteration } = event.row;
      if (stuckCount > stuckBefore && stuckCount === maxStuck - 1)
        notifier.notifyLater({ event: 'stuck_warning', iteration, stuckCount, maxStuck });
      stuckBefore = stuckCount;
    },
  };
}

/** A reporter that also sends the mid-run notices: the two heard together, the notices first. */
export function withNotices<R extends LoopReporter>(reporter: R, notifier: Notifier, maxStuck: number): R {
  const both = combinedEvents([
    { name: 'notifications', events: midRunNotices(notifier, maxStuck) },
    { name: 'reporter', events: reporter },
  ]);
  return {
    ...reporter,
    usageLimitWait: (wait) => both.usageLimitWait(wait),
    iterationFinished: (event) => both.iterationFinished(event),
  };
}
