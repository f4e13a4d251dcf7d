/** Where the extra task lists live, under the repository root. */
export const LISTS_DIR = 'ralph/lists';

/** Where the loops' worktrees live, under the repository root. */
export const WORKTREES_DIR = 'ralph/worktrees';
