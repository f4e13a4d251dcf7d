import { readIndexPaths, type IndexPaths } from './index-file.js';
import { runGit } from './safe-git.js';

/** A gitlink's mode, then the separator of the format in use. */
const GITLINK = /^160000[ \t]/;

/**
 * The paths the work tree at `root` has gitlinks at (a commit of another repository, mode 160000):
 * in its index, which a plain `git status` walks into where such a folder holds a `.git`, and in
 * HEAD, which a `git reset` or `git restore` puts back into the index. Each path is one a nested
 * repository could be entered at; it is the agent's to write, so only safePaths of it are kept.
 */
export async function gitlinkPaths(root: string): Promise<string[]> {
  // One git for both where it can (git 2.38's --format); else an older git, or no commit yet.
  const both = await runGit(root, ['ls-files', '-z', '--format=%(objectmode)%x09%(path)', '--with-tree=HEAD']);
  const listed =
    both.exitCode === 0
      ? [both]
      : await Promise.all([
          runGit(root, ['ls-files', '--stage', '-z']),
          runGit(root, ['ls-tree', '-r', '-z', '--full-tree', 'HEAD']),
        ]);
  // An index git cannot read, git status cannot either.
  const output = listed.filter((result) => result.exitCode === 0).map((result) => result.stdout);
  return [...new Set(output.flatMap(gitlinksIn))].filter(safePath);
}

/**
 * The index's gitlinks, which a plain `git status` walks into: read from the index file where it
 * settles them (index-file.ts), after each command in the box, so that no git starts there; else
 * git's, HEAD's included. HEAD's own are looked at as the box is made (gitlinkPaths): one that only
 * HEAD has is entered only after a `git reset` of yours, like an untracked repository after your
 * `git add` (docs/sandbox.md).
 */
export async function indexGitlinkPaths(root: string): Promise<string[]> {
  return gitlinksOf(root, await readIndexPaths(root));
}

/** indexGitlinkPaths from an index already read (readIndexPaths), or from git where it did not settle them. */
export async function gitlinksOf(root: string, index: IndexPaths | undefined): Promise<string[]> {
  return index ? [...new Set(index.gitlinks)].filter(safePath) : gitlinkPaths(root);
}

/**
 * The gitlinks in `ls-files -z` output, as `--format=%(objectmode)%x09%(path)` or `--stage` prints
 * it (`<mode> <hash> <stage>\t<path>`), or `ls-tree -z`'s (`<mode> commit <hash>\t<path>`).
 */
export function gitlinksIn(output: string): string[] {
  return output
    .split('\0')
    .filter((record) => GITLINK.test(record))
    .map((record) => record.slice(record.indexOf('\t') + 1))
    .filter((path) => path !== '');
}

/**
 * Whether a path from the index or a tree is one ralph may act below: relative, and without an
 * empty, `.`, `..` or `.git` part. git refuses to write such paths, but the agent can write the
 * index's and the objects' bytes itself, and `../other/.git` is another repository of yours.
 */
export function safePath(path: string): boolean {
  if (path.startsWith('/') || path.includes('\\')) return false;
  return path.split('/').every((part) => part !== '' && part !== '.' && part !== '..' && part.toLowerCase() !== '.git');
}
