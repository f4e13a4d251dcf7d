import type { KeyFileRestore } from './key-files.js';
import { GIT_TIMEOUT_MS } from '../git/safe-git.js';
import { MAX_GIT_DIR_ENTRIES } from './git-dir-strays.js';
import type { NestedSweep, SetAside } from './nested-sweep.js';

/** The line for a git redirect the agent (or its gate) made, which ralph took away after its command. */
export function sweptLine(path: string): string {
  return `the box removed ${path}, which the agent made: git outside the box would have followed it to a config of the agent's`;
}

/** The lines for one sweep's moves into ralph's records, then for each git dir it could not walk whole. */
export function nestedSweepLines({ moved, mended, unfinished }: NestedSweep): string[] {
  return [...moved.map(setAsideLine), ...mended.map(mendedLine), ...unfinished.map(unfinishedLine)];
}

/** Why the git dir's shape is put back: without it git passes .git by and takes another repository. */
const SHAPE_WHY =
  "git would have passed .git by and taken the work tree, or a folder above it, as the repository, with a config of the agent's";

/** The line for a part of the git dir's shape the agent removed, which ralph made again. */
function mendedLine(path: string): string {
  return `the box put back ${path}, which the agent removed: ${SHAPE_WHY}`;
}

/**
 * The line for a nested repository's `.git` the agent made, a FIFO or device it left in a git dir,
 * or what it made where you named a read-only path that was not there (the path, or a link on its way).
 */
export function setAsideLine({ from, to, what, given, shape }: SetAside): string {
  if (shape)
    return `the box moved ${from}, ${what}, to ${to} and put back what was there as the box was made: ${SHAPE_WHY}`;
  if (what)
    return `the box moved ${from}, ${what} where git keeps only files, to ${to}: git would have waited on it, or read it without end, when it opened it`;
  if (given !== undefined)
    return `the box moved ${from}, which the agent made, to ${to}: --box-read-only ${given} was not there as the box was made, so the box could not hold it read-only`;
  return `the box moved ${from}, which the agent made, to ${to}: your git would have entered the nested repository there and run its config and hooks`;
}

/** The line for a git dir whose walk stopped at its cap: what lies further in was not looked at. */
function unfinishedLine(gitDir: string): string {
  return `the box looked for FIFOs and devices in ${gitDir} and could not see all of it (it stops after ${MAX_GIT_DIR_ENTRIES} entries, and at a folder it cannot list): one there would make git wait (ralph's own git gives up after ${GIT_TIMEOUT_MS / 1000} s); find them with: find ${gitDir} ! -type f ! -type d`;
}

/** The line for a client setting the agent made, which ralph took away after its command. */
export function settingSweptLine(path: string): string {
  return `the box removed ${path}, which the agent made: the client, started by you outside the box, would have run what it names`;
}

/** The line for a client state file whose program-starting keys ralph put back after the agent's command. */
export function keysRestoredLine({ path, keys }: KeyFileRestore): string {
  const what = keys === 'whole' ? 'the whole file' : keys.map((key) => key.join('.')).join(', ');
  return `the box put back ${what} in ${path}, as it was before the agent changed it: the client, started by you outside the box, would have run what it names`;
}
