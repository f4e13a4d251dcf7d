import { lstat, realpath } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { accessAt, type Access } from './box-policy.js';
import type { PlacedMount } from './bubblewrap.js';

/**
 * A path you named read-only (`--box-read-only`, `box.readOnly`) that was not there as the box was
 * made, in a place the agent may write. A bind cannot hold a path that does not exist (bwrap would
 * leave an empty file in its place, in your tree), so the agent could make it — an `.envrc` direnv
 * later runs — and ralph sets aside whatever it made there after each command (nested-sweep.ts).
 */
export interface AbsentReadOnly {
  /** As you gave it, for the warning. */
  given: string;
  /** Its deepest folder that was there, real: a mount of the box's own, so the agent cannot swap it. */
  base: string;
  /** The names below `base` down to the path, none of which was there. */
  below: readonly string[];
}

/** Your read-only paths that were not there: those swept after each command, and those the box cannot hold. */
export interface AbsentRecord {
  swept: AbsentReadOnly[];
  /** As given: something on the way is there but leads nowhere (a link to a missing place). */
  unheld: string[];
}

/** A path where its deepest part that is there is real, and the rest as named. */
export async function realPlace(absolute: string): Promise<string> {
  const place = await placeOf(absolute);
  return place === 'unresolved' ? absolute : join(place.base, ...place.below);
}

/**
 * Which of your read-only paths were not there as the box is made, and of those which the agent
 * could make: the deepest mount above decides, as the kernel does. Below a read-only or hidden
 * folder, or in the box's own temporary folders, nothing it makes reaches yours.
 */
export async function recordAbsentReadOnly(
  asked: readonly string[],
  absoluteOf: (given: string) => string,
  mounts: readonly PlacedMount[],
): Promise<AbsentRecord> {
  const byPath = new Map<string, Access>(mounts.map((mount) => [mount.path, mount.access]));
  const record: AbsentRecord = { swept: [], unheld: [] };
  for (const given of asked) {
    const place = await placeOf(absoluteOf(given));
    if (place === 'unresolved') record.unheld.push(given);
    else if (place.below.length > 0 && accessAt(byPath, place.base) === 'write' && !recorded(record.swept, place))
      record.swept.push({ given, ...place });
  }
  return record;
}

/** Whether a path is recorded already: named by the flag and the config both, or by two spellings. */
function recorded(swept: readonly AbsentReadOnly[], { base, below }: { base: string; below: readonly string[] }) {
  const path = join(base, ...below);
  return swept.some((record) => join(record.base, ...record.below) === path);
}

/** One thing the agent made where you named a path read-only: the path itself, or a link on its way. */
export interface AbsentStray {
  path: string;
  given: string;
}

/**
 * After each command: what is at each recorded path now, found with lstat alone (nothing opened, no
 * link followed). A link on the way is the stray itself: through it the path would lead wherever
 * the agent pointed it.
 */
export async function absentStrays(records: readonly AbsentReadOnly[]): Promise<AbsentStray[]> {
  const found = await Promise.all(records.map(strayOf));
  return found.filter((stray) => stray !== undefined);
}

async function strayOf({ given, base, below }: AbsentReadOnly): Promise<AbsentStray | undefined> {
  let path = base;
  for (let at = -1; at < below.length; at++) {
    if (at >= 0) path = join(path, below[at] as string);
    const stats = await lstat(path).catch(() => undefined);
    if (stats === undefined) return undefined;
    if (at === below.length - 1 || stats.isSymbolicLink()) return { path, given };
    if (!stats.isDirectory()) return undefined;
  }
  return undefined;
}

/**
 * The deepest part of `absolute` that resolves, real, and the names below it (none: the whole path
 * is there); `unresolved` when a part is there but does not resolve (a link to a missing place).
 */
async function placeOf(absolute: string): Promise<{ base: string; below: string[] } | 'unresolved'> {
  const below: string[] = [];
  for (let at = absolute; ; at = dirname(at)) {
    const real = await realpath(at).catch(() => undefined);
    if (real !== undefined) return { base: real, below };
    if (at === dirname(at) || (await lstat(at).catch(() => undefined))) return 'unresolved';
    below.unshift(basename(at));
  }
}
