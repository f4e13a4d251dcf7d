/** Whether HEAD moved to a commit during the iteration (an unborn HEAD's first commit counts). */
export function hasNewCommit(before: string | null, after: string | null): boolean {
  return after !== null && after !== before;
}
