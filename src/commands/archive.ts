import { readFileWithin } from '../files/file-within.js';
import { rename, copyFile, writeFile } from 'node:fs/promises';
import { basename, join, relative, sep } from 'node:path';
import pc from 'picocolors';
import { isErrno, RalphError } from '../errors.js';
import { readLiveActive } from '../files/active-lock.js';
import { archiveName, createUniqueDir, localDate } from '../files/archive-name.js';
import { ralphPaths, type RalphPaths } from '../files/paths.js';
import { runPaths } from '../git/run-paths.js';
import { ownFolder } from '../files/own-file.js';
import { replaceOwnFile } from '../files/replace-own-file.js';
import { openStories, type TaskList } from '../domain/tasks.js';
import { parseTasks } from '../files/tasks.js';
import { taskListId, updateRunState } from '../files/run-state.js';
import { forgetList } from '../files/list-record.js';
import { emptyCounts } from '../domain/keyed-counts.js';
import { readReviewPolicy } from '../config/review-policy.js';
import { findRepoRoot } from '../git/repository.js';
import { chooseTaskList } from '../lists/chosen-list.js';
import { readTemplate } from '../templates.js';
import { terminalConfirm, type Confirm } from '../ui/confirm.js';
import { unlessMissing } from '../files/missing-file.js';
import { counted } from '../domain/plural.js';

export interface ArchiveOptions {
  cwd: string;
  /** Move ralph/logs/ into the archive too (by default it stays where it is). */
  includeLogs?: boolean;
  /** The archive's name; by default the task list's branchName or project. */
  name?: string;
  /** --tasks: archive this list (one of ralph/lists/*.json) instead of ralph/tasks.json. */
  tasks?: string;
  /** Archive even when stories are not complete, without asking. */
  yes?: boolean;
  /** Who confirms an unfinished archive; null: nobody can. Default: the terminal, unless CI. */
  confirm?: Confirm | null;
  now?: Date;
  stdout?: NodeJS.WritableStream;
}

/** Exit code when the user answers no: nothing went wrong, but nothing was archived either. */
const DECLINED_EXIT_CODE = 1;

/** `ralph archive`: files the finished task list away under ralph/archive/ and starts a fresh one. */
export async function archiveCommand(options: ArchiveOptions): Promise<number> {
  const stdout = options.stdout ?? process.stdout;
  const root = await findRepoRoot(options.cwd);
  const tasksFile = (await chooseTaskList(root, options.cwd, options.tasks, process.env)).file;
  const paths = await runPaths(root, { tasks: tasksFile, say: (line) => process.stderr.write(`${line}\n`) });
  const shown = relative(root, paths.tasks).split(sep).join('/');
  // Another list than ralph/tasks.json is filed away alone: progress.txt and the signals are the checkout's.
  const onlyTheList = paths.tasks !== ralphPaths(root).tasks;
  await refuseWhileRunning(paths);
  const tasks = readTaskList(paths, shown);
  const name = archiveName(options.name, tasks);

  const open = openStories(tasks, await readReviewPolicy(paths.config, 'ralph/config.json', process.env)).length;
  if (open > 0 && !options.yes) {
    // Open: failing, or (with the review cycle on) passing but not yet approved by a review.
    const unfinished = `${open} of ${counted(tasks.stories.length, 'story')} in ${shown} ${open === 1 ? 'is' : 'are'} not complete`;
    const confirm = options.confirm === undefined ? terminalConfirm() : (options.confirm ?? undefined);
    if (!confirm)
      throw new RalphError(
        'setup',
        `${unfinished}; not archiving an unfinished task list`,
        'finish it, or pass --yes to archive it anyway',
      );
    if (!(await confirm(`${unfinished}. Archive anyway?`))) {
      stdout.write('Nothing archived.\n');
      return DECLINED_EXIT_CODE;
    }
  }

  // A linked ralph/ or ralph/archive would carry the task list out of the repository.
  await ownFolder(root, join(paths.dir, 'archive'));
  const dir = await createUniqueDir(join(paths.dir, 'archive'), `${localDate(options.now ?? new Date())}-${name}`);
  const filed = onlyTheList
    ? await fileListAway(paths, dir, shown)
    : await fileAway(paths, dir, options.includeLogs ?? false);
  const reset = onlyTheList ? [] : await startFresh(paths);
  // A filed-away task list starts its successor in the same file with no unproductive resumes, no
  // pace, no review counts and no record of its stories: a new list there is other work, and the
  // archived stories missing from it were removed by the person who archived them.
  const id = taskListId(paths.root, paths.tasks);
  await updateRunState(paths.records, id, (state) => {
    const { pace: _pace, paceWindows: _windows, unconfirmedApprovals: _doubted, seenApprovals: _seen, ...kept } = state;
    return { ...kept, resumeAttempts: 0, reviewRejections: emptyCounts() };
  });
  await forgetList(paths.records, id);
  stdout.write(renderArchive(root, dir, filed, reset, options.includeLogs ?? false));
  return 0;
}

