import { link, lstat, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { ioError, isErrno } from '../errors.js';
import { readOwnFileNoLink, replaceOwnFile } from './own-file.js';
import { shownPath } from './paths.js';
import type { RunPaths } from './record-paths.js';

/**
 * Moves the run state an older ralph kept in ralph/state.json into the records, once: only while the
 * records hold none, so a ralph/state.json written later (by an agent) is never taken for ralph's.
 * Resolves to the line that says so, or undefined when there was nothing to move.
 */
export async function moveOldRunState(paths: RunPaths): Promise<string | undefined> {
  const old = join(paths.dir, 'state.json');
  const { state } = paths.records;
  // Only a regular file is ralph's: a link or a FIFO there was put there, and is left as it is.
  const found = await lstat(old).catch(() => undefined);
  if (!found?.isFile() || (await lstat(state).catch(() => undefined)) !== undefined) return undefined;
  const text = await readOwnFileNoLink(old);
  if (text === undefined) return undefined;
  const moving = `${state}.moving.${process.pid}`;
  await replaceOwnFile(paths.records.base, moving, text);
  try {
    // A link, not a rename: it fails when another ralph moved it first, and then that copy stands.
    await link(moving, state);
  } catch (error) {
    if (isErrno(error, 'EEXIST')) return undefined;
    throw ioError(error, state, 'write');
  } finally {
    await rm(moving, { force: true }).catch(() => undefined);
  }
  await rm(old, { force: true }).catch((error: unknown) => {
    throw ioError(error, old, 'write');
  });
  return `ralph: moved ${shownPath(paths.root, old)} to ${shownPath(paths.root, state)}: ralph's records now live in the git dir, where the agent's box cannot write them`;
}
