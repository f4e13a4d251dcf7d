import { link, lstat, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { ioError, isErrno } from '../errors.js';
import { readOwnFileNoLink } from './own-file.js';
import { replaceOwnFile } from './replace-own-file.js';
import { shownPath } from './paths.js';
import type { RunPaths } from './record-paths.js';

/**
 * Moves the run state an older ralph kept in ralph/state.json into the records, once: only while the
 * records hold none, so a ralph/state.json written later (by an agent) is never taken for ralph's.
 * That older ralph's last-run.json comes along as a copy (the one in ralph/logs/ stays published), so
 * `ralph answer --run` still goes on after the upgrade. Resolves to the line that says so, or
 * undefined when there was nothing to move.
 */
export async function moveOldRunState(paths: RunPaths): Promise<string | undefined> {
  const old = join(paths.dir, 'state.json');
  const { records } = paths;
  // Only a regular file is ralph's: a link or a FIFO there was put there, and is left as it is.
  if (!(await isRegularFile(old)) || (await lstat(records.state).catch(() => undefined)) !== undefined)
    return undefined;
  const text = await readOwnFileNoLink(old);
  if (text === undefined || !(await createRecord(paths, records.state, text))) return undefined;
  await rm(old, { force: true }).catch((error: unknown) => {
    throw ioError(error, old, 'write');
  });
  const copied = await copyOldLastRun(paths);
  const shown = (path: string) => shownPath(paths.root, path);
  return `ralph: moved ${shown(old)} to ${shown(records.state)}${copied ? `, and copied ${shown(paths.lastRun)} beside it` : ''}: ralph's records now live in the git dir, where the agent's box cannot write them`;
}

/**
 * Writes a record that must not exist yet: false when another ralph made it first (that one stands).
 * A link, not a rename, puts it in place: a link fails where the name is taken.
 */
async function createRecord(paths: RunPaths, path: string, text: string): Promise<boolean> {
  const moving = `${path}.moving.${process.pid}`;
  await replaceOwnFile(paths.records.base, moving, text);
  try {
    await link(moving, path);
    return true;
  } catch (error) {
    if (isErrno(error, 'EEXIST')) return false;
    throw ioError(error, path, 'write');
  } finally {
    await rm(moving, { force: true }).catch(() => undefined);
  }
}

/** The older ralph's last-run.json, copied into the records when they hold none: whether it was. */
async function copyOldLastRun(paths: RunPaths): Promise<boolean> {
  if (!(await isRegularFile(paths.lastRun))) return false;
  const text = await readOwnFileNoLink(paths.lastRun).catch(() => undefined);
  return text !== undefined && (await createRecord(paths, paths.records.lastRun, text));
}

async function isRegularFile(path: string): Promise<boolean> {
  return (await lstat(path).catch(() => undefined))?.isFile() === true;
}
