import { constants } from 'node:fs';
import { lstat, open, rename, rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import { ioError, isErrno } from '../errors.js';
import { ownFolder, refusal } from './own-file.js';

const { O_WRONLY, O_CREAT, O_EXCL, O_NOFOLLOW } = constants;

/**
 * replaceOwnFile's twin for the records an iteration writes (state.json): the same checks, but
 * every call on libuv's thread pool. A rename over an existing file waits for the disk to take
 * the old file's replacement (ext4's auto_da_alloc), 6–89 ms on a busy disk (bench/RESULTS.md);
 * on the event loop that wait would hold the screen, the timers and the next agent's start.
 */
export async function replaceOwnFileOffLoop(root: string, path: string, text: string): Promise<void> {
  await ownFolder(root, dirname(path)).catch((error: unknown) => {
    throw ioError(error, dirname(path), 'write');
  });
  const present = await lstat(path).catch((error: unknown) => {
    if (isErrno(error, 'ENOENT')) return undefined;
    throw ioError(error, path, 'write');
  });
  if (present && !present.isFile()) throw await refusal(present, path, 'write');
  try {
    await replaceWhole(path, text);
  } catch (error) {
    throw ioError(error, path, 'write');
  }
}

/** The text into a new file beside `path` (made exclusively, never through a link), renamed over it. */
async function replaceWhole(path: string, text: string): Promise<void> {
  const temporary = `${path}.${process.pid}.tmp`;
  await rm(temporary, { force: true });
  try {
    const handle = await open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, 0o666);
    try {
      await handle.writeFile(text);
    } finally {
      await handle.close();
    }
    await rename(temporary, path);
  } catch (error) {
    await rm(temporary, { force: true }).catch(() => undefined);
    throw error;
  }
}
