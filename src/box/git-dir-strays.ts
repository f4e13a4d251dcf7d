import { lstatSync, opendirSync, readlinkSync, statSync, type BigIntStats, type Dir, type Dirent } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve } from 'node:path';

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
  /** What it saw of each folder it can vouch for, for the next walk (see WalkMemory). */
  memory: WalkMemory;
}

/**
 * What a walk saw of a folder: its inode and change time, its folders and its links. A folder's
 * change time moves whenever an entry is added to it, removed, renamed or replaced, and whenever its
 * times are set; no one but the kernel sets it. So a folder with the same inode and change time
 * holds the same entries, and the next walk does not list it again: it goes on into the folders
 * it had and judges its links again (what a link leads to can change elsewhere).
 */
export interface FolderSeen {
  ino: bigint;
  ctimeNs: bigint;
  folders: string[];
  links: string[];
}
export type WalkMemory = Map<string, FolderSeen>;

/**
 * A folder changed this close to a walk is listed again by the next one: the kernel stamps times
 * from a clock that ticks every few milliseconds (some file systems every second or two), so a
 * change in the same tick as the time a walk kept would leave it as it was.
 */
const RACY_NS = 2_000_000_000n;

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
  memory: ReadonlyMap<string, FolderSeen> = new Map(),
  nowMs = Date.now(),
): GitDirWalk {
  const walk: Walk = {
    strays: [],
    unfinished: [],
    kept: new Map(),
    memory: new Map(),
    left: cap,
    known,
    before: memory,
    racyAfter: BigInt(Math.floor(nowMs)) * 1_000_000n - RACY_NS,
  };
  for (const root of new Set(gitDirs)) walkGitDir(root, walk);
  return { strays: walk.strays, unfinished: walk.unfinished, kept: walk.kept, memory: walk.memory };
}

/**
 * One box's walks of its git dirs: the first as the box is made, then one after each command,
 * each listing only what changed since the one before.
 */
export class GitDirWatch {
  /** The links to folders and the sockets as the box was made: yours. */
  readonly kept: ReadonlyMap<string, string>;
  private memory: WalkMemory;

  constructor(
    private readonly gitDirs: readonly string[],
    private readonly cap = MAX_GIT_DIR_ENTRIES,
  ) {
    const first = gitDirStrays(gitDirs, new Map(), cap);
    this.kept = first.kept;
    this.memory = first.memory;
  }

  /** The strays since the last walk. */
  walk(): GitDirWalk {
    const walk = gitDirStrays(this.gitDirs, this.kept, this.cap, this.memory);
    this.memory = walk.memory;
    return walk;
  }
}

type Walk = GitDirWalk & {
  left: number;
  known: ReadonlyMap<string, string>;
  before: ReadonlyMap<string, FolderSeen>;
  racyAfter: bigint;
};

function walkGitDir(root: string, walk: Walk): void {
  const folders = [root];
  for (let at = 0; at < folders.length; at++) {
    const folder = folders[at] as string;
    const stats = folderStats(folder);
    if (stats === 'unreadable') {
      notWholly(walk, root);
      continue;
    }
    if (!stats?.isDirectory()) continue;
    const seen = walk.before.get(folder);
    if (seen && seen.ino === stats.ino && seen.ctimeNs === stats.ctimeNs) {
      walk.memory.set(folder, seen);
      folders.push(...seen.folders);
      for (const link of seen.links) noteStray(walk, link, linkStray(link, root, walk));
      continue;
    }
    const listed = listFolder(root, folder, walk);
    if (!listed) return;
    folders.push(...listed.folders);
    if (stats.ctimeNs < walk.racyAfter) walk.memory.set(folder, { ino: stats.ino, ctimeNs: stats.ctimeNs, ...listed });
  }
}

