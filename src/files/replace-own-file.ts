import { closeSync, constants, lstatSync, openSync, renameSync, rmSync, writeFileSync, type Stats } from 'node:fs';
import { rename } from 'node:fs/promises';
import { dirname } from 'node:path';
import { ioError, isErrno } from '../errors.js';
import { ownFolder, refusal } from './own-file.js';

const { O_WRONLY, O_CREAT, O_EXCL, O_NOFOLLOW } = constants;

/**
 * The one way a file under ralph/ is replaced: whole or not at all. The text goes to a new file
 * beside it (O_EXCL|O_NOFOLLOW), renamed over it; a link or anything but a regular file in its
 * place is refused, not replaced. Resolves once the rename is done: a decision recorded this way
 * is on disk before ralph acts on it.
 *
 * Every step is synchronous but the rename, which runs on libuv's thread pool: a rename over an
 * existing file waits for the disk to take the new file's blocks (ext4's auto_da_alloc), 6–89 ms
 * on a busy disk (bench/RESULTS.md), which on the event loop would hold the screen, the timers and
 * the next agent's start; the other steps cannot wait for a disk, and each of them through the
 * pool would cost a round trip (bench/RESULTS.md, "The thread pool"). Replaces of one path under
 * way at once in one process each write a temporary file of their own, renamed in the order asked.
 */
export async function replaceOwnFile(root: string, path: string, text: string): Promise<void> {
  await ownFolder(root, dirname(path)).catch((error: unknown) => {
    throw ioError(error, dirname(path), 'write');
  });
  let present: Stats | undefined;
  try {
    present = lstatSync(path);
  } catch (error) {
    if (!isErrno(error, 'ENOENT')) throw ioError(error, path, 'write');
  }
  if (present && !present.isFile()) throw await refusal(present, path, 'write');
  const slot = claimSlot(path);
  try {
    const temporary = writeBeside(path, slot, text);
    await inTurn(path, () => rename(temporary, path)).catch((error: unknown) => {
      removeQuietly(temporary);
      throw error;
    });
  } catch (error) {
    throw ioError(error, path, 'write');
  } finally {
    releaseSlot(path, slot);
  }
}

/**
 * replaceOwnFile's steps, the rename too, without the event loop: for a crash's last word and the
 * run's description as it takes the lock, where nothing may wait. No check of the folder or of what
 * stands at `path`: a link there is replaced by the rename, never written through.
 */
export function replaceWholeSync(path: string, text: string): void {
  const slot = claimSlot(path);
  try {
    const temporary = writeBeside(path, slot, text);
    try {
      renameSync(temporary, path);
    } catch (error) {
      removeQuietly(temporary);
      throw error;
    }
  } finally {
    releaseSlot(path, slot);
  }
}

/** The temporary files in use beside each path, by number: 0 for `<path>.<pid>.tmp`. */
const slots = new Map<string, Set<number>>();

/**
 * The lowest number no replace of `path` under way holds: one replace at a time writes
 * `<path>.<pid>.tmp`, as ever; replaces under way at once (two on the pool, one on the pool and
 * one synchronous) never share a file.
 */
function claimSlot(path: string): number {
  const taken = slots.get(path) ?? new Set<number>();
  let slot = 0;
  while (taken.has(slot)) slot += 1;
  taken.add(slot);
  slots.set(path, taken);
  return slot;
}

function releaseSlot(path: string, slot: number): void {
  const taken = slots.get(path);
  taken?.delete(slot);
  if (taken?.size === 0) slots.delete(path);
}

/**
 * The text into a new file beside `path`; its name. The name is guessable and its folder may be the
 * agent's, so whatever stands there (a crash's leftover, a link to ~/.bashrc) goes first, the name
 * itself and never its target, and the new file is made exclusively (O_EXCL|O_NOFOLLOW).
 */
function writeBeside(path: string, slot: number, text: string): string {
  const temporary = slot === 0 ? `${path}.${process.pid}.tmp` : `${path}.${process.pid}.${slot}.tmp`;
  rmSync(temporary, { force: true });
  try {
    const fd = openSync(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, 0o666);
    try {
      writeFileSync(fd, text);
    } finally {
      closeSync(fd);
    }
  } catch (error) {
    removeQuietly(temporary);
    throw error;
  }
  return temporary;
}

function removeQuietly(temporary: string): void {
  try {
    rmSync(temporary, { force: true });
  } catch {
    // The write's own error is the one to report.
  }
}

/** The last rename asked for of each path, while one is under way. */
const renaming = new Map<string, Promise<void>>();

/**
 * Runs `step` after every earlier step for the same path has settled: the pool runs renames in no
 * set order, and the text asked for last must be the one left.
 */
function inTurn(path: string, step: () => Promise<void>): Promise<void> {
  const mine = (renaming.get(path) ?? Promise.resolve()).then(step, step);
  renaming.set(path, mine);
  const forget = () => {
    if (renaming.get(path) === mine) renaming.delete(path);
  };
  void mine.then(forget, forget);
  return mine;
}
