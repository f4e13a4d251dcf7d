import { lstat, readdir, readlink, realpath } from 'node:fs/promises';
import type { Stats } from 'node:fs';
import { join } from 'node:path';
import { readOwnFileNoLink } from '../files/own-file.js';
import { findGitDirs } from '../git/head-file.js';
import { gitlinkPaths } from '../git/gitlinks.js';
import { readIndexPaths } from '../git/index-file.js';
import { absentRedirects } from './git-redirects.js';
import { folderRepos, realTrackedFolders } from './folder-repos.js';
import { GitDirWatch } from './git-dir-strays.js';
import { recordGitDirShape, type GitDirShape } from './git-dir-shape.js';

/**
 * The nested repositories of the work tree as the box is made: your own submodules. A plain
 * `git status`, yours, outside the box, walks into every gitlink whose folder holds a `.git` and
 * runs git there, with that repository's `core.fsmonitor` and hooks; so what is there now is held
 * read-only in the box, and what the agent adds is set aside after each of its commands
 * (nested-sweep.ts).
 */
export interface NestedRecord {
  /** Each populated gitlink's `.git` (file, folder or link), absolute, with its identity as found. */
  entries: ReadonlyMap<string, string>;
  /** The `.git` entries in the work tree's tracked folders as found (folder-repos.ts): yours, left alone. */
  folderRepos: ReadonlySet<string>;
  /** The work trees whose gitlinks are looked at: the loop's own, then each submodule's. */
  workTrees: readonly string[];
  /** Where git keeps submodules' git dirs (`.git/modules`, and each submodule's own). */
  modulesFolders: readonly string[];
  /** What those folders held: each path in them, down to the git dirs. */
  modulesKnown: ReadonlySet<string>;
  /** The git dirs among them, which the sweep does not look into: they are yours, held read-only. */
  moduleGitDirs: ReadonlySet<string>;
  /** Read-only in the box: the submodules' `.git` files and their git dirs' config, hooks and info. */
  held: readonly string[];
  /** Folders mounted on themselves, so that they cannot be renamed away (`.git/modules`). */
  guarded: readonly string[];
  /** The submodules' git dirs' own redirects, absent now (git-redirects.ts). */
  redirects: readonly string[];
  /** Folders to make before the box, so that they are there to be held read-only. */
  mustExist: readonly string[];
  /**
   * The walks of the git dirs the agent writes (git-dir-strays.ts): the links to folders and the
   * sockets as found are yours, left alone; each later walk lists only the folders that changed.
   */
  gitDirs: GitDirWatch;
  /** The loop's git dir as git must find it (git-dir-shape.ts); undefined where its HEAD was no plain one. */
  shape: GitDirShape | undefined;
}

/** How many work trees, nested in each other, ralph looks into: a deeper one is your own to look after. */
const MAX_WORK_TREES = 64;
/** How deep a submodule's name (`a/b/c`) may nest folders in `.git/modules`. */
const MAX_MODULE_DEPTH = 8;
/** A `.git` file git writes is one line naming a folder. */
const MAX_GITFILE_BYTES = 64 * 1024;

/**
 * What is nested in the work tree now: each populated gitlink's `.git` (in the work tree, then in
 * each submodule's, as git status recurses), each git dir in the modules folders, and from them
 * what the box holds; and the links to folders and the sockets in those git dirs and in `gitDir`
 * (the loop's own: `commonDir` but in a linked worktree). Every git command here is ralph's own
 * (safe-git.ts): it runs none of theirs.
 */