/** Lists a folder, judging each entry; its folders and links, or undefined when the walk stopped at its cap in it. */
function listFolder(root: string, folder: string, walk: Walk): Pick<FolderSeen, 'folders' | 'links'> | undefined {
  const listed: Pick<FolderSeen, 'folders' | 'links'> = { folders: [], links: [] };
  const dir = openFolder(folder);
  if (dir === 'unreadable') notWholly(walk, root);
  if (dir === undefined || dir === 'unreadable') return listed;
  try {
    for (let entry = dir.readSync(); entry !== null; entry = dir.readSync()) {
      if (walk.left-- <= 0) {
        notWholly(walk, root);
        return undefined;
      }
      // Most entries are files: judged by the listing's type alone, with no path made for them.
      if (entry.isFile()) continue;
      const path = join(folder, entry.name);
      const top = folder === root;
      if (entry.isDirectory()) {
        if (!(top && NOT_WALKED.has(entry.name))) listed.folders.push(path);
        continue;
      }
      if (top && entry.name === FSMONITOR_SOCKET && entry.isSocket()) continue;
      if (entry.isSymbolicLink()) listed.links.push(path);
      noteStray(walk, path, strayKind(entry, path, root, walk));
    }
  } finally {
    dir.closeSync();
  }
  return listed;
}

function noteStray(walk: Walk, path: string, what: string | undefined): void {
  if (what) walk.strays.push({ path, what });
}

/**
 * A folder opened for listing; undefined when it is gone; 'unreadable' when it is there and cannot
 * be listed (no permission for a non-root ralph, a path longer than the system takes): what is in
 * it is unknown, and git, which may reach it by a shorter way, could still open a FIFO there.
 */
function openFolder(folder: string): Dir | 'unreadable' | undefined {
  try {
    return opendirSync(folder, { bufferSize: 1024 });
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ENOENT' ? undefined : 'unreadable';
  }
}

/** A folder's lstat, undefined when it is gone, 'unreadable' when the system will not say. */
function folderStats(folder: string): BigIntStats | 'unreadable' | undefined {
  try {
    return lstatSync(folder, { bigint: true });
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ENOENT' ? undefined : 'unreadable';
  }
}

/** A git dir the walk did not see all of: at the cap, or at a folder it could not list. */
function notWholly(walk: Walk, root: string): void {
  if (!walk.unfinished.includes(root)) walk.unfinished.push(root);
}

/** What makes an entry a stray, or undefined for a file, a link to a file, a link that leads nowhere, or yours. */
function strayKind(entry: Dirent, path: string, root: string, walk: Walk): string | undefined {
  if (entry.isFile()) return undefined;
  if (entry.isSocket()) {
    const stats = quietly(() => lstatSync(path));
    return keptUnlessNew(walk, path, `socket:${stats?.dev}:${stats?.ino}`, 'a socket');
  }
  return entry.isSymbolicLink() ? linkStray(path, root, walk) : special(entry);
}

/**
 * A link, by what it leads to: stat follows it without opening anything; one that leads nowhere,
 * git finds nothing at. A link out of the git dir is a stray whatever stat says, unless it was
 * there as the box was made: git makes only links to refs, within its dir, and what a link to
 * `/proc/self/fd/1` leads to depends on who opens it (for ralph, its log; for your git, its own pipe).
 */
function linkStray(path: string, root: string, walk: Walk): string | undefined {
  const target = quietly(() => statSync(path));
  if (target && !target.isFile() && !target.isDirectory()) return `a link to ${special(target)}`;
  const text = quietly(() => readlinkSync(path));
  const identity = `link:${text ?? ''}`;
  if (text !== undefined && !isInside(root, resolve(dirname(path), text)))
    return keptUnlessNew(walk, path, identity, 'a link out of the git dir');
  if (!target || target.isFile()) return undefined;
  return keptUnlessNew(walk, path, identity, 'a link to a folder');
}

function isInside(root: string, path: string): boolean {
  const inside = relative(root, path);
  return inside !== '' && !inside.startsWith('..') && !isAbsolute(inside);
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
