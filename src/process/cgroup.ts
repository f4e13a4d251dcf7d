import { createHash } from 'node:crypto';
import {
  accessSync,
  constants,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmdirSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { MarkedProcess } from './marked-processes.js';
import { KILL_GRACE_MS } from './process-group.js';
import { readProcStat } from './proc.js';

/**
 * Control groups (cgroup v2) as ralph uses them: one cgroup per run, `ralph-<repo hash>-<run id>`,
 * under the cgroup ralph lives in, and one child per scope (an agent, a gate). Membership is
 * inherited by every descendant and cannot be left without the privilege to move oneself, so the
 * members of a scope's cgroup are exactly what the scope started — whatever its environment says.
 */

/** Where cgroup v2 is mounted and where ralph lives in it; or why there is nothing to use. */
export type CgroupHome = { dir: string } | { why: string };

/** The cgroup2 mount (unified `/sys/fs/cgroup`, or hybrid `/sys/fs/cgroup/unified`) and ralph's own cgroup in it. */
export function findOwnCgroup(
  mountinfo = readText('/proc/self/mountinfo'),
  membership = readText('/proc/self/cgroup'),
): CgroupHome {
  const mount = findCgroupMount(mountinfo);
  if ('why' in mount) return mount;
  const own = /^0::(.*)$/m.exec(membership ?? '')?.[1];
  if (own === undefined) return { why: 'ralph is in no cgroup v2 group (/proc/self/cgroup has no 0:: line)' };
  return { dir: cgroupDir(mount, own) };
}

/** Where the cgroup2 hierarchy is mounted (`point`), and which of its groups is the mount's root. */
export type CgroupMount = { root: string; point: string };

export function findCgroupMount(mountinfo = readText('/proc/self/mountinfo')): CgroupMount | { why: string } {
  if (mountinfo === undefined) return { why: 'no /proc/self/mountinfo' };
  const mount = mountinfo
    .split('\n')
    .map((line) => line.split(' '))
    .find((fields) => fields[fields.indexOf('-') + 1] === 'cgroup2');
  if (!mount) return { why: 'no cgroup v2 hierarchy is mounted' };
  return { root: unescapeMount(mount[3] ?? '/'), point: unescapeMount(mount[4] ?? '') };
}

/** The directory of a cgroup named as /proc/PID/cgroup and systemd name it (`/user.slice/…`). */
export function cgroupDir(mount: CgroupMount, name: string): string {
  // A mount of a subtree (a container's cgroup namespace) shows paths relative to its root.
  const relative = mount.root !== '/' && name.startsWith(mount.root) ? name.slice(mount.root.length) : name;
  return join(mount.point, relative).replace(/(.)\/$/, '$1');
}

/** A short, stable name for a repository: its cgroups say whose they are. */
export function repoHash(identity: string): string {
  return createHash('sha256').update(identity).digest('hex').slice(0, 12);
}

/** The name of a run's cgroup. */
export function runCgroupName(repo: string, runId: string): string {
  return `ralph-${repo}-${runId}`;
}

/**
 * Creates the run's cgroup under ralph's own, or says why it cannot (read-only, EACCES, EBUSY…):
 * never an error, the caller falls back to the marker.
 */
export function createRunCgroup(home: CgroupHome, name: string): { path: string } | { why: string } {
  if ('why' in home) return home;
  const path = join(home.dir, name);
  try {
    // Moving a process needs write access to cgroup.procs of the common ancestor: ralph's own cgroup.
    accessSync(join(home.dir, 'cgroup.procs'), constants.W_OK);
    mkdirSync(path);
    accessSync(join(path, 'cgroup.procs'), constants.W_OK);
    return { path };
  } catch (error) {
    removeDir(path);
    return { why: `cannot create a cgroup under ${home.dir}: ${(error as NodeJS.ErrnoException).code ?? 'error'}` };
  }
}

/** Creates one scope's cgroup (a child of the run's); undefined when it cannot be. */
export function createScopeCgroup(runPath: string, scope: string): string | undefined {
  const path = join(runPath, scope.replace(/[^\w.-]/g, '_'));
  try {
    mkdirSync(path);
    return path;
  } catch {
    return undefined;
  }
}

/**
 * The command that runs `file args` inside the cgroup: a shell that writes its own pid into
 * cgroup.procs, then `exec`s — the command is a member from its first instruction, and so is
 * everything it starts. A shell costs a millisecond; a node one-liner would cost fifty.
 */
export function inCgroup(path: string, file: string, args: readonly string[]): { file: string; args: string[] } {
  return {
    file: '/bin/sh',
    args: ['-c', 'echo $$ > "$0/cgroup.procs" || exit 126; exec "$@"', path, file, ...args],
  };
}

/** The live members of a cgroup and everything below it. */
export function cgroupMembers(path: string): MarkedProcess[] {
  const found: MarkedProcess[] = [];
  for (const pid of pidsIn(path)) {
    const stat = readProcStat(pid);
    if (stat && stat.state !== 'Z') found.push({ pid, comm: stat.comm, startTicks: stat.startTicks });
  }
  return found;
}

function pidsIn(path: string): number[] {
  const own = (readText(join(path, 'cgroup.procs')) ?? '').split('\n').filter(Boolean).map(Number);
  return [...own, ...childDirs(path).flatMap((child) => pidsIn(join(path, child)))];
}

export function childDirs(path: string): string[] {
  try {
    return readdirSync(path, { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name);
  } catch {
    return [];
  }
}

const POLL_MS = 25;

/**
 * Ends every member of a cgroup: SIGTERM, then — after the grace period, or at once when `force`
 * fires — `cgroup.kill` (Linux 5.14+: every member at once, forks in flight included) or SIGKILL
 * to each member until none is left. Then removes the cgroup. Returns every member it saw.
 */
export async function emptyCgroup(
  path: string,
  { graceMs = KILL_GRACE_MS, force }: { graceMs?: number; force?: AbortSignal } = {},
): Promise<MarkedProcess[]> {
  // The common end of a scope: the kernel says nothing is left in it or below it, and it goes at once.
  if (!isPopulated(path) && removeDir(path)) return [];
  const seen = new Map<string, MarkedProcess>();
  const look = () => {
    const members = cgroupMembers(path);
    for (const member of members) seen.set(`${member.pid}@${member.startTicks}`, member);
    return members;
  };
  for (const member of look()) signal(member.pid, 'SIGTERM');
  const deadline = Date.now() + graceMs;
  while (look().length > 0 && Date.now() < deadline && !force?.aborted) await sleep(POLL_MS);
  const killDeadline = Date.now() + 5000;
  while (look().length > 0 && Date.now() < killDeadline) {
    killCgroupNow(path);
    await sleep(POLL_MS);
  }
  await removeCgroup(path);
  return [...seen.values()];
}

/** SIGKILL to every member at once, without waiting: for ralph's own last moments. */
export function killCgroupNow(path: string): void {
  if (existsSync(join(path, 'cgroup.kill'))) {
    try {
      writeFileSync(join(path, 'cgroup.kill'), '1');
      return;
    } catch {
      // Fall through to one signal each.
    }
  }
  for (const pid of pidsIn(path)) signal(pid, 'SIGKILL');
}

/** Removes a cgroup and its children (empty ones only: the kernel refuses the rest). */
export async function removeCgroup(path: string): Promise<void> {
  for (const child of childDirs(path)) await removeCgroup(join(path, child));
  // Exiting members may keep it busy for a moment after cgroup.procs is empty.
  for (let attempt = 0; attempt < 40 && existsSync(path) && !removeDir(path); attempt++) await sleep(POLL_MS);
}

/**
 * Removes a cgroup and its children from ralph's exit handler, where nothing can be awaited: the
 * members just killed take a moment to go, so it waits for them, a few milliseconds at a time, up
 * to `waitMs`. What is still busy then stays for the next run of the repository to empty.
 */
export function removeCgroupNow(path: string, waitMs = 500): void {
  const remove = (dir: string): boolean => {
    for (const child of childDirs(dir)) remove(join(dir, child));
    return removeDir(dir);
  };
  const pause = new Int32Array(new SharedArrayBuffer(4));
  const deadline = Date.now() + waitMs;
  while (!remove(path) && Date.now() < deadline) Atomics.wait(pause, 0, 0, 10);
}

/** The cgroups of other runs of this repository under `home`: what a crashed run left. */
export function leftoverRunCgroups(home: CgroupHome, repo: string, exceptRunId: string): string[] {
  if ('why' in home) return [];
  const own = runCgroupName(repo, exceptRunId);
  return childDirs(home.dir)
    .filter((name) => name.startsWith(`ralph-${repo}-`) && name !== own)
    .map((name) => join(home.dir, name));
}

/**
 * The cgroup of a run of the repository `repo` (its repoHash), if it is still there: for a stale
 * lock's remains. The repository is part of the name looked for: a lock is a file the agent can
 * forge, and one naming another repository's run id must never find that run's cgroup.
 */
export function cgroupOfRun(repo: string, runId: string, home: CgroupHome = findOwnCgroup()): string | undefined {
  if ('why' in home || !/^[0-9a-f]+$/.test(runId) || !/^[0-9a-f]+$/.test(repo)) return undefined;
  const name = runCgroupName(repo, runId);
  return childDirs(home.dir).includes(name) ? join(home.dir, name) : undefined;
}

function signal(pid: number, name: NodeJS.Signals): void {
  try {
    process.kill(pid, name);
  } catch {
    // Gone in the meantime.
  }
}

function removeDir(path: string): boolean {
  try {
    rmdirSync(path);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ENOENT';
  }
}

/** Whether cgroup.events says a process is in the cgroup or below it; true when it cannot be read. */
function isPopulated(path: string): boolean {
  return !/^populated 0$/m.test(readText(join(path, 'cgroup.events')) ?? '');
}

function readText(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}

/** mountinfo escapes space, tab, newline and backslash as octal. */
function unescapeMount(text: string): string {
  return text.replace(/\\([0-7]{3})/g, (_, octal: string) => String.fromCharCode(parseInt(octal, 8)));
}