async function refuseWhileRunning(paths: RalphPaths): Promise<void> {
  const active = await readLiveActive(paths.active);
  if (active) {
    throw new RalphError(
      'setup',
      `a ralph run is active in this repository (pid ${active.pid}, iteration ${active.iteration})`,
      `archive once it has ended (or stop it: kill ${active.pid})`,
    );
  }
}

function readTaskList(paths: RalphPaths, shown: string): TaskList {
  const text = readFileWithin(paths.root, paths.tasks);
  if (text === undefined)
    throw new RalphError(
      'setup',
      `${shown} not found: there is no task list to archive`,
      'run `ralph init` to start one',
    );
  const parsed = parseTasks(text);
  if (!parsed.ok)
    throw new RalphError('setup', `${shown} is not a valid task list: ${parsed.error}`, 'fix it, then archive');
  return parsed.tasks;
}

/** A list other than ralph/tasks.json: only its file moves, as the archive's tasks.json; no fresh one replaces it. */
async function fileListAway(paths: RalphPaths, dir: string, shown: string): Promise<Filed> {
  await rename(paths.tasks, join(dir, 'tasks.json'));
  return { moved: [`${shown} (as tasks.json)`], copied: [] };
}

/** What went into the archive: moved out of ralph/, or copied because it stays. */
interface Filed {
  moved: string[];
  copied: string[];
}

/** Moves the task list's files into `dir`; prd.md is copied, since it stays for the next list. */
async function fileAway(paths: RalphPaths, dir: string, includeLogs: boolean): Promise<Filed> {
  const filed: Filed = { moved: [], copied: [] };
  if (await copyIfPresent(paths.prd, join(dir, 'prd.md'))) filed.copied.push('prd.md');
  const moves: [string, string][] = [
    [paths.tasks, 'tasks.json'],
    [paths.progress, 'progress.txt'],
    [paths.decide, 'decide.txt'],
    [paths.blocked, 'blocked.txt'],
  ];
  for (const [from, name] of moves) {
    if (await moveIfPresent(from, join(dir, name))) filed.moved.push(name);
  }
  if (includeLogs && (await moveIfPresent(paths.logs, join(dir, 'logs')))) {
    filed.moved.push('logs/');
    // The archive is meant to be committed, its logs never (raw transcripts may hold secrets): a
    // .gitignore of their own keeps them out of every `git add -A`, as ralph/logs/ is kept out.
    await replaceOwnFile(paths.root, join(dir, 'logs', '.gitignore'), LOGS_GITIGNORE);
  }
  return filed;
}

const LOGS_GITIGNORE = '# ralph archive --include-logs: transcripts stay out of git, as in ralph/logs/\n*\n';

/** A fresh task list and progress file from the templates, and an empty logs folder. */
async function startFresh(paths: RalphPaths): Promise<string[]> {
  const written: string[] = [];
  for (const [path, template] of [
    [paths.tasks, 'tasks.json'],
    [paths.progress, 'progress.txt'],
  ] as const) {
    if (await createIfMissing(path, await readTemplate(template))) written.push(`ralph/${template}`);
  }
  await ownFolder(paths.root, paths.logs);
  return written;
}

/** Moves a file that may not exist; false when there was nothing to move. */
function moveIfPresent(from: string, to: string): Promise<boolean> {
  return ranUnlessMissing(() => rename(from, to));
}

/** Copies a file that may not exist; false when there was nothing to copy. */
function copyIfPresent(from: string, to: string): Promise<boolean> {
  return ranUnlessMissing(() => copyFile(from, to));
}

/** Runs a file operation; true when it ran, false when its source did not exist. */
async function ranUnlessMissing(operation: () => Promise<void>): Promise<boolean> {
  const ran = await unlessMissing(async () => {
    await operation();
    return true;
  });
  return ran ?? false;
}

async function createIfMissing(path: string, content: string): Promise<boolean> {
  try {
    await writeFile(path, content, { flag: 'wx' });
    return true;
  } catch (error) {
    if (isErrno(error, 'EEXIST')) return false;
    throw error;
  }
}

function renderArchive(root: string, dir: string, filed: Filed, reset: string[], includeLogs: boolean): string {
  const lines = [`${pc.bold('Archived to')} ${relative(root, dir)}/`];
  if (filed.moved.length > 0) lines.push(`  moved   ${filed.moved.join(', ')}`);
  if (filed.copied.length > 0) lines.push(`  copied  ${filed.copied.join(', ')} (it stays in ralph/)`);
  if (!includeLogs) lines.push('  kept    ralph/logs/ where it is (--include-logs moves it too)');
  if (reset.length > 0)
    lines.push(`Fresh ${reset.join(' and ')} written from the templates; ralph/prompt.md is unchanged.`);
  // -A: the moves are deletions in ralph/ as well as files in the archive; the logs stay ignored.
  lines.push(`Commit it: git add -A ralph && git commit -m "Archive ${basename(dir)}"`);
  return lines.join('\n') + '\n';
}
