import { cp, lstat, mkdir, mkdtemp, readdir, rename, rm } from 'node:fs/promises';
import { dirname, join, relative, sep } from 'node:path';
import { indexGitlinkPaths } from '../git/gitlinks.js';
import { folderRepos } from './folder-repos.js';
import { RalphError } from '../errors.js';
import { populatedEntry, type NestedRecord } from './nested-repos.js';
import { absentStrays, type AbsentReadOnly } from './absent-read-only.js';

/**
 * One thing the agent made that ralph set aside, and where it put it: a nested repository's `.git`
 * (or submodule git dir), or what stood where you named a read-only path that was not there (`given`).
 */
export interface SetAside {
  from: string;
  to: string;
  given?: string;
}

/**
 * After each command in the box, once the box has ended: every populated gitlink's `.git` that was
 * not there as the box was made (or is not the one that was), and every git dir in a modules folder
 * that was not, moved into ralph's record folder, which the box holds read-only. The gitlink and
 * the files stay; without its `.git` the folder is no repository git enters. Then whatever the agent
 * made at a read-only path of yours that was not there (absent-read-only.ts), into the same folder.
 */
export async function sweepSetAside(
  record: NestedRecord,
  absent: readonly AbsentReadOnly[],
  places: { workTree: string; recordDir: string },
): Promise<SetAside[]> {
  const strays = await nestedStrays(record, places.workTree);
  // Found before anything moves: a path below a nested `.git` moved first is then simply gone.
  const found = [...strays.map((path) => ({ path, given: undefined })), ...(await absentStrays(absent))];
  if (found.length === 0) return [];
  const base = join(places.recordDir, 'set-aside');
  await mkdir(base, { recursive: true });
  const into = await mkdtemp(join(base, 'at-'));
  const moved: SetAside[] = [];
  for (const { path: from, given } of found) {
    const to = join(into, asideName(places.workTree, from));
    if (await moveAside(from, to)) moved.push({ from, to, ...(given !== undefined && { given }) });
  }
  return moved;
}

/** The nested repositories' `.git` entries and git dirs that were not there as the box was made. */
async function nestedStrays(record: NestedRecord, workTree: string): Promise<string[]> {
  const strays: string[] = [];
  for (const tree of record.workTrees) {
    // A submodule whose `.git` an earlier sweep set aside is no repository: git would list the one above.
    if (tree !== workTree && !(await lstat(join(tree, '.git')).catch(() => undefined))) continue;
    for (const path of await indexGitlinkPaths(tree)) {
      const entry = await populatedEntry(tree, path);
      if (entry && record.entries.get(entry.path) !== entry.identity) strays.push(entry.path);
    }
  }
  for (const folder of record.modulesFolders) strays.push(...(await strayModules(folder, record)));
  for (const dotGit of await folderRepos(workTree)) if (!record.folderRepos.has(dotGit)) strays.push(dotGit);
  return strays;
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
