import { lstat, realpath } from 'node:fs/promises';
import { basename, dirname, isAbsolute, join, relative, sep } from 'node:path';
import { RalphError } from '../errors.js';
import { lockRefusal } from '../files/active-lock.js';
import { ownFolder, readOwnFile } from '../files/own-file.js';
import { replaceOwnFile } from '../files/replace-own-file.js';
import { ralphPaths } from '../files/paths.js';
import { parseTasks } from '../files/tasks.js';
import { recordLoopHead } from '../files/loop-heads.js';
import { recordDir, sharedRecordDir, workTreeGitDirs } from '../git/record-dir.js';
import { findGitDirs } from '../git/head-file.js';
import { isMadeWorktree, MADE_WORKTREES_FILE, recordMadeWorktree } from '../files/made-worktrees.js';
import { ensureIgnored } from '../git/ignored-paths.js';
import { gitOutput } from '../git/safe-git.js';
import { foreignGitDirs } from '../git/worktree-git-dirs.js';
import {
  addWorktree,
  branchExists,
  commitFile,
  commonGitDir,
  hasCommit,
  isValidBranchName,
  listWorktrees,
  removeWorktree,
  resolveCommit,
  type WorktreeEntry,
} from '../git/worktrees.js';
import type { ChosenList } from './chosen-list.js';
import { findTaskLists, WORKTREES_DIR, worktreeDir } from './task-lists.js';

/** The worktree a list's loop runs in, ready. */
export interface ListWorktree {
  dir: string;
  branch: string;
  /** What was done to get it ready, one line each (shown before the run starts). */
  said: string[];
}

/**
 * Gets the list's worktree ready under ralph/worktrees/<branch-slug>/: reused when it is there
 * (and proven a worktree of this repository on the list's branch), else added — on the branch
 * when it exists, else on a new branch from `from` (default HEAD). The list becomes the worktree's
 * ralph/tasks.json, committed on its branch, when the branch does not hold it yet. Nothing in the
 * main checkout is written: its ignore rule for ralph/worktrees/ goes to .git/info/exclude when
 * .gitignore lacks it.
 */
export async function prepareListWorktree(
  root: string,
  chosen: ChosenList,
  from?: string,
  dryRun = false,
): Promise<ListWorktree> {
  if (!(await hasCommit(root)))
    throw new RalphError(
      'setup',
      '--worktree needs a commit to branch from, and this repository has none yet',
      'commit your work first (git add -A && git commit)',
    );
  const branch = await listBranch(root, chosen);
  const dir = worktreeDir(root, branch);
  const said: string[] = [];
  if (!dryRun) {
    await ensureIgnored(root, [`${WORKTREES_DIR}/`]);
    await ownFolder(root, join(root, WORKTREES_DIR));
  }
  if (await isPresent(dir)) {
    await proveOurs(root, dir, branch);
    said.push(`worktree ${shown(root, dir)} (branch ${branch}) reused`);
  } else if (dryRun) {
    throw new RalphError(
      'setup',
      `--dry-run: the worktree ${shown(root, dir)} does not exist yet, and a dry run makes nothing`,
      'run without --dry-run to make it, then check it with --dry-run',
    );
  } else {
    said.push(await addListWorktree(root, dir, branch, from));
  }
  const refusal = await lockRefusal(ralphPaths(dir).active);
  if (refusal) throw refusal;
  const committed = await placeTaskList({ dir, branch }, chosen, shown(root, chosen.file), dryRun);
  if (committed) said.push(committed);
  return { dir, branch, said };
}

/**
 * The folder of the list's worktree when there is one (proven this repository's, on the list's
 * branch, as a run reuses it), else undefined: where `ralph answer --tasks` finds a loop that waits.
 * A list that is missing or unreadable is an error, never "no worktree": that would answer elsewhere.
 */
export async function existingListWorktree(root: string, chosen: ChosenList): Promise<string | undefined> {
  if (!(await isPresent(chosen.file)))
    throw new RalphError('setup', `${shown(root, chosen.file)} not found`, 'name the task list whose loop waits');
  const parsed = parseTasks((await readOwnFile(chosen.file)) ?? '');
  if (!parsed.ok)
    throw new RalphError(
      'setup',
      `${shown(root, chosen.file)}: ${parsed.error}`,
      'fix the task list, then answer again',
    );
  // Only a list that names its branch can have a worktree: without one, the loop is the checkout's.
  if (chosen.name === undefined && !parsed.tasks.branchName?.trim()) return undefined;
  const branch = await listBranch(root, chosen);
  const dir = worktreeDir(root, branch);
  if (!(await isPresent(dir))) return undefined;
  await proveOurs(root, dir, branch);
  return dir;
}

