import { join } from 'node:path';
import { openOwnFileForReading } from '../files/own-file.js';
import { gitDirsFromFiles, readHeadFromFiles } from './head-file.js';

/** What the index says of the work tree's folders: its gitlinks, and every folder a tracked path lies in. */
export interface IndexPaths {
  gitlinks: string[];
  folders: Set<string>;
}

/** Larger than any index this reader should hold in memory: git reads those, streaming. */
const MAX_INDEX_BYTES = 64 * 1024 * 1024;
const GITLINK_MODE = 0o160000;
/** ctime, mtime, dev, ino, mode, uid, gid, size: 4 bytes each, the seconds and nanoseconds twice. */
const STAT_BYTES = 40;
const MODE_OFFSET = 24;
const EXTENDED_FLAG = 0x4000;
const NAME_MASK = 0x0fff;

/**
 * The index of the work tree at `root`, read from its file the way git reads it, without starting a
 * process: after each command in the box ralph asks this, and a git started from a 100 MB process
 * costs more than the whole read. Undefined wherever the files do not settle it — git settings in
 * the environment, no commit yet (the hash's length is HEAD's), an index larger than this reader
 * holds, a version or a split index it does not read, bytes that do not parse: ask git then.
 */
export async function readIndexPaths(root: string): Promise<IndexPaths | undefined> {
  if (process.env.GIT_INDEX_FILE !== undefined || process.env.GIT_OBJECT_DIRECTORY !== undefined) return undefined;
  const dirs = await gitDirsFromFiles(root);
  const head = dirs && (await readHeadFromFiles(dirs).catch(() => undefined));
  if (!dirs || !head) return undefined;
  const handle = await openOwnFileForReading(join(dirs.gitDir, 'index')).catch(() => undefined);
  if (!handle) return undefined;
  try {
    if ((await handle.stat()).size > MAX_INDEX_BYTES) return undefined;
    return indexPaths(await handle.readFile(), head.length / 2);
  } finally {
    await handle.close();
  }
}

/**
 * The gitlinks and folders in an index file's bytes (versions 2, 3 and 4; `hashBytes` 20 for SHA-1,
 * 32 for SHA-256), or undefined where they do not parse or the index is split (its entries then
 * lie in another file). The agent writes these bytes: every offset is checked before it is read.
 */
export function indexPaths(bytes: Buffer, hashBytes: number): IndexPaths | undefined {
  if (bytes.length < 12 + hashBytes || bytes.toString('latin1', 0, 4) !== 'DIRC') return undefined;
  const version = bytes.readUInt32BE(4);
  if (version < 2 || version > 4) return undefined;
  const count = bytes.readUInt32BE(8);
  const end = bytes.length - hashBytes;
  const gitlinks: string[] = [];
  const folders = new Set<string>();
  let offset = 12;
  let previous: Buffer = Buffer.alloc(0);
  for (let entry = 0; entry < count; entry++) {
    const flagsAt = offset + STAT_BYTES + hashBytes;
    if (flagsAt + 2 > end) return undefined;
    const mode = bytes.readUInt32BE(offset + MODE_OFFSET);
    const flags = bytes.readUInt16BE(flagsAt);
    const nameAt = flagsAt + 2 + (version >= 3 && flags & EXTENDED_FLAG ? 2 : 0);
    const name = version === 4 ? prefixedName(bytes, nameAt, end, previous) : plainName(bytes, nameAt, end, flags);
    if (!name) return undefined;
    previous = name.path;
    offset = version === 4 ? name.next : offset + padded(name.next - offset);
    if (offset > end) return undefined;
    const path = name.path.toString('utf8');
    if (mode === GITLINK_MODE) gitlinks.push(path);
    for (let slash = path.lastIndexOf('/'); slash > 0; slash = path.lastIndexOf('/', slash - 1))
      if (folders.has(path.slice(0, slash))) break;
      else folders.add(path.slice(0, slash));
  }
  return splitIndex(bytes, offset, end) ? undefined : { gitlinks, folders };
}

/** Versions 2 and 3: the name, its length in the flags (all ones when longer), then a NUL. */
function plainName(bytes: Buffer, at: number, end: number, flags: number) {
  const length = flags & NAME_MASK;
  const nul = length < NAME_MASK ? at + length : bytes.indexOf(0, at);
  if (nul < at || nul >= end || bytes[nul] !== 0) return undefined;
  return { path: bytes.subarray(at, nul), next: nul + 1 };
}

/** Version 4: how many bytes to drop from the previous name (git's varint), then the rest, NUL-ended. */
function prefixedName(bytes: Buffer, at: number, end: number, previous: Buffer) {
  let offset = at;
  let byte = offset < end ? (bytes[offset++] as number) : 0x80;
  let drop = byte & 0x7f;
  while (byte & 0x80) {
    if (offset >= end || drop > previous.length) return undefined;
    byte = bytes[offset++] as number;
    drop = (drop + 1) * 128 + (byte & 0x7f);
  }
  const nul = bytes.indexOf(0, offset);
  if (drop > previous.length || nul < 0 || nul >= end) return undefined;
  const path = Buffer.concat([previous.subarray(0, previous.length - drop), bytes.subarray(offset, nul)]);
  return { path, next: nul + 1 };
}

/** A version 2 or 3 entry is padded with NULs to a multiple of eight bytes. */
function padded(length: number): number {
  return (length + 7) & ~7;
}

/** Whether the extensions after the entries name a shared index (`link`): the entries are not all here. */
function splitIndex(bytes: Buffer, start: number, end: number): boolean {
  for (let offset = start; offset + 8 <= end; offset += 8 + bytes.readUInt32BE(offset + 4))
    if (bytes.toString('latin1', offset, offset + 4) === 'link') return true;
  return false;
}
