import type { AgentInterrupts } from '../agent/spawn-agent.js';
import type { Interrupts } from '../loop/ports.js';
import type { InterruptSignal } from '../loop/termination.js';

/** ralph's own SIGINT/SIGTERM handling, as the loop and the agent runner see it. */
export interface InterruptHandling extends Interrupts, AgentInterrupts {
  dispose(): void;
}

/**
 * Catches SIGINT, SIGTERM and SIGHUP for the length of a run. The first asks the agent's process
 * group to stop (the loop then records the iteration and prints its summary); the second
 * kills it at once.
 */
export function installInterrupts(onSignal: (signal: InterruptSignal, count: number) => void): InterruptHandling {
  const graceful = new AbortController();
  const force = new AbortController();
  let first: InterruptSignal | undefined;
  let count = 0;
  const handle = (signal: InterruptSignal) => {
    count++;
    first ??= signal;
    onSignal(signal, count);
    if (count === 1) graceful.abort();
    else force.abort();
  };
  const onInt = () => handle('SIGINT');
  const onTerm = () => handle('SIGTERM');
  // A closed terminal or a dropped SSH session: the agent runs in its own group and would live on.
  const onHup = () => handle('SIGHUP');
  process.on('SIGINT', onInt);
  process.on('SIGTERM', onTerm);
  process.on('SIGHUP', onHup);
  return {
    graceful: graceful.signal,
    force: force.signal,
    received: () => first,
    dispose() {
      process.off('SIGINT', onInt);
      process.off('SIGTERM', onTerm);
      process.off('SIGHUP', onHup);
    },
  };
}
