import { lstatSync, mkdirSync, readFileSync, readlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { isHeadText } from '../git/head-file.js';

/**
 * What makes a folder a git dir in git's eyes: a HEAD that names a ref or a commit, and the
 * folders `objects` and `refs`. One that fails it git passes by, and takes the first folder above
 * the work tree, or the work tree itself, that looks like one: the agent's own bare repository at
 * the root (HEAD, objects, refs, and a config of its own), whose filters and fsmonitor your next
 * `git status` runs on the host, or whose HEAD is a FIFO that holds it for ever (the red team's F1,
 * F2). ralph's own git refuses such a repository (safe.bareRepository=explicit); this keeps yours
 * from finding it: after each command the shape is put back.
 */
export interface GitDirShape {
  /** The git dir whose HEAD this is (the loop's own), and the common one holding objects and refs. */
  gitDir: string;
  commonDir: string;
  /** HEAD's text as the box was made: put back when the agent left one git cannot read. */
  head: string;
}

/** The shape as the box is made; undefined when HEAD is no plain, readable one then (nothing to put back). */
export function recordGitDirShape(gitDir: string, commonDir: string): GitDirShape | undefined {
  const head = readHead(join(gitDir, 'HEAD'));
  return head === undefined ? undefined : { gitDir, commonDir, head };
}

/** What is wrong with the shape now, each with what it is; the caller moves each aside, then `restore` mends. */
export function brokenShape(shape: GitDirShape): { path: string; what: string }[] {
  const broken: { path: string; what: string }[] = [];
  const head = join(shape.gitDir, 'HEAD');
  if (!isLinkIntoRefs(head) && readHead(head) === undefined && exists(head))
    broken.push({ path: head, what: 'a HEAD git cannot read' });
  for (const name of ['objects', 'refs']) {
    const path = join(shape.commonDir, name);
    const stats = lstatOrNothing(path);
    if (stats && !stats.isDirectory()) broken.push({ path, what: `no folder where git keeps its ${name}` });
  }
  return broken;
}

/** After the broken parts were moved aside: HEAD written back as it was, `objects` and `refs` made where missing. */
export function restoreShape(shape: GitDirShape): string[] {
  const mended: string[] = [];
  const head = join(shape.gitDir, 'HEAD');
  if (!exists(head)) {
    writeFileSync(head, shape.head);
    mended.push(head);
  }
  for (const name of ['objects', 'refs']) {
    const path = join(shape.commonDir, name);
    if (exists(path)) continue;
    mkdirSync(path);
    mended.push(path);
  }
  return mended;
}

/** A plain HEAD's text if git accepts it; undefined for anything else (never opened unless a regular file). */
function readHead(path: string): string | undefined {
  const stats = lstatOrNothing(path);
  if (!stats?.isFile() || stats.size > 4096) return undefined;
  try {
    const text = readFileSync(path, 'utf8');
    return isHeadText(text) ? text : undefined;
  } catch {
    return undefined;
  }
}

/** git's older way: HEAD a symbolic link to a ref. */
function isLinkIntoRefs(path: string): boolean {
  if (!lstatOrNothing(path)?.isSymbolicLink()) return false;
  try {
    return readlinkSync(path).startsWith('refs/');
  } catch {
    return false;
  }
}

function exists(path: string): boolean {
  return lstatOrNothing(path) !== undefined;
}

function lstatOrNothing(path: string) {
  try {
    return lstatSync(path);
  } catch {
    return undefined;
  }
}
