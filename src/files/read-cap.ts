import { closeSync, constants, fstatSync, openSync, readFileSync } from 'node:fs';
import { RalphError } from '../errors.js';
import { shownPath } from './paths.js';

const { O_RDONLY, O_NONBLOCK, O_NOCTTY, O_NOFOLLOW } = constants;

/**
 * The most ralph reads whole of one file the agent can write: far above any task list, prompt, run
 * state or decide.txt a person writes (a task list of a thousand stories is well under 1 MiB), far
 * below what would take the memory of ralph's process (a 600 MB tasks.json ended as an internal error).
 */
export const MAX_READ_BYTES = 64 * 1024 * 1024;

/** Refuses a file of `size` bytes over `cap`, before it is read: an io error (74) naming it, the cap and the fix. */
export function refuseOverCap(path: string, size: number, cap = MAX_READ_BYTES): void {
  if (size <= cap) return;
  throw new RalphError(
    'io',
    `${shownPath(process.cwd(), path)} holds ${size} bytes, more than the ${inUnits(cap)} ralph reads of one file`,
    "no file of ralph's is that large: the agent may have blown it up; restore it (git checkout it) or move it away",
  );
}

/** The most ralph peeks at of one file of the agent client's state (its settings, a login file). */
export const CLIENT_FILE_BYTES = 1024 * 1024;

function inUnits(bytes: number): string {
  return bytes % (1024 * 1024) === 0 ? `${bytes / (1024 * 1024)} MiB` : `${bytes / 1024} KiB`;
}

/**
 * A small regular file's text and mode, or undefined for anything else: missing, unreadable, a FIFO,
 * a device, a folder, or over `cap`. For what ralph only peeks at in the agent client's state (its
 * settings, a login file) or keeps on your behalf (the state files the box puts back), which the
 * agent can write too: a FIFO there hung the dry run's plain read. Opened without blocking and
 * judged on the opened descriptor, as readOwnFile does, and nothing is refused aloud: the caller
 * says "unknown", or puts the file back. A link is followed (a person's dotfiles are often links)
 * unless `followLinks` is false: then a link in its place is not read either.
 */
export function readSmallRegularFile(
  path: string,
  cap: number,
  { followLinks = true } = {},
): { text: string; mode: number } | undefined {
  let fd: number;
  try {
    fd = openSync(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | (followLinks ? 0 : O_NOFOLLOW));
  } catch {
    return undefined;
  }
  try {
    const stats = fstatSync(fd);
    return stats.isFile() && stats.size <= cap
      ? { text: readFileSync(fd, 'utf8'), mode: stats.mode & 0o777 }
      : undefined;
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
}

/** readSmallRegularFile's text for the agents' asynchronous login checks, capped at CLIENT_FILE_BYTES. */
export function peekClientFile(path: string): Promise<string | undefined> {
  return Promise.resolve(readSmallRegularFile(path, CLIENT_FILE_BYTES)?.text);
}
