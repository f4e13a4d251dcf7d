import { unlink } from 'node:fs/promises';
import { hostname } from 'node:os';
import { dirname } from 'node:path';
import { describeEnded } from '../process/marked-processes.js';
import { isProcessRunning, processStartTime } from '../process/proc.js';
import { endRunRemains } from '../process/run-remains.js';
import { RalphError, ownFile } from '../errors.js';
import { isKernelLockHeld, lockScope, takeKernelLock, type KernelLock } from './kernel-lock.js';
import type { ActiveState } from '../loop/port-data.js';
import { appendOwnFile, readOwnFileNoLink } from './own-file.js';
import { replaceWholeSync } from './replace-own-file.js';
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
  /** The task list `--tasks` chose, relative to the root, when it is not ralph/tasks.json (for the Stop hook). */
  tasks?: string;
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

/**
 * `.ralph-active`'s text, or undefined when there is none. It lies in ralph/, which the agent writes:
 * a FIFO there made a plain read wait for a writer forever (the run's release after its summary, and
 * every later run and status). It is only ever a regular file of ralph's, so a FIFO, a link or
 * anything else is refused at once, an io error (74) naming it: the person moves it away.
 */
function readLockText(path: string): Promise<string | undefined> {
  return readOwnFileNoLink(path);
}

/** The running loop described by `.ralph-active`, if its owner is alive. */
export async function readLiveActive(path: string): Promise<ActiveFile | undefined> {
  const text = await readLockText(path);
  if (text === undefined) return undefined;
  const active = parseActive(text);
  return active && isLockLive(active) ? active : undefined;
}

/**
 * The run `.ralph-active` describes when its owner is gone: one that ended without recording its
 * ending (SIGKILL, a crash, the machine stopped), since a run that ends removes the file. The agent
 * can write the file too: what it says is shown, never acted on.
 */
export async function readDeadActive(path: string): Promise<ActiveFile | undefined> {
  const text = await readLockText(path);
  const active = text === undefined ? undefined : parseActive(text);
  if (!active || isLockLive(active)) return undefined;
  // The kernel's lock says whether a run lives, whatever the file (which the agent can write) names.
  return (await isKernelLockHeld(lockScope(path))) ? undefined : active;
}

/** The refusal a start would meet now, taking nothing: another live run holding this work tree's lock. */
export async function lockRefusal(path: string): Promise<RalphError | undefined> {
  if (!(await isKernelLockHeld(lockScope(path)))) return undefined;
  return lockHeld(await describedHolder(path));
}

/** The live run the file names, for the refusal while the kernel's lock is held: an unreadable file names none. */
function describedHolder(path: string): Promise<ActiveFile | undefined> {
  return readLiveActive(path).catch(() => undefined);
}

/**
 * The lock's description: the file whole (as an older ralph wrote it), or its last whole line that
 * describes a run (ActiveLock appends one a change; the line being appended may be cut short).
 */
function parseActive(text: string): ActiveFile | undefined {
  const whole = parseJson(text);
  if (whole.ok) return asActive(whole.value);
  for (let end = text.length; end > 0;) {
    const start = text.lastIndexOf('\n', end - 1) + 1;
    const line = parseJson(text.slice(start, end));
    const active = line.ok ? asActive(line.value) : undefined;
    if (active) return active;
    end = start - 1;
  }
  return undefined;
}

function asActive(json: unknown): ActiveFile | undefined {
  const value = json as Partial<ActiveFile> | null;
  return value && Number.isInteger(value.pid) && value.pid! > 0 ? (value as ActiveFile) : undefined;
}

/**
 * Takes the run lock: the kernel's (kernel-lock.ts), which the agent can neither lift nor forge,
 * then writes `.ralph-active` to describe it. Whatever `.ralph-active` said before is then a dead
 * run's or a forgery: a stale run's remains are ended once proven this work tree's (see
 * endRunRemains); a lock naming a running process is reported as forged and never acted on.
 */
export async function acquireActiveLock(
  path: string,
  initial: ActiveFile,
): Promise<{ kernel: KernelLock; warning?: string }> {
  const kernel = await takeKernelLock(lockScope(path));
  if (!kernel) throw lockHeld(await describedHolder(path));
  try {
    // A FIFO or a link in its place (the last run's agent) is refused here, before it is replaced.
    const text = await readLockText(path);
    writeActive(path, initial);
    if (text === undefined) return { kernel };
    const warning = await replacedLock(parseActive(text), { root: lockScope(path), identity: dirname(path) });
    return { kernel, warning };
  } catch (error) {
    await kernel.release();
    throw error;
  }
}

