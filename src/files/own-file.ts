import {
  closeSync,
  constants,
  fstatSync,
  lstatSync,
  mkdirSync,
  openSync,
  readFileSync,
  writeFileSync,
  type Stats,
} from 'node:fs';
import { lstat, open, readlink, type FileHandle } from 'node:fs/promises';
import { dirname, join, relative, sep } from 'node:path';
import { errnoCode, ioError, isErrno, RalphError } from '../errors.js';
import { shownPath } from './paths.js';
import { MAX_READ_BYTES, refuseOverCap } from './read-cap.js';

/**
 * The one way ralph opens its own files under ralph/. The agent writes into the work tree what it
 * likes: a symbolic link in place of summary.csv (to ~/.bashrc), a FIFO in place of tasks.json, a
 * linked ralph/logs. So a write never follows a link (O_NOFOLLOW, and every folder from the
 * repository root down is a real folder, made here when missing), and a read never blocks
 * (O_NONBLOCK: a FIFO opens at once) and takes only a regular file, judged on the opened
 * descriptor (fstat), so nothing can be swapped between a check and the open. A refusal is an
 * `io` error (exit 74) naming the path and what is there.
 *
 * Reads follow a link: a user may link tasks.json to a file of theirs, and a link is no hang.
 *
 * The small whole-file reads and writes are synchronous: each is a handful of system calls on a
 * local file that cannot block (O_NONBLOCK, regular files only), and every asynchronous call would
 * be one more round trip through libuv's thread pool. The loop makes dozens of them between two
 * agents, and on a busy machine each round trip waits for a thread to be scheduled (bench/RESULTS.md).
 * Files that are streamed (logs, the CSV's tail) keep their asynchronous handles. A file replaced
 * whole goes through replace-own-file.ts, whose rename alone waits on the thread pool.
 */

const { O_RDONLY, O_WRONLY, O_CREAT, O_EXCL, O_APPEND, O_NOFOLLOW, O_NONBLOCK, O_NOCTTY } = constants;

/** A file's text, or undefined when there is none; anything but a regular file is refused. */
export async function readOwnFile(path: string, options: { maxBytes?: number } = {}): Promise<string | undefined> {
  return (await readOwnBytes(path, options))?.toString('utf8');
}

/**
 * A file's bytes, or undefined when there is none; anything but a regular file, or one over
 * MAX_READ_BYTES (read-cap.ts), is refused. `followLinks` false refuses a link in its place too.
 */
export async function readOwnBytes(
  path: string,
  { followLinks = true, maxBytes = MAX_READ_BYTES } = {},
): Promise<Buffer | undefined> {
  let fd: number;
  try {
    fd = openSync(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | (followLinks ? 0 : O_NOFOLLOW));
  } catch (error) {
    if (isErrno(error, 'ENOENT') || isErrno(error, 'ENOTDIR')) return undefined;
    throw await refusal(error, path, 'read');
  }
  try {
    const stats = fstatSync(fd);
    if (!stats.isFile()) throw notRegular(path, stats, 'read');
    refuseOverCap(path, stats.size, maxBytes);
    return readFileSync(fd);
  } finally {
    closeSync(fd);
  }
}

/**
 * A file's text, or undefined when there is none; a link in its place is refused too. For a file the
 * agent may have planted that ralph reads on the human's behalf, outside any sandbox of the agent's
 * (ralph/blocked.txt for `ralph answer`): a link to ~/.ssh/id_rsa must not be copied into the repository.
 */
export async function readOwnFileNoLink(path: string): Promise<string | undefined> {
  return (await readOwnBytes(path, { followLinks: false }))?.toString('utf8');
}

/** Opens a file for reading (a regular file only, never blocking), or undefined when there is none. */
export async function openOwnFileForReading(
  path: string,
  { followLinks = true }: { followLinks?: boolean } = {},
): Promise<FileHandle | undefined> {
  let handle: FileHandle;
  try {
    handle = await open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | (followLinks ? 0 : O_NOFOLLOW));
  } catch (error) {
    if (isErrno(error, 'ENOENT') || isErrno(error, 'ENOTDIR')) return undefined;
    throw await refusal(error, path, 'read');
  }
  const stats = await handle.stat();
  if (stats.isFile()) return handle;
  await handle.close();
  throw notRegular(path, stats, 'read');
}

/**
 * Appends to a file, made when missing; `text` may depend on whether the file was empty (a CSV's
 * header). A link, a FIFO or anything but a regular file in its place is refused.
 */
export async function appendOwnFile(
  root: string,
  path: string,
  text: string | ((empty: boolean) => string),
): Promise<void> {
  await folderOf(root, path);
  let fd: number;
  try {
    fd = openSync(path, O_WRONLY | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_APPEND, 0o666);
  } catch (error) {
    throw await refusal(error, path, 'write');
  }
  try {
    const stats = fstatSync(fd);
    if (!stats.isFile()) throw notRegular(path, stats, 'write');
    try {
      writeFileSync(fd, typeof text === 'string' ? text : text(stats.size === 0));
    } catch (error) {
      throw ioError(error, path, 'write');
    }
  } finally {
    closeSync(fd);
  }
}

/** Creates a new file (never over an existing one, nor through a link) and opens it for writing. */
export function createOwnFile(root: string, path: string): Promise<FileHandle> {
  return openOwnFileForWriting(root, path, O_EXCL);
}

