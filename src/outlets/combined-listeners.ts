import type { RalphError } from '../errors.js';
import type { EndingNote, RunEvents, RunListener } from './run-listener.js';

/**
 * The run's listeners as one reporter: each event goes to every listener that hears it, in the
 * table's order (wireit's combination logger). A pause's display ends for all of them at once. An
 * iteration's end is the one event a listener may answer with a promise (a record it writes): the
 * next listener hears it once that is written, and the loop goes on once every one has.
 */
export function combinedEvents(listeners: readonly RunListener[]): RunEvents {
  const heard = listeners.flatMap((listener) => (listener.events ? [listener.events] : []));
  const each =
    <K extends keyof RunEvents>(key: K) =>
    (...args: Parameters<RunEvents[K]>) => {
      for (const events of heard) (events[key] as ((...given: typeof args) => unknown) | undefined)?.(...args);
    };
  return {
    iterationStarted: each('iterationStarted'),
    async iterationFinished(event) {
      // In the table's order, each once the one before has written what it keeps (summary.csv's row).
      for (const events of heard) await events.iterationFinished?.(event);
    },
    completeRejected: each('completeRejected'),
    warning: each('warning'),
    toolCall: each('toolCall'),
    usage: each('usage'),
    abandon: each('abandon'),
    usageLimitWait(wait) {
      const ends = heard.map((events) => events.usageLimitWait?.(wait));
      return () => {
        for (const end of ends) end?.();
      };
    },
  };
}

/**
 * Sends the ending to every listener that hears it, one after another. A failing one is one
 * warning line and never changes the outcome; resolves to how many failed.
 */
export async function fanOut(
  listeners: readonly RunListener[],
  note: EndingNote,
  warn: (line: string) => void,
): Promise<number> {
  let failed = 0;
  for (const listener of listeners) {
    try {
      await listener.deliver?.(note);
    } catch (error) {
      failed += 1;
      warn(`ralph: warning: the ${listener.name} could not be written: ${(error as Error).message}`);
    }
  }
  return failed;
}

/** A start refused before the lock, told to every listener that hears it (on Actions: the annotation and outputs). */
export async function hearRefusal(listeners: readonly RunListener[], error: RalphError): Promise<void> {
  for (const listener of listeners) await listener.refused?.(error);
}
