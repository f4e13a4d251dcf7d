/** A list as the scheduler sees it: a name, and the lists that must end COMPLETE before it starts. */
export interface Schedulable {
  name: string;
  dependsOn: readonly string[];
}

/** How one loop ended: its exit code and reason (as its child process and its record say). */
export interface LoopEnd {
  exitCode: number;
  reason: string;
}

/** What became of each list: its loop ran and ended so, or it never started, and why. */
export type ListOutcome = ({ state: 'ran' } & LoopEnd) | { state: 'not_started'; why: string };

export interface SchedulerPorts<L extends Schedulable> {
  /** Runs one list's loop to its end (a child process); never rejects. */
  run(list: L): Promise<LoopEnd>;
  /** The run was asked to stop (Ctrl-C, --max-total-cost): no further loop starts. */
  stopping(): string | undefined;
}

/**
 * Runs the lists' loops, at most `jobs` at once, each as soon as a slot is free and the lists it
 * depends on ended COMPLETE; a list whose dependency ended otherwise (or never started) does not
 * start. Lists start in the order given. Resolves once every loop ended, with each list's outcome.
 */
export async function schedule<L extends Schedulable>(
  lists: readonly L[],
  jobs: number,
  ports: SchedulerPorts<L>,
): Promise<Map<string, ListOutcome>> {
  const outcomes = new Map<string, ListOutcome>();
  const pending = [...lists];
  const running = new Set<Promise<void>>();
  const fill = () => {
    for (const list of [...pending]) {
      const verdict = readiness(list, outcomes, ports.stopping());
      if (verdict === 'wait' || (verdict === 'start' && running.size >= jobs)) continue;
      pending.splice(pending.indexOf(list), 1);
      if (verdict !== 'start') {
        outcomes.set(list.name, { state: 'not_started', why: verdict.why });
        // A list that will not start may keep others from starting: look again from the top.
        fill();
        return;
      }
      const loop: Promise<void> = ports.run(list).then((end) => {
        outcomes.set(list.name, { state: 'ran', ...end });
        running.delete(loop);
      });
      running.add(loop);
    }
  };
  fill();
  while (running.size > 0) {
    await Promise.race(running);
    fill();
  }
  // Only a cycle (refused when the lists are read) could leave a list here; say so rather than hang.
  for (const list of pending) outcomes.set(list.name, { state: 'not_started', why: 'its dependencies never ended' });
  return outcomes;
}

/** Whether a list may start now, must wait for a dependency, or will never start. */
function readiness(
  list: Schedulable,
  outcomes: ReadonlyMap<string, ListOutcome>,
  stopping: string | undefined,
): 'start' | 'wait' | { why: string } {
  if (stopping !== undefined) return { why: stopping };
  for (const other of list.dependsOn) {
    const outcome = outcomes.get(other);
    if (outcome === undefined) return 'wait';
    if (outcome.state === 'not_started') return { why: `${other} did not start` };
    if (outcome.reason !== 'complete') return { why: `${other} ended ${outcome.reason}` };
  }
  return 'start';
}