/** The branch a list works on: its branchName, or `ralph/<name>` for a list under ralph/lists/. */
async function listBranch(root: string, chosen: ChosenList): Promise<string> {
  const name = shown(root, chosen.file);
  if (chosen.name !== undefined) {
    // The whole set is checked: two lists on one branch would share one worktree.
    const list = (await findTaskLists(root)).find((found) => found.name === chosen.name);
    if (list) return list.branch;
  }
  const parsed = parseTasks((await readOwnFile(chosen.file)) ?? '');
  if (!parsed.ok) throw new RalphError('setup', `${name}: ${parsed.error}`, 'fix the task list, then run again');
  const branch = parsed.tasks.branchName?.trim();
  if (!branch)
    throw new RalphError(
      'setup',
      `${name} names no branchName: --worktree needs the branch the loop works on`,
      'add "branchName" to it, or move the list to ralph/lists/<name>.json (branch ralph/<name>)',
    );
  if (!(await isValidBranchName(root, branch)))
    throw new RalphError('setup', `${name}: branchName "${branch}" is not a valid git branch name`, 'fix branchName');
  return branch;
}

async function addListWorktree(root: string, dir: string, branch: string, from: string | undefined): Promise<string> {
  // A worktree whose folder was deleted by hand is still registered: git would refuse the path. That
  // record alone goes, not every stale one (`git worktree prune`): the loops of `ralph run --parallel`
  // add theirs at the same moment, and a worktree on a disk not mounted now is the user's. A locked
  // one stays, and git's refusal to add says why.
  if ((await listWorktrees(root)).some((entry) => entry.path === dir)) await removeWorktree(root, dir);
  const exists = await branchExists(root, branch);
  let start: string | undefined;
  if (!exists) {
    start = from === undefined ? 'HEAD' : await resolveCommit(root, from);
    if (start === undefined)
      throw new RalphError('usage', `--from ${from}: no commit of that name`, 'name a branch, tag or commit');
  }
  const added = await addWorktree(root, dir, branch, exists ? undefined : start);
  if (!added.ok)
    throw new RalphError(
      'setup',
      `cannot add the worktree ${shown(root, dir)} on branch ${branch}: ${added.reason}`,
      'free the branch (a branch is checked out in one place only), or remove what is in the way',
    );
  const made = await findGitDirs(dir);
  if (made)
    await recordMadeWorktree(await sharedRecordDir(root), { dir: shown(root, dir), name: basename(made.gitDir) });
  const startedFrom = exists ? `branch ${branch}` : `new branch ${branch} from ${from ?? 'HEAD'}`;
  const ignoredFrom = exists && from !== undefined ? ` (--from ${from} ignored: the branch exists)` : '';
  return `worktree ${shown(root, dir)} added on ${startedFrom}${ignoredFrom}`;
}

/**
 * A folder at the worktree's place is used only when git lists it as a worktree of this repository
 * on the list's branch, and its `.git` is a file pointing into this repository's worktree records —
 * not a link, not a folder of another repository, not a `.git` file the agent pointed elsewhere.
 * Anything else is refused, and nothing is deleted.
 */
async function proveOurs(root: string, dir: string, branch: string): Promise<void> {
  const entries = await listWorktrees(root);
  const why = await notOurWorktree(root, dir, entries);
  if (why)
    throw new RalphError(
      'setup',
      `${shown(root, dir)} exists but is not a worktree of this repository (${why}); nothing was deleted`,
      `move it away (\`git worktree remove ${shown(root, dir)}\` keeps its branch), then run again`,
    );
  const entry = entries.find((worktree) => worktree.path === dir)!;
  if (entry.branch !== branch)
    throw new RalphError(
      'setup',
      `${shown(root, dir)} is on ${entry.branch ? `branch ${entry.branch}` : 'a detached HEAD'}, not the list's branch ${branch}`,
      `switch it back: git -C ${shown(root, dir)} switch ${branch}`,
    );
}

/**
 * Why the work tree at `root`, when it is one of its repository's `ralph/worktrees/`, is not one
 * ralph can vouch for (notOurWorktree); undefined for any other work tree. Its repository is found
 * from where its git dir really lies, never from its `commondir`, which is what is in question.
 */
