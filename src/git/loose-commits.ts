import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { inflate } from 'node:zlib';
import { readOwnBytes } from '../files/own-file.js';
import type { GitDirs } from './head-file.js';

const inflateAsync = promisify(inflate);

/** How many commits the walk reads before it leaves the question to git. */
const MAX_COMMITS = 16;

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
  const queue = [descendant];
  for (let read = 0; read < MAX_COMMITS && queue.length > 0; read++) {
    const parents = await looseCommitParents(dirs, queue.shift() as string);
    if (parents === undefined) return undefined;
    if (parents.includes(ancestor)) return true;
    queue.push(...parents);
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
  // Never a FIFO in the object's place: a read that would block is no answer.
  const compressed = await readOwnBytes(file).catch(() => undefined);
  if (compressed === undefined) return undefined;
  const object = await inflateAsync(compressed).catch(() => undefined);
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
