import { constants, copyFile } from 'node:fs/promises';
import { RalphError, isErrno } from '../errors.js';
import { localDate } from '../files/archive-name.js';

/** The files `ralph init --reset` may replace: the ones the user writes in. */
export const RESETTABLE = ['prd.md', 'tasks.json', 'progress.txt', 'prompt.md', 'config.json'] as const;

/**
 * The `--reset` values as repository paths (`ralph/tasks.json`), checked before anything is written:
 * each value is one name or a comma-separated list, with or without the `ralph/` in front.
 */
export function resetPaths(values: readonly string[]): string[] {
  const names = values.flatMap((value) => value.split(',')).map((name) => name.trim().replace(/^(\.\/)?ralph\//, ''));
  for (const name of names)
    if (!(RESETTABLE as readonly string[]).includes(name))
      throw new RalphError(
        'usage',
        `--reset ${name === '' ? "''" : name}: not a file ralph init writes for you`,
        `name one or more of ${RESETTABLE.join(', ')}`,
      );
  return [...new Set(names)].map((name) => `ralph/${name}`);
}

/**
 * Copies a file beside itself before it is replaced: `tasks.json.bak-2026-11-26` (the local date, as
 * archives are named), then `-2`, `-3`…
 * An existing backup is never overwritten (`COPYFILE_EXCL`). Resolves to the backup's path.
 */
export async function backUp(target: string, now: Date = new Date()): Promise<string> {
  const base = `${target}.bak-${localDate(now)}`;
  for (let attempt = 1; ; attempt++) {
    const candidate = attempt === 1 ? base : `${base}-${attempt}`;
    try {
      await copyFile(target, candidate, constants.COPYFILE_EXCL);
      return candidate;
    } catch (error) {
      if (!isErrno(error, 'EEXIST')) throw error;
    }
  }
}
