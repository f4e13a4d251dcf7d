import type { KeyFileRestore } from './key-files.js';
import type { SetAside } from './nested-sweep.js';

/** The line for a git redirect the agent (or its gate) made, which ralph took away after its command. */
export function sweptLine(path: string): string {
  return `the box removed ${path}, which the agent made: git outside the box would have followed it to a config of the agent's`;
}

/**
 * The line for what ralph moved into its records: a nested repository's `.git` the agent made, or
 * what it made where you named a read-only path that was not there (the path, or a link on its way).
 */
export function setAsideLine({ from, to, given }: SetAside): string {
  if (given !== undefined)
    return `the box moved ${from}, which the agent made, to ${to}: --box-read-only ${given} was not there as the box was made, so the box could not hold it read-only`;
  return `the box moved ${from}, which the agent made, to ${to}: your git would have entered the nested repository there and run its config and hooks`;
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
