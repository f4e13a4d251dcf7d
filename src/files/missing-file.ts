import { access } from 'node:fs/promises';
import { isErrno } from '../errors.js';

/**
 * Runs a file operation that may find no file: undefined when its path does not exist (ENOENT).
 * Any other failure (a permission, a folder where a file should be) is not "missing" and propagates.
 */
export async function unlessMissing<T>(operation: () => Promise<T>): Promise<T | undefined> {
  try {
    return await operation();
  } catch (error) {
    if (isErrno(error, 'ENOENT')) return undefined;
    throw error;
  }
}

/**
 * Whether something is at the path (a link counts by what it points to). Only "nothing there" is
 * false: a path ralph may not look at (EACCES) propagates, never read as missing.
 */
export async function pathExists(path: string): Promise<boolean> {
  try {
    await access(path);
    return true;
  } catch (error) {
    if (isErrno(error, 'ENOENT') || isErrno(error, 'ENOTDIR')) return false;
    throw error;
  }
}
