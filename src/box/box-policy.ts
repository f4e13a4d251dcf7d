import { dirname, join, sep } from 'node:path';

/**
 * What the agent may do with a path inside the box; the deepest rule over a path decides. `private`:
 * an empty folder of the box's own in its place (the shared temporary folders, where other programs
 * of yours keep their sockets: an ssh agent's, tmux's, the session bus).
 */
export type Access = 'write' | 'read' | 'hidden' | 'private';

/** Folders shared by every program of the user's, sockets among them: the box has empty ones instead. */
export const SHARED_TEMPORARY = ['/tmp', '/var/tmp', '/run/user', '/dev/shm'] as const;

/** One rule of the box: a path and what the agent may do there and below it. */
export interface BoxRule {
  path: string;
  access: Access;
}

/** Where a loop runs, as the box needs to know it. Every path absolute and real. */
export interface BoxPlaces {
  /** The loop's own work tree: the repository root, or in --worktree and --parallel that loop's worktree. */
  workTree: string;
  /** That work tree's own git dir (`.git`, or `.git/worktrees/<name>` of a linked worktree). */
  gitDir: string;
  /** The repository's shared git dir: its objects and refs, where every loop commits. */
  commonDir: string;
  /** The folder of ralph's own records for this work tree (`recordDir`), never the agent's to write. */
  recordDir: string;
  home: string;
  /** The box's own temporary folder, made for the run (TMPDIR inside). */
  tmp: string;
  /** The client's own state folders and files under home, as its dialect names them. */
  clientState: readonly string[];
  /** What in that state starts programs when you next start the client: read-only. */
  clientSettings?: readonly string[];
  /** Your submodules as the box is made (nested-repos.ts): what to hold read-only, and which folders to guard. */
  nested?: { held: readonly string[]; guarded: readonly string[] };
}

/** What the user added: written by a flag or a variable (write), or by anyone, config included (read, hidden). */
export interface BoxExtras {
  write: readonly string[];
  readOnly: readonly string[];
  hidden: readonly string[];
}

/** Credential stores: the agent needs none of them, and each would let it act as you elsewhere. */
export const CREDENTIAL_STORES = [
  '.ssh',
  '.aws',
  '.config/gh',
  '.git-credentials',
  '.netrc',
  '.docker/config.json',
  '.kube',
  '.npmrc',
  '.pypirc',
  '.gnupg',
] as const;

/**
 * The package caches' variables, each pointed into the box's temporary folder: a cache the agent
 * wrote is code your own npx or corepack would run later, outside the box, so the box never writes
 * yours (`--box-write ~/.npm` shares one, at that risk).
 */
export const CACHE_VARIABLES = {
  npm_config_cache: 'npm',
  XDG_CACHE_HOME: 'cache',
  COREPACK_HOME: 'corepack',
  YARN_CACHE_FOLDER: 'yarn',
  GOMODCACHE: 'gomod',
  PIP_CACHE_DIR: 'pip',
} as const;

/** Variables that lead to a program of yours outside the box through a socket: the box has none of them. */
export const SOCKET_VARIABLES = ['SSH_AUTH_SOCK', 'GPG_AGENT_INFO', 'TMUX', 'TMUX_PANE', 'DBUS_SESSION_BUS_ADDRESS'];

/**
 * The files in the agent's own tree that decide what ralph or git runs next, or what ralph
 * reports: git's configuration and hooks (a `core.fsmonitor` or a post-commit hook runs as you),
 * ralph's config (gates, notification commands) and prompt, the logs, the other loops' worktrees.
 */
