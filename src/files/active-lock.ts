import { link, rename, unlink, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { describeEnded } from '../process/marked-processes.js';
import { isProcessRunning, processStartTime } from '../process/proc.js';
import { endRunRemains } from '../process/run-remains.js';
import { RalphError, isErrno, ownFile } from '../errors.js';
import type { ActiveState } from '../loop/port-data.js';
import { readOptional } from './signal-files.js';
import { parseJson } from './json-text.js';

/** Who holds the lock: enough to tell that very process apart from any other, and to find what it started. */
export interface LockOwner {
  pid: number;
  /**
   * The process's start (see processStartTime): with the pid, it names one process, never a later
   * one with the same pid.
   */
  startTime: string;
  /** The host it runs on: a pid means nothing on another machine. */
  host: string;
  /** The run id in RALPH_RUN_MARKER of every process the run started. */
  marker: string;
}

/** The contents of ralph/.ralph-active. Owner fields are optional: an older ralph did not write them. */
export interface ActiveFile extends ActiveState, Partial<Omit<LockOwner, 'pid'>> {
  pid: number;
  startedAt: string;
  /** The process group of the agent running right now, if one is. */
  agentGroup?: number;
}

/** This process as a lock owner, for the run `marker`. */
export function currentOwner(marker: string): LockOwner {
  return { pid: process.pid, startTime: processStartTime(process.pid) ?? 'unknown', host: hostname(), marker };
}

/**
 * The one liveness rule (run, status, the Stop hook, archive): a lock is live only when a
 * process with its pid AND its start time runs on this host. A reused pid, a lock from another
 * host or container, or one from an older ralph that wrote no start time, is stale.
 */
export function isLockLive(active: ActiveFile): boolean {
  return active.host === hostname() && active.startTime !== undefined && isProcessRunning(active.pid, active.startTime);
}

/** The running loop described by `.ralph-active`, if its owner is alive. */
export async function readLiveActive(path: string): Promise<ActiveFile | undefined> {
  const text = await readOptional(path);
  if (text === undefined) return undefined;
  const active = parseActive(text);
  return active && isLockLive(active) ? active : undefined;
}

/** The refusal a start would meet now, taking nothing: another run's live lock, if there is one. */
export async function lockRefusal(path: string): Promise<RalphError | undefined> {
  const active = await readLiveActive(path);
  return active && lockHeld(active);
}

function parseActive(text: string): ActiveFile | undefined {
  const parsed = parseJson(text);
  const value = parsed.ok ? (parsed.value as Partial<ActiveFile> | null) : undefined;
  return value && Number.isInteger(value.pid) && value.pid! > 0 ? (value as ActiveFile) : undefined;
}

/**
 * Takes the run lock: creates `.ralph-active` exclusively, so of two simultaneous starts only
 * one proceeds. A stale lock is taken over, and whatever its run left running (its agent, its
 * gates) is ended first; the warning says so.
 */
export async function acquireActiveLock(path: string, initial: ActiveFile): Promise<{ warning?: string }> {
  if (await createExclusive(path, initial)) return {};
  const text = await readOptional(path);
  // Released between our attempt and this read: simply try again.
  if (text === undefined) return acquireActiveLock(path, initial);
  const existing = parseActive(text);
  if (existing && isLockLive(existing)) throw lockHeld(existing);
  await setAsideStale(path);
  if (!(await createExclusive(path, initial)))
    throw lockHeld(parseActive((await readOptional(path)) ?? '') ?? { ...initial, pid: 0 });
  const ended = existing && existing.host === hostname() ? await endRunRemains(existing) : [];
  const remains = ended.length > 0 ? `; ${describeEnded(ended, 'that its run left running')}` : '';
  return { warning: `took over a stale ralph/.ralph-active left by ${staleOwner(existing)}${remains}` };
}

/** Who wrote a stale lock, and why it no longer counts. */
function staleOwner(stale: ActiveFile | undefined): string {
  if (!stale) return 'an unreadable lock file';
  if (stale.startTime === undefined) return `an older ralph (pid ${stale.pid}), which recorded no start time`;
  if (stale.host !== hostname())
    return `pid ${stale.pid} on host ${stale.host ?? 'unknown'}, whose processes cannot be seen from here`;
  return `pid ${stale.pid}, which is no longer running`;
}

/**
 * Moves a stale lock out of the way. Another start may have replaced it with its own live lock
 * in the meantime: then that one is put back and this start refuses.
 */
async function setAsideStale(path: string): Promise<void> {
  const aside = `${path}.${process.pid}.stale`;
  try {
    await rename(path, aside);
  } catch (error) {
    if (isErrno(error, 'ENOENT')) return;
    throw error;
  }
  // A live lock here is not the stale one we read: another start has put its own in place.
  const moved = parseActive((await readOptional(aside)) ?? '');
  if (moved && isLockLive(moved)) {
    await link(aside, path).catch(() => undefined);
    await unlink(aside).catch(() => undefined);
    throw lockHeld(moved);
  }
  await unlink(aside).catch(() => undefined);
}

/**
 * Creates the file, whole, only if it does not exist; false when it does. The content is
 * written to a temporary file first and linked into place, so no reader ever sees the lock
 * half-written (an empty lock would look stale and be taken over).
 */
async function createExclusive(path: string, active: ActiveFile): Promise<boolean> {
  const temporary = `${path}.${process.pid}.new`;
  try {
    await writeFile(temporary, JSON.stringify(active, null, 2) + '\n');
    await link(temporary, path);
    return true;
  } catch (error) {
    if (isErrno(error, 'EEXIST')) return false;
    throw error;
  } finally {
    await unlink(temporary).catch(() => undefined);
  }
}

function lockHeld(active: ActiveFile): RalphError {
  return new RalphError(
    'setup',
    `another ralph run is active in this repository (pid ${active.pid}, iteration ${active.iteration})`,
    `wait for it to finish or stop it (kill ${active.pid}); ralph/.ralph-active is removed when it ends`,
  );
}

/**
 * The run's own `.ralph-active` while it holds the lock: the loop's state and the agent's
 * process group arrive separately, and each write is the whole file, one after another.
 */
export class ActiveLock {
  private writing: Promise<void> = Promise.resolve();
  private released = false;

  constructor(
    readonly path: string,
    private content: ActiveFile,
  ) {}

  /** Takes the lock (see acquireActiveLock); a file the OS refuses is an `io` error naming the lock. */
  acquire(): Promise<{ warning?: string }> {
    return ownFile(this.path, 'write', () => acquireActiveLock(this.path, this.content));
  }

  /** Changes some fields and rewrites the file atomically, after any write still in flight; nothing once released. */
  update(change: Partial<ActiveFile>): Promise<void> {
    if (this.released) return Promise.resolve();
    this.content = { ...this.content, ...change };
    const content = this.content;
    this.writing = this.writing.catch(() => undefined).then(() => writeActive(this.path, content));
    return this.writing;
  }

  /**
   * Removes the file if it is still ours, once the writes in flight have landed: a rename after
   * the unlink would bring the lock back, and the next run would find it stale. Later updates
   * (a late usage report) write nothing.
   */
  async release(): Promise<void> {
    this.released = true;
    await this.writing.catch(() => undefined);
    await releaseActiveLock(this.path, this.content.pid);
  }
}

/** Rewrites `.ralph-active` atomically, so readers never see half a file. */
async function writeActive(path: string, active: ActiveFile): Promise<void> {
  const temporary = `${path}.${process.pid}.tmp`;
  await writeFile(temporary, JSON.stringify(active, null, 2) + '\n');
  await rename(temporary, path);
}

/** Removes `.ralph-active` if it is still ours. */
export async function releaseActiveLock(path: string, pid: number): Promise<void> {
  const text = await readOptional(path);
  if (text !== undefined && parseActive(text)?.pid === pid) await unlink(path).catch(() => undefined);
}