/**
 * What the lock ralph replaced stood for: the warning, after ending what a stale run of this work
 * tree left. Its cgroups are named from the folder that holds the lock, as the run's Containment names them.
 */
async function replacedLock(old: ActiveFile | undefined, where: { root: string; identity: string }): Promise<string> {
  if (old && namesRunningProcess(old)) return forgedLock(old.pid);
  const ended = old && old.host === hostname() ? await endRunRemains({ ...old, ...where }) : [];
  const remains = ended.length > 0 ? `; ${describeEnded(ended, 'that its run left running')}` : '';
  return `took over a stale ralph/.ralph-active left by ${staleOwner(old)}${remains}`;
}

/**
 * Whether a lock names a process that runs (init, ralph itself or its parent, as a forger would):
 * with the kernel's lock free, that process is no ralph run of this work tree.
 */
function namesRunningProcess(old: ActiveFile): boolean {
  return isLockLive(old);
}

/** The warning for a lock that names a process no run of this work tree is: it is ignored. */
export function forgedLock(pid: number): string {
  return `ralph/.ralph-active names pid ${pid}, which is not a ralph run of this repository: the file was forged or is stale; ignoring it`;
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
 * The refusal while another run holds the kernel's lock. The pid is named only as the file
 * describes a live process other than init or ralph's own parent: the agent may have rewritten it.
 */
function lockHeld(active: ActiveFile | undefined): RalphError {
  const named = active && active.pid > 1 && active.pid !== process.ppid ? active : undefined;
  if (!named)
    return new RalphError(
      'setup',
      'another ralph run is active in this work tree (its ralph/.ralph-active is missing or does not name it)',
      'wait for it to finish or stop it (Ctrl-C in its terminal); the lock is released when it ends',
    );
  return new RalphError(
    'setup',
    `another ralph run is active in this repository (pid ${named.pid}, iteration ${named.iteration})`,
    `wait for it to finish or stop it (kill ${named.pid}); ralph/.ralph-active is removed when it ends`,
  );
}

/**
 * The run's own `.ralph-active` while it holds the lock: described whole once, as the run takes it;
 * each change after that (the iteration, the agent's process group, its usage) is one more line,
 * the whole description again, appended after the writes before it. An append never waits for the
 * disk, where a rename over the file does (bench/RESULTS.md): the file is rewritten once a run.
 */
export class ActiveLock {
  private writing: Promise<void> = Promise.resolve();
  private released = false;
  private kernel?: KernelLock;

  constructor(
    readonly path: string,
    private content: ActiveFile,
  ) {}

  /** Takes the lock (see acquireActiveLock); a file the OS refuses is an `io` error naming the lock. */
  async acquire(): Promise<{ warning?: string }> {
    const { kernel, warning } = await ownFile(this.path, 'write', () => acquireActiveLock(this.path, this.content));
    this.kernel = kernel;
    return warning === undefined ? {} : { warning };
  }

  /** Changes some fields and appends the description, after any write still in flight; nothing once released. */
  update(change: Partial<ActiveFile>): Promise<void> {
    if (this.released) return Promise.resolve();
    this.content = { ...this.content, ...change };
    const line = describe(this.content);
    const folder = dirname(this.path);
    this.writing = this.writing.catch(() => undefined).then(() => appendOwnFile(folder, this.path, line));
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
    try {
      await releaseActiveLock(this.path, this.content.pid);
    } finally {
      // Last: the description goes before the lock it describes.
      await this.kernel?.release();
    }
  }
}

/**
 * Writes `.ralph-active` whole, atomically, so readers never see half a file: once, as the run
 * takes the lock. Synchronously: nothing of the run may go on before it is described.
 */
function writeActive(path: string, active: ActiveFile): void {
  replaceWholeSync(path, JSON.stringify(active, null, 2) + '\n');
}

/** One line that describes the run whole. */
function describe(active: ActiveFile): string {
  return `${JSON.stringify(active)}\n`;
}

/** Removes `.ralph-active` if it is still ours; what is no regular file is not ours, and is left. */
export async function releaseActiveLock(path: string, pid: number): Promise<void> {
  const text = await readLockText(path).catch(() => undefined);
  if (text !== undefined && parseActive(text)?.pid === pid) await unlink(path).catch(() => undefined);
}
