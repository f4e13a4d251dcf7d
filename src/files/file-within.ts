import { closeSync, constants, fstatSync, openSync, readFileSync, readlinkSync, realpathSync } from 'node:fs';
import { isAbsolute, relative } from 'node:path';
import { ioError, isErrno, RalphError } from '../errors.js';
import { notRegular } from './own-file.js';
import { shownPath } from './paths.js';
import { refuseOverCap } from './read-cap.js';

const { O_RDONLY, O_NONBLOCK, O_NOCTTY } = constants;

/**
 * A file's text, or undefined when there is none, refused when what was opened does not really lie
 * inside `root`. For the agent's files that ralph reads outside the box (the task list, a prompt
 * named by ralph/config.json): the agent can put a link on the way — ralph/tasks.json pointing at
 * ~/.ssh/id_rsa, a folder pointing out — which the box leaves dangling for the agent but ralph would
 * follow. What was opened is asked after opening (Linux: /proc/self/fd), so a link swapped in between
 * a check and the read is caught too. Anything but a regular file is refused, as readOwnFile does, and so is
 * one over MAX_READ_BYTES (read-cap.ts): the task list the agent blew up to 600 MB is one line, not a crash.
 */
export function readFileWithin(root: string, path: string): string | undefined {
  let fd: number;
  try {
    fd = openSync(path, O_RDONLY | O_NONBLOCK | O_NOCTTY);
  } catch (error) {
    if (isErrno(error, 'ENOENT') || isErrno(error, 'ENOTDIR')) return undefined;
    throw ioError(error, path, 'read');
  }
  try {
    const opened = openedPath(fd, path);
    const inside = relative(realpathSync(root), opened);
    if (inside === '' || inside.startsWith('..') || isAbsolute(inside))
      // One of ralph's own files, like a link in ralph/logs' place: an io fault (74), as own-file.ts says those.
      throw new RalphError(
        'io',
        `${shownPath(process.cwd(), path)} leads outside the repository, to ${opened}`,
        "put the file itself there, not a link: ralph reads it outside the agent's box",
      );
    const stats = fstatSync(fd);
    if (!stats.isFile()) throw notRegular(path, stats, 'read');
    refuseOverCap(path, stats.size);
    return readFileSync(fd, 'utf8');
  } finally {
    closeSync(fd);
  }
}

/** The real path of what `fd` is: the kernel's word on Linux; elsewhere the path's links resolved. */
function openedPath(fd: number, path: string): string {
  if (process.platform === 'linux') {
    try {
      return readlinkSync(`/proc/self/fd/${fd}`);
    } catch {
      // No /proc (a chroot without it): the path's links resolved, as elsewhere.
    }
  }
  return realpathSync(path);
}
