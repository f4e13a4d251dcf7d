/** The stuck count after an iteration: reset by a new commit, otherwise one more strike. */
export function nextStuckCount(previous: number, committed: boolean): number {
  return committed ? 0 : previous + 1;
}

/** Whether HEAD moved to a commit during the iteration (an unborn HEAD's first commit counts). */
export function hasNewCommit(before: string | null, after: string | null): boolean {
  return after !== null && after !== before;
}
