import { open, readFile, rename, unlink, writeFile } from 'node:fs/promises';
import { isErrno, RalphError } from '../errors.js';
import type { ActiveState } from '../loop/ports.js';
import { readOptional } from './signal-files.js';

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
  try {
    const value = JSON.parse(text) as ActiveFile;
    return Number.isInteger(value.pid) && value.pid > 0 ? value : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Takes the run lock: creates `.ralph-active` exclusively, so of two simultaneous starts only
 * one proceeds. A file left by a dead process is taken over; the warning says so.
 */
export async function acquireActiveLock(path: string, initial: ActiveFile): Promise<{ warning?: string }> {
  if (await createExclusive(path, initial)) return {};
  const existing = parseActive(await readFile(path, 'utf8').catch(() => ''));
  if (existing && isPidAlive(existing.pid)) throw lockHeld(existing);
  await unlink(path).catch(() => undefined);
  if (await createExclusive(path, initial)) {
    return { warning: `took over a stale ralph/.ralph-active left by pid ${existing?.pid ?? 'unknown'}, which is no longer running` };
  }
  const winner = parseActive(await readFile(path, 'utf8').catch(() => ''));
  throw lockHeld(winner ?? { ...initial, pid: 0 });
}

/** Creates the file only if it does not exist; false when it does. */
async function createExclusive(path: string, active: ActiveFile): Promise<boolean> {
  try {
    const handle = await open(path, 'wx');
    await handle.writeFile(JSON.stringify(active, null, 2) + '\n');
    await handle.close();
    return true;
  } catch (error) {
    if (isErrno(error, 'EEXIST')) return false;
    throw error;
  }
}

function lockHeld(active: ActiveFile): RalphError {
  return new RalphError(
    `another ralph run is active in this repository (pid ${active.pid}, iteration ${active.iteration})`,
    64,
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
