import { chmod, lstat, realpath, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { StartingKeys } from '../domain/starting-keys.js';
import { MAX_READ_BYTES, readSmallRegularFile } from '../files/read-cap.js';
import { replaceWholeSync } from '../files/replace-own-file.js';
import { isObject, restoreStartingKeys } from './starting-keys.js';

/**
 * A state file is read as it is: a link in its place is not followed (the agent's link to a file of
 * yours is no state file), a FIFO not waited on, one larger than ralph reads not read (put back whole).
 */
const AS_IT_IS = { followLinks: false };

/** A state file of the client's as the box was made: its real path, its text (none: absent) and mode. */
export interface KeyFileRecord {
  path: string;
  text?: string;
  mode: number;
  keys: readonly (readonly string[])[];
}

/** What the sweep did to one state file: the keys it put back, or `whole` when it put back the file. */
export interface KeyFileRestore {
  path: string;
  keys: string[][] | 'whole';
}

/** Each state file's text as the box is made, read on the user's behalf: a link or a FIFO is not followed. */
export async function recordKeyFiles(home: string, files: readonly StartingKeys[]): Promise<KeyFileRecord[]> {
  const records = await Promise.all(
    files.map(async ({ file, keys }) => {
      const path = await realpath(join(home, file)).catch(() => join(home, file));
      const read = readSmallRegularFile(path, MAX_READ_BYTES, AS_IT_IS);
      // There but not read (a FIFO, a folder, larger than ralph reads): nothing to put back, so not guarded.
      if (read === undefined && (await lstat(path).catch(() => undefined))) return undefined;
      return { path, keys, mode: read?.mode ?? 0o600, ...(read && { text: read.text }) };
    }),
  );
  return records.filter((record) => record !== undefined);
}

/**
 * After a command in the box: each state file's starting keys put back where the agent changed them;
 * a file that no longer reads as a JSON object, or is a link or a folder now, is put back whole (or
 * removed, where there was none). Resolves to what it put back.
 */
export async function restoreKeyFiles(records: readonly KeyFileRecord[]): Promise<KeyFileRestore[]> {
  const done = await Promise.all(records.map(restoreOne));
  return done.filter((restore) => restore !== undefined);
}

async function restoreOne(record: KeyFileRecord): Promise<KeyFileRestore | undefined> {
  const stats = await lstat(record.path).catch(() => undefined);
  if (stats === undefined) return undefined;
  const current = stats.isFile() ? readSmallRegularFile(record.path, MAX_READ_BYTES, AS_IT_IS) : undefined;
  if (current !== undefined && current.text === record.text) return undefined;
  const value = current && parsed(current.text);
  if (value === undefined) {
    await replace(record.path, record.text, record.mode);
    return { path: record.path, keys: 'whole' };
  }
  const { value: restored, restored: keys } = restoreStartingKeys(parsed(record.text) ?? {}, value, record.keys);
  if (keys.length === 0) return undefined;
  await replace(record.path, `${JSON.stringify(restored, null, 2)}\n`, current?.mode ?? record.mode);
  return { path: record.path, keys };
}

/**
 * The file put back whole or not at all: written beside it and renamed over whatever is there (a link
 * is replaced, never written through); a folder in its place goes first. None before: removed.
 */
async function replace(path: string, text: string | undefined, mode: number): Promise<void> {
  const there = await lstat(path).catch(() => undefined);
  if (text === undefined || there?.isDirectory()) await rm(path, { recursive: true, force: true });
  if (text === undefined) return;
  replaceWholeSync(path, text);
  await chmod(path, mode);
}

function parsed(text: string | undefined): Record<string, unknown> | undefined {
  if (text === undefined) return undefined;
  try {
    const value: unknown = JSON.parse(text);
    return isObject(value) ? value : undefined;
  } catch {
    return undefined;
  }
}