export async function unvouchedWorktree(root: string): Promise<string | undefined> {
  const dirs = await workTreeGitDirs(root);
  if (dirs.gitDir === dirs.commonDir) return undefined;
  const top = dirname(dirname(dirname(await realpath(dirs.gitDir))));
  const inside = relative(join(top, WORKTREES_DIR), root);
  if (inside === '' || inside.startsWith('..') || isAbsolute(inside)) return undefined;
  return await notOurWorktree(top, root, await listWorktrees(top));
}

/** Why the folder at `dir` is not one of this repository's worktrees; undefined when it is. */
export async function notOurWorktree(
  root: string,
  dir: string,
  entries: readonly WorktreeEntry[],
): Promise<string | undefined> {
  const stats = await lstat(dir).catch(() => undefined);
  if (!stats) return 'it is gone';
  if (!stats.isDirectory()) return stats.isSymbolicLink() ? 'a symbolic link' : 'not a folder';
  if (!entries.some((worktree) => worktree.path === dir)) return 'git lists no worktree there';
  const dotGit = join(dir, '.git');
  const gitStats = await lstat(dotGit).catch(() => undefined);
  if (!gitStats?.isFile()) return 'its .git is not a file';
  const pointer = /^gitdir: (.+)$/m.exec((await readOwnFile(dotGit).catch(() => undefined)) ?? '')?.[1]?.trim();
  const common = await commonGitDir(root);
  const records = join(common, 'worktrees');
  const inside = pointer === undefined ? '..' : relative(records, pointer);
  if (inside === '' || inside.startsWith('..') || inside.includes(sep)) return 'its .git points elsewhere';
  const foreign = await foreignGitDirs(dir, common);
  if (foreign) return foreign;
  const made = await isMadeWorktree(join(common, 'ralph'), { dir: shown(root, dir), name: inside });
  return made ? undefined : `ralph has no record of making it, in ${join(common, 'ralph', MADE_WORKTREES_FILE)}`;
}

/**
 * The list as the worktree's ralph/tasks.json: copied and committed when the branch does not hold
 * that list yet (no task list, or one with other stories). Once there, the branch's copy is the
 * list's progress: it is never overwritten.
 */
async function placeTaskList(
  { dir, branch }: { dir: string; branch: string },
  chosen: ChosenList,
  source: string,
  dryRun: boolean,
): Promise<string | undefined> {
  const target = ralphPaths(dir).tasks;
  const text = await readOwnFile(chosen.file);
  if (text === undefined)
    throw new RalphError('setup', `${source} not found`, 'name an existing task list with --tasks');
  const wanted = parseTasks(text);
  if (!wanted.ok) throw new RalphError('setup', `${source}: ${wanted.error}`, 'fix the task list, then run again');
  const present = parseTasks((await readOwnFile(target)) ?? '');
  const ids = (tasks: { stories: { id: string }[] }) => tasks.stories.map((story) => story.id).join('\n');
  // The same stories, placed here before: the branch's list is the progress. The same stories
  // alone are not enough: a list copied from ralph/tasks.json has them too, on a fresh worktree.
  const subject = `ralph: task list from ${source}`;
  if (present.ok && ids(present.tasks) === ids(wanted.tasks) && (await committedBefore(dir, subject))) return undefined;
  if (dryRun)
    return `${source} would be committed as ralph/tasks.json on the worktree's branch (a dry run makes nothing)`;
  await replaceOwnFile(dir, target, text);
  const before = (await resolveCommit(dir, 'HEAD')) ?? null;
  await commitFile(dir, 'ralph/tasks.json', subject);
  // ralph's own commit on the loop's branch: recorded as the loop's, or integrate would leave it out.
  const after = await resolveCommit(dir, 'HEAD');
  if (after) await recordLoopHead(await recordDir(dir), { branch, from: before, to: after });
  return `${source} committed as ralph/tasks.json on the worktree's branch`;
}

/** Whether the worktree's branch has a commit of ralph's with this subject on ralph/tasks.json. */
async function committedBefore(dir: string, subject: string): Promise<boolean> {
  const found = await gitOutput(dir, [
    'log',
    '-1',
    '--format=%H',
    '--fixed-strings',
    `--grep=${subject}`,
    '--',
    'ralph/tasks.json',
  ]);
  return found.trim() !== '';
}

async function isPresent(path: string): Promise<boolean> {
  return lstat(path).then(
    () => true,
    () => false,
  );
}

function shown(root: string, path: string): string {
  return relative(root, path).split(sep).join('/');
}
