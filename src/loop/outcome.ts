import type { AgentRun, Outcome } from './port-data.js';
import { unreachable } from './termination.js';

/** Why an iteration ended: ralph stopping the agent first, then how the agent failed, then a cut-off stream. */
export function outcomeOf(run: AgentRun): Outcome {
  if (run.stoppedBy) {
    const { cause } = run.stoppedBy;
    return cause === 'interrupt' ? 'interrupted' : cause;
  }
  if (run.failure) {
    switch (run.failure.kind) {
      case 'auth':
        return 'agent_auth';
      case 'setup':
        return 'agent_setup';
      case 'usage_limit':
        return 'usage_limit';
      case 'error':
        return 'agent_error';
      default:
        return unreachable(run.failure);
    }
  }
  return run.truncated ? 'truncated' : 'ok';
}

/** Whether ralph ended the iteration itself (timeouts, repetition, interrupts): not the agent's doing. */
export function wasStoppedByRalph(outcome: Outcome): boolean {
  return ['timeout', 'idle_timeout', 'max_runtime', 'repetition', 'interrupted'].includes(outcome);
}
