import { cp, lstat, mkdir, mkdtemp, readdir, rename, rm } from 'node:fs/promises';
import { dirname, join, relative, sep } from 'node:path';
import { gitlinksOf, indexGitlinkPaths } from '../git/gitlinks.js';
import { readIndexPaths } from '../git/index-file.js';
import { folderRepos, gitFileStrays, realTrackedFolders } from './folder-repos.js';
import { populatedEntry, type NestedRecord } from './nested-repos.js';
import { absentStrays, type AbsentReadOnly } from './absent-read-only.js';
import { brokenShape, restoreShape } from './git-dir-shape.js';
import { RalphError } from '../errors.js';

/**
 * What ralph moved out of the agent's reach, and where; `what` names a git dir's stray
 * (git-dir-strays.ts), `given` the read-only path of yours it stood at (absent-read-only.ts).
 */
export interface SetAside {
  from: string;
  to: string;
  what?: string;
  given?: string;
  /** A part of the git dir's shape (git-dir-shape.ts), put back after it was moved. */
  shape?: true;
}

/** One sweep: what it moved, what of the git dir's shape it made again, and the walks that stopped at their cap. */
export interface NestedSweep {
  moved: SetAside[];
  mended: string[];
  unfinished: string[];
}

/** Where a loop runs, as the sweep needs it: the work tree, its git dirs, ralph's records. */
export interface SweepPlaces {
  workTree: string;
  gitDir: string;
  commonDir: string;
  recordDir: string;
}

/**
 * After each command in the box, once the box has ended: first the git dir's shape (a HEAD git
 * reads, objects and refs: git-dir-shape.ts), then whatever the agent made at a read-only path of
 * yours that was not there (`absent`), then every FIFO, socket and device the agent left in the git
 * dirs (the work tree's, the common one, your submodules'), before ralph's own git opens one and
 * waits (git-dir-strays.ts); then every populated gitlink's `.git` that was not there as the box
 * was made (or is not the one that was), every git dir in a modules folder that was not, a `.git`
 * in a tracked folder, and a FIFO where git opens a `.gitignore` or `.gitattributes`, moved into
 * ralph's record folder, which the box holds read-only. The gitlink and the files stay; without
 * its `.git` the folder is no repository git enters. Nothing is removed: each is moved whole.
 */
export async function sweepNested(
  record: NestedRecord,
  places: SweepPlaces,
  absent: readonly AbsentReadOnly[] = [],
): Promise<NestedSweep> {
  const aside = asideFolder(places);
  // First the git dir's shape: a git run while it is broken, ralph's or yours, takes another repository.
  const shape = record.shape
    ? await aside.move(brokenShape(record.shape).map((part) => ({ ...part, shape: true })))
    : [];
  const mended = record.shape ? restoreShape(record.shape) : [];
  // Then your read-only paths: a later step that fails (a stray that cannot be moved) leaves them done.
  const readOnly = await aside.move(await absentStrays(absent));
  // The same git dirs the record walked: the common one, the loop's own and your submodules'.
  const walk = record.gitDirs.walk();
  const moved = await aside.move(walk.strays);
  // The work tree's index read once, for its gitlinks and its folders; git is asked only where it does not settle them.
  const index = await readIndexPaths(places.workTree);
  const strays: string[] = [];
  for (const tree of record.workTrees) {
    // A submodule whose `.git` an earlier sweep set aside is no repository: git would list the one above.
    if (tree !== places.workTree && !(await lstat(join(tree, '.git')).catch(() => undefined))) continue;
    const paths = tree === places.workTree ? await gitlinksOf(tree, index) : await indexGitlinkPaths(tree);
    for (const path of paths) {
      const entry = await populatedEntry(tree, path);
      if (entry && record.entries.get(entry.path) !== entry.identity) strays.push(entry.path);
    }
  }
  for (const folder of record.modulesFolders) strays.push(...(await strayModules(folder, record)));
  const folders = await realTrackedFolders(places.workTree, index);
  for (const dotGit of folderRepos(places.workTree, folders)) if (!record.folderRepos.has(dotGit)) strays.push(dotGit);
  const nested = await aside.move([...strays.map((path) => ({ path })), ...gitFileStrays(places.workTree, folders)]);
  return {
    moved: [...shape, ...readOnly, ...moved, ...nested],
    mended: mended.filter((path) => !shape.some((part) => part.from === path)),
    unfinished: walk.unfinished,
  };
}

/** The sweep's own folder in the set-aside folder, made at its first move: `at-` and a random name. */
function asideFolder(places: Pick<SweepPlaces, 'workTree' | 'recordDir'>) {
  let into: Promise<string> | undefined;
  return {
    move: async (
      found: readonly { path: string; what?: string; given?: string; shape?: true }[],
    ): Promise<SetAside[]> => {
      if (found.length === 0) return [];
      const base = join(places.recordDir, 'set-aside');
      into ??= mkdir(base, { recursive: true }).then(() => mkdtemp(join(base, 'at-')));
      const folder = await into;
      const moved: SetAside[] = [];
      for (const { path: from, what, given, shape } of found) {
        const to = join(folder, asideName(places.workTree, from));
        if (await moveAside(from, to))
          moved.push({ from, to, ...(what && { what }), ...(given && { given }), ...(shape && { shape }) });
      }
      return moved;
    },
  };
}

/**
 * What in a modules folder was not there as the box was made: a new folder whole, or one below a
 * known folder that is no git dir (the folders of a name like `a/b`). A known git dir's own
 * submodules have a modules folder of their own in the list.
 */
async function strayModules(
  folder: string,
  record: Pick<NestedRecord, 'modulesKnown' | 'moduleGitDirs'>,
): Promise<string[]> {
  const stats = await lstat(folder).catch(() => undefined);
  if (!stats) return [];
  if (!record.modulesKnown.has(folder)) return [folder];
  if (!stats.isDirectory() || record.moduleGitDirs.has(folder)) return [];
  const found = await Promise.all(
    (await readdir(folder).catch(() => [])).map((name) => strayModules(join(folder, name), record)),
  );
  return found.flat();
}

/** Where in the set-aside folder a path goes: its place in the work tree, else its whole path. */
export function asideName(workTree: string, path: string): string {
  const inTree = relative(workTree, path);
  return inTree.startsWith('..') || inTree === '' ? path.split(sep).filter(Boolean).join(sep) : inTree;
}

/**
 * A rename where it can (the same file system), else a copy that keeps links as links, then the
 * original removed; what cannot be copied (a FIFO, a socket) stops the run. False when it is gone
 * already: in --parallel another loop's sweep, which shares `.git/modules`, may have moved it first.
 */
async function moveAside(from: string, to: string): Promise<boolean> {
  await mkdir(dirname(to), { recursive: true });
  try {
    await rename(from, to);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return false;
    if (code !== 'EXDEV') throw error;
    await cp(from, to, { recursive: true, verbatimSymlinks: true, errorOnExist: true }).catch(async (copy: unknown) => {
      // Left where it is, with nothing of it in the records: the run stops rather than leave it unsaid.
      await rm(to, { recursive: true, force: true });
      throw new RalphError(
        'io',
        `the box could not move ${from}, which the agent made, into ${dirname(to)}: ${(copy as Error).message}`,
        'look at it, and remove it yourself before you run anything there',
        { cause: copy },
      );
    });
    await rm(from, { recursive: true, force: true });
  }
  return true;
}