function protectedInTree({ workTree, gitDir, commonDir, recordDir, nested }: BoxPlaces): string[] {
  const linked = gitDir !== commonDir;
  return [
    join(workTree, 'ralph', 'config.json'),
    join(workTree, 'ralph', 'prompt.md'),
    join(workTree, 'ralph', 'logs'),
    join(workTree, 'ralph', 'worktrees'),
    ...['config', 'config.worktree', 'hooks', 'info', 'ralph', 'worktrees'].map((name) => join(commonDir, name)),
    recordDir,
    join(gitDir, 'config.worktree'),
    // A linked worktree's `.git` file names its git dir, and the main checkout's HEAD and index are not its own.
    ...(linked ? [join(workTree, '.git'), join(commonDir, 'HEAD'), join(commonDir, 'index')] : []),
    // Its own git dir's pointers back: rewritten, they would send git (yours, later) to the agent's config.
    ...(linked ? [join(gitDir, 'commondir'), join(gitDir, 'gitdir')] : []),
    // A submodule's `.git` file and its git dir's config and hooks: your `git status` runs them too.
    ...(nested?.held ?? []),
  ];
}

/**
 * The box's rules: nothing writable but the loop's work tree, its git dirs, its temporary folder, the
 * client's state and the caches; inside them, what decides what runs next read-only; the credential
 * stores unreadable. The user's extras come after the defaults, so a read-only or hidden path they
 * name wins over a writable default, and a written one over nothing but the defaults outside.
 */
export function boxPolicy(places: BoxPlaces, extras: BoxExtras): BoxRule[] {
  const linked = places.gitDir !== places.commonDir;
  const rule = (access: Access) => (path: string) => ({ path, access });
  return [
    ...SHARED_TEMPORARY.map(rule('private')),
    ...[places.workTree, places.commonDir, places.tmp, ...places.clientState].map(rule('write')),
    ...extras.write.map(rule('write')),
    ...(places.nested?.guarded ?? []).map(rule('write')),
    ...protectedInTree(places).map(rule('read')),
    ...(places.clientSettings ?? []).map(rule('read')),
    // Its own git dir lies inside the shared `worktrees/`, which is read-only for it.
    ...(linked ? [rule('write')(places.gitDir), rule('read')(join(places.gitDir, 'ralph'))] : []),
    ...extras.readOnly.map(rule('read')),
    ...CREDENTIAL_STORES.map((name) => rule('hidden')(join(places.home, name))),
    ...extras.hidden.map(rule('hidden')),
  ];
}

/**
 * The rules as mounts, parents before children (a child's mount lies over its parent's), one per
 * path (the last rule given for a path wins: hidden and read-only come after write), and with a
 * guard for every writable folder between a writable mount and a protected path inside it: a
 * folder of its own mount cannot be renamed, so `mv .git .old && mkdir .git` cannot swap a
 * read-only `.git/config` for the agent's own.
 */
export function orderedMounts(rules: readonly BoxRule[]): BoxRule[] {
  const byPath = new Map<string, Access>();
  for (const { path, access } of rules) byPath.set(path, access);
  for (const [path, access] of [...byPath]) {
    if (access === 'write') continue;
    for (let folder = dirname(path); folder !== dirname(folder); folder = dirname(folder)) {
      if (byPath.has(folder)) break;
      if (accessAt(byPath, folder) !== 'write') break;
      byPath.set(folder, 'write');
    }
  }
  return [...byPath]
    .map(([path, access]) => ({ path, access }))
    .filter(({ path }) => !underHidden(byPath, path))
    .sort((a, b) => depth(a.path) - depth(b.path) || (a.path < b.path ? -1 : 1));
}

/** Whether a hidden rule lies above `path`: nothing under a hidden folder is mounted, whatever a rule says. */
function underHidden(byPath: ReadonlyMap<string, Access>, path: string): boolean {
  for (let at = dirname(path); at !== dirname(at); at = dirname(at)) if (byPath.get(at) === 'hidden') return true;
  return false;
}

/** What the deepest rule over `path` allows there; read where none reaches (the whole system is read-only). */
export function accessAt(byPath: ReadonlyMap<string, Access>, path: string): Access {
  for (let at = path; ; at = dirname(at)) {
    const found = byPath.get(at);
    if (found) return found;
    if (at === dirname(at)) return 'read';
  }
}

function depth(path: string): number {
  return path.split(sep).filter(Boolean).length;
}
