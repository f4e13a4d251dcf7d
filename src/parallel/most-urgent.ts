import { exitCodeFor, type Ending } from '../loop/termination.js';

/**
 * Endings from the most urgent down, as their exit codes (exitCodeFor chooses them). A stop the
 * user asked for (a signal) and a fault in ralph come first: the parallel run did not do what it
 * set out to, whatever the others did. Then the documented order: set-up 64 > blocked 2 > decide 3
 * > limits 4 > max iterations 1 > complete 0.
 */
const URGENCY: readonly number[] = (
  [
    { reason: 'interrupted', signal: 'SIGINT' },
    { reason: 'interrupted', signal: 'SIGTERM' },
    { reason: 'interrupted', signal: 'SIGHUP' },
    { reason: 'internal_error', message: '' },
    { reason: 'io_error', message: '' },
    { reason: 'setup', message: '' },
    { reason: 'blocked', message: '' },
    { reason: 'decide', question: '' },
    { reason: 'stuck', stuckCount: 0 },
    { reason: 'max_iterations' },
    { reason: 'complete' },
  ] satisfies Ending[]
).map(exitCodeFor);

/** A code ralph never returns (a child killed outright, a crash): ranked with ralph's own faults. */
const UNKNOWN_RANK = URGENCY.indexOf(exitCodeFor({ reason: 'internal_error', message: '' }));

function rank(code: number): number {
  const at = URGENCY.indexOf(code);
  return at === -1 ? UNKNOWN_RANK : at;
}

/** The exit code of many loops: the most urgent of theirs; 0 when there were none. */
export function mostUrgent(codes: readonly number[]): number {
  let worst: number | undefined;
  for (const code of codes) if (worst === undefined || rank(code) < rank(worst)) worst = code;
  return worst ?? 0;
}
