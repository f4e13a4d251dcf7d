import { lstatSync, opendirSync, readlinkSync, statSync, type Dir, type Dirent } from 'node:fs';
import { join } from 'node:path';

/** Something in a git dir that git does not write and that a git opening it would wait on, or read without end. */
export interface GitDirStray {
  path: string;
  /** What it is, as a warning names it: `a FIFO`, `a link to a device`, … */
  what: string;
}

/** What the walk found, and the git dirs whose walk stopped at the cap before it had seen everything. */
export interface GitDirWalk {
  strays: GitDirStray[];
  unfinished: string[];
  /** Every link to a folder (not walked into) and every socket it saw, each with what it is. */
  kept: Map<string, string>;
}

/**
 * How many entries the walk looks at in one sweep: the agent can make millions (loose refs,
 * objects), and the walk runs after every agent and gate. A repository of yours holds far fewer
 * outside its packs: git packs its loose objects past a few thousand, and a clone packs its refs.
 */
export const MAX_GIT_DIR_ENTRIES = 100_000;

/**
 * At the top of a git dir, what the box holds read-only (the agent plants nothing there) and the
 * git dirs below it that are walked on their own, or not at all: each submodule's in `modules`
 * (the agent's new ones nested-sweep.ts sets aside whole), and each worktree's (a loop walks its
 * own; a sibling's is read-only in its box).
 */
const NOT_WALKED = new Set(['config', 'hooks', 'info', 'ralph', 'worktrees', 'modules']);
/** git's fsmonitor daemon (macOS, Windows) listens on this socket in the git dir; open() on a socket fails at once. */
const FSMONITOR_SOCKET = 'fsmonitor--daemon.ipc';

/**
 * Every FIFO, socket and device in the git dirs the box lets the agent write (the whole of each but
 * what NOT_WALKED names), and every link to one: git opens its files by name and follows links
 * (`objects/info/alternates`, `packed-refs`, HEAD, the index, each ref, log and object), and an
 * open FIFO waits for a writer that never comes: every later git of ralph's and of yours would hang.
 * git writes only files, folders and, where `core.preferSymlinkRefs` is set, links to files. A link
 * to a folder is a stray too, and so is a socket, unless `known` has it as it is now (yours, kept
 * as the box was made: `objects` on another disk, git-annex's ssh sockets): git follows such a link,
 * into a folder of FIFOs or round a loop, and the walk does not; a socket only fails git's open at
 * once. Each entry is judged by its type from the folder's listing, a link by stat of what
 * it leads to: nothing is opened. Each git dir is walked breadth first, its own files before
 * anything deeper, and the walk stops at `cap` entries in all.
 *
 * Synchronous, a listing read a few hundred entries at a time: it runs between two commands, and
 * an asynchronous walk paid a promise and a turn of the thread pool for each entry (80 ms of CPU
 * for a git dir of 5,000 entries, against 5 ms for this one).
 */
export function gitDirStrays(
  gitDirs: readonly string[],
  known: ReadonlyMap<string, string>,
  cap = MAX_GIT_DIR_ENTRIES,
): GitDirWalk {
  const walk: Walk = { strays: [], unfinished: [], kept: new Map(), left: cap, known };
  for (const root of new Set(gitDirs)) walkGitDir(root, walk);
  return { strays: walk.strays, unfinished: walk.unfinished, kept: walk.kept };
}

type Walk = GitDirWalk & { left: number; known: ReadonlyMap<string, string> };

function walkGitDir(root: string, walk: Walk): void {
  const folders = [root];
  for (let at = 0; at < folders.length; at++) {
    const folder = folders[at] as string;
    const dir = openFolder(folder);
    if (!dir) continue;
    try {
      for (let entry = dir.readSync(); entry !== null; entry = dir.readSync()) {
        if (walk.left-- <= 0) {
          walk.unfinished.push(root);
          return;
        }
        // Most entries are files: judged by the listing's type alone, with no path made for them.
        if (entry.isFile()) continue;
        const path = join(folder, entry.name);
        const top = folder === root;
        if (entry.isDirectory()) {
          if (!(top && NOT_WALKED.has(entry.name))) folders.push(path);
          continue;
        }
        if (top && entry.name === FSMONITOR_SOCKET && entry.isSocket()) continue;
        const what = strayKind(entry, path, walk);
        if (what) walk.strays.push({ path, what });
      }
    } finally {
      dir.closeSync();
    }
  }
}

/** A folder opened for listing, or undefined: gone, or no folder (the walk judges only what it can list). */
function openFolder(folder: string): Dir | undefined {
  try {
    return opendirSync(folder, { bufferSize: 1024 });
  } catch {
    return undefined;
  }
}

/** What makes an entry a stray, or undefined for a file, a link to a file, a link that leads nowhere, or yours. */
function strayKind(entry: Dirent, path: string, walk: Walk): string | undefined {
  if (entry.isFile()) return undefined;
  if (entry.isSocket()) {
    const stats = quietly(() => lstatSync(path));
    return keptUnlessNew(walk, path, `socket:${stats?.dev}:${stats?.ino}`, 'a socket');
  }
  if (!entry.isSymbolicLink()) return special(entry);
  // stat follows the link without opening what it leads to; one that leads nowhere, git finds nothing at.
  const target = quietly(() => statSync(path));
  if (!target || target.isFile()) return undefined;
  if (!target.isDirectory()) return `a link to ${special(target)}`;
  return keptUnlessNew(walk, path, `link:${quietly(() => readlinkSync(path)) ?? ''}`, 'a link to a folder');
}

/** What `read` gives, or undefined where it fails: the entry went meanwhile. */
function quietly<T>(read: () => T): T | undefined {
  try {
    return read();
  } catch {
    return undefined;
  }
}

/** Undefined where `known` has the entry as it is now; else `what`. Either way the walk keeps it for the next. */
function keptUnlessNew(walk: Walk, path: string, identity: string, what: string): string | undefined {
  walk.kept.set(path, identity);
  return walk.known.get(path) === identity ? undefined : what;
}

function special(kind: Pick<Dirent, 'isFIFO' | 'isSocket' | 'isCharacterDevice' | 'isBlockDevice'>): string {
  if (kind.isFIFO()) return 'a FIFO';
  if (kind.isSocket()) return 'a socket';
  return kind.isCharacterDevice() || kind.isBlockDevice() ? 'a device' : 'an unknown kind of file';
}
