import { findGitDirs, type GitDirs } from '../git/head-file.js';
import { reachesThroughLooseCommits } from '../git/loose-commits.js';
import { commitOf, commitsOf, mergedCommits } from '../git/merge-check.js';
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
    resolve: async (branches) => {
      // A branch is its refs/heads/ ref: a tag or a file under .git named like it is not the branch.
      const refs = branches.map(headRef);
      const commits = await commitsOf(root, refs, {}).catch(async () => {
        // One branch git cannot read (a corrupt object) must not blind the check of all the others.
        const each = await Promise.all(
          refs.map(async (ref) => [ref, await commitOf(root, ref, {}).catch(() => undefined)]),
        );
        return new Map(each as [string, string | undefined][]);
      });
      return new Map(branches.map((branch, index) => [branch, commits.get(refs[index] as string)]));
    },
    reaches: async (ancestor, descendant) => {
      const found = await (dirs ??= findGitDirs(root));
      return found && (await reachesThroughLooseCommits(found, ancestor, descendant).catch(() => undefined));
    },
  };
}

/** The ref of a branch name; HEAD (a detached base) and full refs as they are. */
function headRef(branch: string): string {
  return branch === 'HEAD' || branch.startsWith('refs/') ? branch : `refs/heads/${branch}`;
}
