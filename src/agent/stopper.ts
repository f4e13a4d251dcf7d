import type { StopCause } from '../loop/port-data.js';

/**
 * Records why ralph stops an agent. Timeouts, repetition and interrupts race; whichever fires
 * first is the cause, and only it triggers the stop.
 */
export class Stopper {
  private first: StopCause | undefined;

  constructor(private readonly onStop: (cause: StopCause) => void) {}

  stop(cause: StopCause): void {
    if (this.first) return;
    this.first = cause;
    this.onStop(cause);
  }

  get cause(): StopCause | undefined {
    return this.first;
  }
}
