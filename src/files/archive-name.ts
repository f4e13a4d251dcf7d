import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { isErrno, RalphError } from '../errors.js';

/** `Login Page!` → `login-page`: a name reduced to `[a-z0-9-]`, or "" when nothing is left. */
export function reduceName(raw: string): string {
  return raw
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

/**
 * The archive name: `--name` when given, else the task list's `branchName` (without a leading
 * `ralph/`), else its `project`, else `project`. A `--name` that looks like a path, or any name
 * that reduces to nothing, is a set-up error: the name must never steer where files go.
 */
export function archiveName(given: string | undefined, tasks: { branchName?: string; project?: string }): string {
  if (given !== undefined) {
    if (/[/\\]/.test(given) || /^\.+$/.test(given.trim())) {
      throw new RalphError(
        'usage',
        `--name '${given}' looks like a path`,
        'give a plain name such as --name login-page',
      );
    }
    const reduced = reduceName(given);
    if (!reduced)
      throw new RalphError('usage', `--name '${given}' has no letters or digits`, 'give a name made of a-z, 0-9 and -');
    return reduced;
  }
  const candidates = [tasks.branchName?.replace(/^ralph\//, ''), tasks.project, 'project'];
  for (const candidate of candidates) {
    const reduced = reduceName(candidate ?? '');
    if (reduced) return reduced;
  }
  return 'project';
}

/** `2026-06-15`: the local calendar date, since that is the day the user finished. */
export function localDate(at: Date): string {
  const pad = (value: number) => String(value).padStart(2, '0');
  return `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}`;
}

/**
 * Creates `<parent>/<base>`, or `<base>-2`, `<base>-3`… when taken, and returns the one it made.
 * Creating the folder is the claim, so an existing archive is never written into.
 */
export async function createUniqueDir(parent: string, base: string): Promise<string> {
  try {
    await mkdir(parent, { recursive: true });
  } catch (error) {
    throw new RalphError(
      'setup',
      `cannot create the archive folder ${parent}: ${(error as Error).message}`,
      'free the path or fix its permissions',
    );
  }
  for (let suffix = 1; ; suffix += 1) {
    const dir = join(parent, suffix === 1 ? base : `${base}-${suffix}`);
    try {
      await mkdir(dir);
      return dir;
    } catch (error) {
      if (!isErrno(error, 'EEXIST')) throw error;
    }
  }
}
