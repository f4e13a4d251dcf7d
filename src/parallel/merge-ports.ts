import { findGitDirs, type GitDirs } from '../git/head-file.js';
import { reachesThroughLooseCommits } from '../git/loose-commits.js';
import { commitsOf, mergedCommits } from '../git/merge-check.js';
import type { MergePorts } from './merge-watch.js';

/**
 * The merge check's git for the repository at `root`: every branch of a round resolved by one
 * `git cat-file`, two commits merged by `git merge-tree`, and the ancestry of the loops' new
 * commits read from their loose objects (undefined, so asked of git, when they do not settle it).
 */
export function gitMergePorts(root: string): MergePorts {
  let dirs: Promise<GitDirs | undefined> | undefined;
  return {
    check: async (ours, theirs) => {
      const merged = await mergedCommits(root, ours, theirs);
      return merged.state === 'clean' ? { state: 'clean' } : merged;
    },
    resolve: (branches) => commitsOf(root, branches, {}),
    reaches: async (ancestor, descendant) => {
      const found = await (dirs ??= findGitDirs(root));
      return found && reachesThroughLooseCommits(found, ancestor, descendant);
    },
  };
}
