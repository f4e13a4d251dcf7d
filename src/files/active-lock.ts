import { link, readFile, rename, unlink, writeFile } from 'node:fs/promises';
import { isErrno, RalphError } from '../errors.js';
import type { ActiveState } from '../loop/ports.js';
import { readOptional } from './signal-files.js';
import { parseJson } from './json-text.js';

/** The contents of ralph/.ralph-active. */
export interface ActiveFile extends ActiveState {
  pid: number;
  startedAt: string;
}

/** Whether a process with this pid exists (EPERM: it does, but is not ours). */
export function isPidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return isErrno(error, 'EPERM');
  }
}

/** The running loop described by `.ralph-active`, if its process is alive. */
export async function readLiveActive(path: string): Promise<ActiveFile | undefined> {
  const text = await readOptional(path);
  if (text === undefined) return undefined;
  const active = parseActive(text);
  return active && isPidAlive(active.pid) ? active : undefined;
}

function parseActive(text: string): ActiveFile | undefined {
  const parsed = parseJson(text);
  const value = parsed.ok ? (parsed.value as Partial<ActiveFile> | null) : undefined;
  return value && Number.isInteger(value.pid) && value.pid! > 0 ? (value as ActiveFile) : undefined;
}

/**
 * Takes the run lock: creates `.ralph-active` exclusively, so of two simultaneous starts only
 * one proceeds. A file left by a dead process is taken over; the warning says so.
 */
export async function acquireActiveLock(path: string, initial: ActiveFile): Promise<{ warning?: string }> {
  if (await createExclusive(path, initial)) return {};
  const text = await readOptional(path);
  // Released between our attempt and this read: simply try again.
  if (text === undefined) return createExclusive(path, initial).then((created) => (created ? {} : acquireActiveLock(path, initial)));
  const existing = parseActive(text);
  if (existing && isPidAlive(existing.pid)) throw lockHeld(existing);
  await setAsideStale(path, existing);
  if (await createExclusive(path, initial)) {
    return { warning: `took over a stale ralph/.ralph-active left by pid ${existing?.pid ?? 'unknown'}, which is no longer running` };
  }
  throw lockHeld(parseActive((await readOptional(path)) ?? '') ?? { ...initial, pid: 0 });
}

/**
 * Moves a stale lock out of the way. Another start may have replaced it with its own fresh lock
 * in the meantime: then that one is put back and this start refuses.
 */
async function setAsideStale(path: string, stale: ActiveFile | undefined): Promise<void> {
  const aside = `${path}.${process.pid}.stale`;
  try {
    await rename(path, aside);
  } catch (error) {
    if (isErrno(error, 'ENOENT')) return;
    throw error;
  }
  const moved = parseActive((await readOptional(aside)) ?? '');
  if (moved && moved.pid !== stale?.pid && isPidAlive(moved.pid)) {
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
  await writeFile(temporary, JSON.stringify(active, null, 2) + '\n');
  try {
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

/** Rewrites `.ralph-active` atomically, so readers never see half a file. */
export async function updateActive(path: string, active: ActiveFile): Promise<void> {
  const temporary = `${path}.${process.pid}.tmp`;
  await writeFile(temporary, JSON.stringify(active, null, 2) + '\n');
  await rename(temporary, path);
}

/** Removes `.ralph-active` if it is still ours. */
export async function releaseActiveLock(path: string, pid: number): Promise<void> {
  const text = await readOptional(path);
  if (text !== undefined && parseActive(text)?.pid === pid) await unlink(path).catch(() => undefined);
}
