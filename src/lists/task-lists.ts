import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { ioError, isErrno, RalphError } from '../errors.js';
import { readOwnFile } from '../files/own-file.js';
import { parseTasks } from '../files/tasks.js';
import { LISTS_DIR, WORKTREES_DIR } from './list-dirs.js';

/** One task list under ralph/lists/. */
export interface TaskList {
  /** File stem of ralph/lists/<name>.json (the default ralph/tasks.json is not among them). */
  name: string;
  /** Absolute path. */
  file: string;
  /** The list's branchName, default `ralph/<name>`. */
  branch: string;
  /** Other list names; [] when absent. */
  dependsOn: readonly string[];
}

// In a module of their own, so that `ralph status` names them without loading the schema.
export { LISTS_DIR, WORKTREES_DIR } from './list-dirs.js';

/**
 * A name that is a file name everywhere and a word on a command line: a letter or digit first, then
 * letters, digits, `.`, `_` or `-`. No `..`, no leading dash (an option), no space, no path.
 */
const SAFE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

/** Whether a list name is safe as a file name, a branch part and a command-line word. */
export function isSafeListName(name: string): boolean {
  return SAFE_NAME.test(name) && !name.includes('..') && !name.endsWith('.');
}

/** A file under ralph/lists/ that is no list: a bad name, a file that cannot be read, or no task list in it. */
export interface BrokenList {
  /** The file stem. */
  name: string;
  /** Absolute path. */
  file: string;
  /** Why, naming the file, and the fix. */
  error: RalphError;
}

/**
 * Every list under ralph/lists/, sorted by name. Bad names, two lists naming one branch (or one
 * worktree folder), an unknown dependsOn or a cycle -> a set-up error (exit 64) naming the files.
 * Files that do not end in `.json` are not lists (a README beside them is fine).
 */
export async function findTaskLists(root: string): Promise<TaskList[]> {
  const { lists, broken } = await surveyTaskLists(root);
  if (broken[0]) throw broken[0].error;
  return lists;
}

/**
 * Every list under ralph/lists/, the broken ones apart: for `ralph lists`, where one broken file
 * must not hide the others. Two lists on one branch, an unknown dependsOn or a cycle still throw
 * (a dependsOn naming a broken list is no unknown one: that list's own error says what is wrong).
 */
export async function surveyTaskLists(root: string): Promise<{ lists: TaskList[]; broken: BrokenList[] }> {
  const dir = join(root, LISTS_DIR);
  const names = await readdir(dir).catch((error: unknown) => {
    if (isErrno(error, 'ENOENT') || isErrno(error, 'ENOTDIR')) return [];
    throw ioError(error, dir, 'read');
  });
  const lists: TaskList[] = [];
  const broken: BrokenList[] = [];
  for (const fileName of names.filter((name) => name.endsWith('.json')).sort(compareNames)) {
    try {
      lists.push(await readList(dir, fileName));
    } catch (error) {
      if (!(error instanceof RalphError)) throw error;
      broken.push({ name: fileName.slice(0, -'.json'.length), file: join(dir, fileName), error });
    }
  }
  lists.sort((a, b) => compareNames(a.name, b.name));
  checkBranches(lists);
  checkDependencies(
    lists,
    broken.map((list) => list.name),
  );
  return { lists, broken };
}

/** ralph/worktrees/<branch-slug> under root. */
export function worktreeDir(root: string, branch: string): string {
  return join(root, WORKTREES_DIR, branchSlug(branch));
}

/**
 * A branch name as one folder name: every `/` and anything else a file name should not hold
 * becomes `-` (`ralph/api-auth` -> `ralph-api-auth`). Two branches may meet on one slug; the
 * discovery refuses lists that do.
 */
export function branchSlug(branch: string): string {
  return branch.replace(/[^A-Za-z0-9._-]/g, '-').replace(/^[.-]+/, '') || 'branch';
}

/** Lists in an order that does not depend on the locale: by code point. */
function compareNames(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

async function readList(dir: string, fileName: string): Promise<TaskList> {
  const name = fileName.slice(0, -'.json'.length);
  const file = join(dir, fileName);
  const shown = `${LISTS_DIR}/${fileName}`;
  if (!isSafeListName(name))
    throw new RalphError(
      'setup',
      `${JSON.stringify(shown)}: "${name}" is not a safe list name`,
      'rename it to letters, digits, ".", "_" or "-" (starting with a letter or digit, at most 64)',
    );
  const text = await readOwnFile(file);
  // Listed a moment ago: a link whose target is gone, or a file removed since.
  if (text === undefined)
    throw new RalphError('setup', `${shown} cannot be read: nothing is there`, 'restore the file or remove the link');
  const parsed = parseTasks(text);
  if (!parsed.ok) throw new RalphError('setup', `${shown}: ${parsed.error}`, 'fix the task list, then run again');
  const { branchName, dependsOn } = parsed.tasks;
  return { name, file, branch: branchName?.trim() || `ralph/${name}`, dependsOn: [...new Set(dependsOn ?? [])] };
}

/** Two lists on one branch (or one worktree folder) would run two loops in one checkout. */
function checkBranches(lists: readonly TaskList[]): void {
  const byBranch = new Map<string, TaskList>();
  const bySlug = new Map<string, TaskList>();
  for (const list of lists) {
    const sameBranch = byBranch.get(list.branch);
    if (sameBranch)
      throw new RalphError(
        'setup',
        `${shownList(sameBranch)} and ${shownList(list)} both name branch ${list.branch}`,
        'give each list a branchName of its own',
      );
    const slug = branchSlug(list.branch);
    const sameFolder = bySlug.get(slug);
    if (sameFolder)
      throw new RalphError(
        'setup',
        `${shownList(sameFolder)} (${sameFolder.branch}) and ${shownList(list)} (${list.branch}) would share the worktree ${WORKTREES_DIR}/${slug}`,
        'give one of them a branchName that differs in more than "/" against "-"',
      );
    byBranch.set(list.branch, list);
    bySlug.set(slug, list);
  }
}

/** Every dependsOn names a list, and no list waits on itself through others. */
function checkDependencies(lists: readonly TaskList[], brokenNames: readonly string[] = []): void {
  const byName = new Map(lists.map((list) => [list.name, list]));
  const broken = new Set(brokenNames);
  for (const list of lists)
    for (const other of list.dependsOn)
      if (!byName.has(other) && !broken.has(other))
        throw new RalphError(
          'setup',
          `${shownList(list)}: dependsOn names "${other}", which is no list under ${LISTS_DIR}/`,
          `add ${LISTS_DIR}/${other}.json or remove "${other}" from dependsOn`,
        );
  const done = new Set<string>();
  const visit = (list: TaskList, path: readonly string[]): void => {
    if (done.has(list.name)) return;
    const at = path.indexOf(list.name);
    if (at >= 0) {
      const cycle = [...path.slice(at), list.name];
      throw new RalphError(
        'setup',
        `the lists' dependsOn make a cycle: ${cycle.join(' -> ')} (${cycle
          .slice(0, -1)
          .map((name) => `${LISTS_DIR}/${name}.json`)
          .join(', ')})`,
        'remove one of those dependsOn entries',
      );
    }
    for (const other of list.dependsOn) {
      const next = byName.get(other);
      if (next) visit(next, [...path, list.name]);
    }
    done.add(list.name);
  };
  for (const list of lists) visit(list, []);
}

function shownList(list: TaskList): string {
  return `${LISTS_DIR}/${list.name}.json`;
}
