/**
 * Uncommitted paths of a work tree (relative to its root) and a hash of each one's content;
 * `deleted` when it is gone. git/work-tree.ts reads them; the run state keeps the ones a run left
 * behind, so a later start can tell whether a person changed anything since.
 */
export type WorkTreeChanges = Record<string, string>;
