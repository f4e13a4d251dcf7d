import { existsSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { RalphError } from '../errors.js';
import { readOwnFile } from '../files/own-file.js';
import { ralphPaths, shownPath } from '../files/paths.js';
import { LISTS_DIR } from './list-dirs.js';

/** The variable that sets --tasks (run-options.ts's envName of the flag; a test holds the two together). */
export const TASKS_VARIABLE = 'RALPH_TASKS';

/** The task list a command works on, and where that choice came from. */
export interface ChosenList {
  /** Absolute path of the list's file. */
  file: string;
  /** The list's name under ralph/lists/; undefined for ralph/tasks.json or any other file. */
  name?: string;
}

/**
 * The task list of `run`, `status` and `archive`: `--tasks`, else RALPH_TASKS (both relative to
 * where ralph was started), else the config's `tasks` (relative to the repository root), else
 * ralph/tasks.json. The file must lie inside the repository: the agent edits it there.
 */
export async function chooseTaskList(
  root: string,
  cwd: string,
  given: string | undefined,
  env: NodeJS.ProcessEnv,
): Promise<ChosenList> {
  const fromCommandLine = given ?? (env[TASKS_VARIABLE] === '' ? undefined : env[TASKS_VARIABLE]);
  const paths = ralphPaths(root);
  const configured =
    fromCommandLine === undefined && (await mayNameTasks(paths.config))
      ? (await (await import('../config/load-config.js')).loadConfig(paths.config, shownPath(cwd, paths.config))).tasks
      : undefined;
  const raw = fromCommandLine ?? (typeof configured === 'string' ? configured : undefined);
  if (raw === undefined) return { file: paths.tasks };
  const file = resolve(fromCommandLine === undefined ? root : cwd, raw);
  const inside = relative(root, file);
  if (inside === '' || inside.startsWith('..') || isAbsolute(inside))
    throw new RalphError(
      'usage',
      `--tasks ${raw}: the task list must be a file inside the repository (${root})`,
      `put it under ${LISTS_DIR}/ and name that file`,
    );
  return { file, ...listName(root, file) };
}

/** The list's name when the file is ralph/lists/<name>.json. */
function listName(root: string, file: string): { name?: string } {
  if (dirname(file) !== join(root, LISTS_DIR) || !file.endsWith('.json')) return {};
  return { name: basename(file, '.json') };
}

/**
 * Whether config.json may set `tasks`: it says so, or escapes a character (a key could hide in
 * `\u…`). Otherwise the configuration's schema, the slowest thing `ralph status` could load, is not.
 */
async function mayNameTasks(path: string): Promise<boolean> {
  const text = await readOwnFile(path).catch(() => undefined);
  return text !== undefined && (text.includes('tasks') || text.includes('\\'));
}

/**
 * A list the user named (--tasks, RALPH_TASKS, the config) must be there: reading the default's
 * absence ("run ralph init") into a mistyped name would send the user the wrong way.
 */
export function requireNamedList(root: string, cwd: string, file: string): void {
  if (file === ralphPaths(root).tasks || existsSync(file)) return;
  throw new RalphError(
    'setup',
    `${shownPath(cwd, file)} not found`,
    'name an existing task list (`ralph lists` shows them)',
  );
}
