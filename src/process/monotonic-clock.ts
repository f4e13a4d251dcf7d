/**
 * Milliseconds from an arbitrary origin, never going back and never stepping: the clock of the
 * loop's durations and of the kernel's readiness. Not performance.now(): its first call loads
 * perf_hooks, a millisecond on the way to a run's first agent.
 */
export function monotonicMs(): number {
  return Number(process.hrtime.bigint()) / 1e6;
}