export async function recordNested(workTree: string, commonDir: string, gitDir = commonDir): Promise<NestedRecord> {
  const entries = new Map<string, string>();
  const workTrees = [workTree];
  const gitDirs = new Set<string>();
  const held: string[] = [];
  for (let at = 0; at < workTrees.length && workTrees.length < MAX_WORK_TREES; at++) {
    const tree = workTrees[at] as string;
    for (const path of await gitlinkPaths(tree)) {
      const entry = await populatedEntry(tree, path);
      if (!entry) continue;
      entries.set(entry.path, entry.identity);
      if (entry.kind === 'file') held.push(entry.path);
      // A link is followed here, once, to your own git dir: the agent's is set aside, never held.
      const dirs =
        entry.kind === 'link' ? { gitDir: entry.path } : await findGitDirs(join(tree, path)).catch(() => undefined);
      const gitDir = dirs && (await realpath(dirs.gitDir).catch(() => undefined));
      if (gitDir) gitDirs.add(gitDir);
      workTrees.push(join(tree, path));
    }
  }
  const modulesFolders = [
    ...new Set([join(commonDir, 'modules'), ...[...gitDirs].map((gitDir) => join(gitDir, 'modules'))]),
  ];
  const modulesKnown = new Set<string>();
  const moduleGitDirs = new Set<string>();
  for (let at = 0; at < modulesFolders.length && at < MAX_WORK_TREES; at++) {
    const found = await walkModules(modulesFolders[at] as string, 0);
    for (const path of found.paths) modulesKnown.add(path);
    for (const gitDir of found.gitDirs) {
      gitDirs.add(gitDir);
      moduleGitDirs.add(gitDir);
      if (!modulesFolders.includes(join(gitDir, 'modules'))) modulesFolders.push(join(gitDir, 'modules'));
    }
  }
  const own = [...gitDirs];
  return {
    entries,
    folderRepos: folderRepos(workTree, await realTrackedFolders(workTree, await readIndexPaths(workTree))),
    workTrees,
    modulesFolders,
    modulesKnown,
    moduleGitDirs,
    held: [...held, ...own.flatMap((gitDir) => ['config', 'hooks', 'info'].map((name) => join(gitDir, name)))],
    guarded: modulesFolders.filter((folder) => modulesKnown.has(folder)),
    redirects: (await Promise.all(own.map((gitDir) => absentRedirects(gitDir, gitDir)))).flat(),
    mustExist: own.flatMap((gitDir) => [join(gitDir, 'hooks'), join(gitDir, 'info')]),
    gitDirs: new GitDirWatch([commonDir, gitDir, ...moduleGitDirs]),
    shape: recordGitDirShape(gitDir, commonDir),
  };
}

/** A gitlink's `.git` as git would enter it: undefined where none is, or where a folder on the way is a link. */
export interface NestedEntry {
  path: string;
  kind: 'file' | 'folder' | 'link' | 'other';
  /** What it is: a file's text, a link's target, a folder's device, inode and birth. */
  identity: string;
}

/**
 * The `.git` at the gitlink `path` of `tree`, where every folder on the way is a real folder: git
 * itself refuses a submodule path that is a link, or lies below one, and so does ralph, whose
 * move would otherwise reach wherever the link leads.
 */
export async function populatedEntry(tree: string, path: string): Promise<NestedEntry | undefined> {
  let folder = tree;
  for (const part of path.split('/')) {
    folder = join(folder, part);
    if (!(await lstat(folder).catch(() => undefined))?.isDirectory()) return undefined;
  }
  const dotGit = join(folder, '.git');
  const stats = await lstat(dotGit).catch(() => undefined);
  if (!stats) return undefined;
  const kind = stats.isDirectory() ? 'folder' : stats.isSymbolicLink() ? 'link' : stats.isFile() ? 'file' : 'other';
  return { path: dotGit, kind, identity: `${kind}:${await identityOf(dotGit, kind, stats)}` };
}

/**
 * A `.git` file or link is what it names (the number of a file removed is soon another's), read
 * without following a link or waiting on a FIFO, and only when it is as small as git's are; a folder
 * (or anything else) is itself.
 */
async function identityOf(path: string, kind: NestedEntry['kind'], stats: Stats): Promise<string> {
  if (kind === 'link') return await readlink(path).catch(() => '');
  if (kind === 'file' && stats.size <= MAX_GITFILE_BYTES)
    return (await readOwnFileNoLink(path).catch(() => undefined)) ?? '';
  return `${stats.dev}:${stats.ino}:${stats.birthtimeMs}:${stats.size}`;
}

/**
 * Every path in a modules folder (the folder itself included), down to the git dirs in it (a
 * folder with a HEAD); a submodule named `a/b` has its git dir at `modules/a/b`.
 */
export async function walkModules(folder: string, depth: number): Promise<{ paths: string[]; gitDirs: string[] }> {
  const stats = await lstat(folder).catch(() => undefined);
  if (!stats) return { paths: [], gitDirs: [] };
  if (!stats.isDirectory()) return { paths: [folder], gitDirs: [] };
  if (depth > 0 && (await lstat(join(folder, 'HEAD')).catch(() => undefined)))
    return { paths: [folder], gitDirs: [folder] };
  const paths = [folder];
  const gitDirs: string[] = [];
  if (depth >= MAX_MODULE_DEPTH) return { paths, gitDirs };
  for (const name of await readdir(folder).catch(() => [])) {
    const found = await walkModules(join(folder, name), depth + 1);
    paths.push(...found.paths);
    gitDirs.push(...found.gitDirs);
  }
  return { paths, gitDirs };
}