/** Opens a regular file for writing, made when missing, in a real folder of the repository. */
async function openOwnFileForWriting(root: string, path: string, flags: number): Promise<FileHandle> {
  await folderOf(root, path);
  let handle: FileHandle;
  try {
    handle = await open(path, O_WRONLY | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | flags, 0o666);
  } catch (error) {
    throw await refusal(error, path, 'write');
  }
  const stats = await handle.stat();
  if (stats.isFile()) return handle;
  await handle.close();
  throw notRegular(path, stats, 'write');
}

/** The file's folder, as ownFolder makes sure of it; an OS error there is an io error naming the folder. */
async function folderOf(root: string, path: string): Promise<void> {
  await ownFolder(root, dirname(path)).catch((error: unknown) => {
    throw ioError(error, dirname(path), 'write');
  });
}

/**
 * Makes sure `dir` is a real folder inside `root`: each part from the root down is a folder (made
 * when missing), never a link to one elsewhere, so nothing ralph writes lands outside the repository.
 */
export async function ownFolder(root: string, dir: string): Promise<void> {
  const inside = relative(root, dir);
  if (inside.startsWith('..') || inside.startsWith(sep)) throw new Error(`${dir} is not inside ${root}`);
  let current = root;
  for (const part of inside.split(sep).filter(Boolean)) {
    current = join(current, part);
    // An OS error (EACCES, ENOSPC) propagates as it is: the caller names what it was doing.
    const stats = lstatOrNothing(current);
    if (stats?.isDirectory()) continue;
    if (stats?.isSymbolicLink()) throw await refusal(stats, current, 'write', 'folder');
    // A file in the way fails here as mkdir fails (EEXIST), an OS error like any other.
    try {
      mkdirSync(current);
    } catch (error) {
      // Made meanwhile by ralph itself (two writes at once): checked again below.
      if (stats || !isErrno(error, 'EEXIST')) throw error;
    }
    const made = lstatSync(current);
    if (!made.isDirectory()) throw await refusal(made, current, 'write', 'folder');
  }
}

function lstatOrNothing(path: string): Stats | undefined {
  try {
    return lstatSync(path);
  } catch (error) {
    if (isErrno(error, 'ENOENT')) return undefined;
    throw error;
  }
}

/** The refusal for what stands at `path`, from the failed open's error or the lstat of it. */
export async function refusal(
  cause: unknown,
  path: string,
  action: 'read' | 'write',
  wanted: 'file' | 'folder' = 'file',
): Promise<RalphError> {
  const stats = isStats(cause) ? cause : await lstat(path).catch(() => undefined);
  // ELOOP: O_NOFOLLOW met a link; EEXIST: O_EXCL met one; ENXIO: a FIFO with no reader, or a socket…
  const code = isStats(cause) ? undefined : errnoCode(cause);
  const whatIsThere =
    code === undefined || ['ELOOP', 'ENXIO', 'EISDIR', 'ENODEV', 'EOPNOTSUPP', 'EEXIST'].includes(code);
  if (stats && whatIsThere && !(wanted === 'file' ? stats.isFile() : stats.isDirectory())) {
    if (stats.isSymbolicLink()) {
      // The agent chose the target: its control characters are shown, never sent to the terminal.
      const target = visible(await readlink(path).catch(() => '?'));
      return new RalphError(
        'io',
        `${shown(path)} is a symbolic link (to ${target})`,
        wanted === 'file'
          ? `ralph ${action === 'read' ? 'reads' : 'writes'} only regular files it owns; remove the link`
          : 'ralph writes only into real folders of the repository; remove the link',
      );
    }
    return notRegular(path, stats, action, wanted);
  }
  return ioError(cause, path, action === 'read' ? 'read' : 'write');
}

/** Anything but a regular file (or a folder, where one is wanted) where ralph reads or writes one. */
export function notRegular(path: string, stats: Stats, action: 'read' | 'write', wanted: 'file' | 'folder' = 'file') {
  return new RalphError(
    'io',
    wanted === 'file'
      ? `${shown(path)} is ${kindOf(stats)}, not a regular file`
      : `${shown(path)} is ${kindOf(stats)}, not a folder`,
    `ralph ${action === 'read' ? 'reads' : 'writes'} only ${wanted === 'file' ? 'regular files' : 'real folders'}; move it away`,
  );
}

function kindOf(stats: Stats): string {
  if (stats.isSymbolicLink()) return 'a symbolic link';
  if (stats.isFIFO()) return 'a FIFO (named pipe)';
  if (stats.isSocket()) return 'a socket';
  if (stats.isCharacterDevice() || stats.isBlockDevice()) return 'a device';
  if (stats.isDirectory()) return 'a folder';
  return 'a regular file';
}

function isStats(value: unknown): value is Stats {
  return typeof value === 'object' && value !== null && typeof (value as Stats).isFIFO === 'function';
}

/** The path as the person at the terminal would type it. */
function shown(path: string): string {
  return shownPath(process.cwd(), path);
}

/** Text with its control characters written out (`\x1b`), for a line on the terminal. */
function visible(text: string): string {
  return text.replace(
    /[\u0000-\u001f\u007f-\u009f]/g,
    (char) => `\\x${char.charCodeAt(0).toString(16).padStart(2, '0')}`,
  );
}
