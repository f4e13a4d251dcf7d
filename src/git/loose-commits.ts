import { createHash } from 'node:crypto';
import { closeSync, constants, existsSync, fstatSync, openSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { GitDirs } from './head-file.js';

// zlib is loaded at the first commit read, not at start: most commands never read one.
let inflater: Promise<(data: Buffer, options: { maxOutputLength: number }) => Promise<Buffer>> | undefined;
const inflateAsync = async (data: Buffer, options: { maxOutputLength: number }) =>
  (await (inflater ??= import('node:zlib').then(({ inflate }) => promisify(inflate))))(data, options);

/** How many commits the walk reads before it leaves the question to git. */
const MAX_COMMITS = 16;

/**
 * Far above any commit object, compressed or not: a bigger file (a zlib bomb, a planted link to a
 * huge file) is left to git, never read into memory.
 */
const MAX_OBJECT_BYTES = 1 << 20;

/**
 * Whether `ancestor` is reachable from `descendant` through commits the agent just made, read from
 * their loose object files — the usual iteration, one or a few commits on the last accepted one,
 * answered without starting git. True only when it found the way; undefined whenever the files
 * do not settle it (a packed or missing object, a longer history): ask git then.
 */
export async function reachesThroughLooseCommits(
  dirs: GitDirs,
  ancestor: string,
  descendant: string,
): Promise<true | undefined> {
  // Grafts and a shallow history give git other parents than the files hold: git answers then.
  if (['info/grafts', 'shallow'].some((name) => existsSync(join(dirs.commonDir, name)))) return undefined;
  const queue = [descendant];
  for (let read = 0; read < MAX_COMMITS && queue.length > 0; read++) {
    const parents = await looseCommitParents(dirs, queue.shift() as string);
    if (parents === undefined) return undefined;
    if (parents.includes(ancestor)) return true;
    for (const parent of parents) queue.push(parent);
    if (queue.length > MAX_COMMITS) return undefined;
  }
  return undefined;
}

/**
 * The parents of a commit stored as a loose object, checked against its hash as git checks it
 * (a file that does not hash to its name is not trusted); undefined for anything else.
 */
export async function looseCommitParents(dirs: GitDirs, hash: string): Promise<string[] | undefined> {
  if (!/^(?:[0-9a-f]{40}|[0-9a-f]{64})$/.test(hash)) return undefined;
  const file = join(dirs.commonDir, 'objects', hash.slice(0, 2), hash.slice(2));
  const compressed = readLooseObject(file);
  if (compressed === undefined) return undefined;
  const object = await inflateAsync(compressed, { maxOutputLength: MAX_OBJECT_BYTES }).catch(() => undefined);
  if (object === undefined) return undefined;
  const algorithm = hash.length === 40 ? 'sha1' : 'sha256';
  if (createHash(algorithm).update(object).digest('hex') !== hash) return undefined;
  const nul = object.indexOf(0);
  if (nul < 0 || !object.subarray(0, nul).toString('latin1').startsWith('commit ')) return undefined;
  // The header lines end at the first blank line; `parent <hash>` lines follow `tree`.
  const header =
    object
      .subarray(nul + 1)
      .toString('utf8')
      .split('\n\n', 1)[0] ?? '';
  return header
    .split('\n')
    .filter((line) => line.startsWith('parent '))
    .map((line) => line.slice('parent '.length));
}

/**
 * The object file's bytes when it is a regular file of a commit's size: never through a link, never
 * a FIFO (a read that would block is no answer), never more than MAX_OBJECT_BYTES.
 */
function readLooseObject(file: string): Buffer | undefined {
  let fd: number;
  try {
    fd = openSync(file, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOCTTY | constants.O_NOFOLLOW);
  } catch {
    return undefined;
  }
  try {
    const stats = fstatSync(fd);
    return stats.isFile() && stats.size <= MAX_OBJECT_BYTES ? readFileSync(fd) : undefined;
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
}
