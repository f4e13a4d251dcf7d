import { lstat } from 'node:fs/promises';
import { dirname, isAbsolute, join } from 'node:path';
import { appendOwnFile, readOwnFile } from '../files/own-file.js';
import { gitFailure, gitOutput, runGit } from './safe-git.js';
import { gitDirsFromFiles } from './head-file.js';

/** The line ralph writes into `info/exclude` before the paths it adds. */
const EXCLUDE_HEADING = "# ralph: the loop's own files";

/**
 * Makes sure git ignores each path: those that `.gitignore` does not already cover are added
 * to `.git/info/exclude`, a local file, so the run never edits a tracked one. Returns what it added.
 */
export async function ensureIgnored(root: string, wanted: readonly string[]): Promise<string[]> {
  const missing = await notYetIgnored(root, wanted);
  await addToExclude(root, missing);
  return missing;
}

/**
 * The paths, as git sees them, that nothing ignores yet: a question to git that writes nothing,
 * unless info/exclude already lists them all (adding them would change nothing).
 */
export async function notYetIgnored(root: string, wanted: readonly string[]): Promise<string[]> {
  const paths = [...new Set(await Promise.all(wanted.map((path) => asGitSeesIt(root, path))))];
  if (await listedInExclude(root, paths)) return [];
  // --non-matching prints a line for every path, matched or not; exit 1 says none is ignored.
  const args = ['check-ignore', '--no-index', '--verbose', '--non-matching', ...paths];
  const report = await runGit(root, args).catch((error: unknown) => {
    throw gitFailure(error, args);
  });
  if (report.exitCode !== 0 && report.exitCode !== 1) throw gitFailure(report, args);
  const ignored = new Set(report.stdout.split('\n').flatMap(ignoredPath));
  return paths.filter((path) => !ignored.has(path));
}

/** Adds the paths to `.git/info/exclude`, a local file: git ignores them from now on. */
export async function addToExclude(root: string, paths: readonly string[]): Promise<void> {
  if (paths.length === 0) return;
  const exclude = await excludePath(root);
  // Never through a link or into a FIFO the agent put at .git/info/exclude: inside the git dir only.
  const existing = (await readOwnFile(exclude)) ?? '';
  const separator = existing === '' || existing.endsWith('\n') ? '' : '\n';
  await appendOwnFile(
    dirname(dirname(exclude)),
    exclude,
    `${separator}${EXCLUDE_HEADING}\n${paths.map((path) => `/${path}`).join('\n')}\n`,
  );
}

/**
 * Where git reads `info/exclude`: in the common git dir (shared by linked work trees). Read from
 * the files where they settle it, as listedInExclude reads it; git is asked only where they do not
 * (GIT_DIR set, an unknown layout): a process fewer on a first run's way to its first agent.
 */
async function excludePath(root: string): Promise<string> {
  const dirs = await gitDirsFromFiles(root);
  if (dirs) return join(dirs.commonDir, 'info', 'exclude');
  const gitPath = (await gitOutput(root, ['rev-parse', '--git-path', 'info/exclude'])).trim();
  return isAbsolute(gitPath) ? gitPath : join(root, gitPath);
}

/**
 * Whether `info/exclude` lists every path as an earlier run added it (`/<path>`), and un-ignores
 * nothing: adding them again would change nothing, so git is not asked (a process fewer on the
 * way to a run's first agent). A `.gitignore` that un-ignores one of them outranks the file
 * either way. Read from the files only where they settle where the file is.
 */
async function listedInExclude(root: string, paths: readonly string[]): Promise<boolean> {
  const dirs = await gitDirsFromFiles(root);
  if (!dirs) return false;
  const text = await readOwnFile(join(dirs.commonDir, 'info', 'exclude')).catch(() => undefined);
  if (text === undefined) return false;
  const lines = text.split('\n');
  if (lines.some((line) => line.startsWith('!'))) return false;
  const listed = new Set(lines);
  return paths.every((path) => listed.has(`/${path}`));
}

/**
 * The path as git sees it. git does not follow symbolic links: a symlinked `ralph/logs` (logs on a
 * bigger disk) is one file to git, `ralph/logs`, which a directory pattern (`ralph/logs/`) does
 * not ignore, and a path beyond it makes `git check-ignore` fail. So the link itself is the path.
 */
async function asGitSeesIt(root: string, path: string): Promise<string> {
  const parts = path.split('/').filter(Boolean);
  for (let depth = 1; depth <= parts.length; depth++) {
    const prefix = parts.slice(0, depth).join('/');
    const isLink = await lstat(join(root, prefix)).then(
      (stats) => stats.isSymbolicLink(),
      () => false,
    );
    if (isLink) return prefix;
  }
  return path;
}

/**
 * The path of one `check-ignore --verbose` line ("source:line:pattern<TAB>path") when a pattern
 * ignores it: not for "::<TAB>path" (nothing matched) nor for a "!" pattern (it un-ignores).
 */
function ignoredPath(line: string): string[] {
  const match = /^.*?:\d+:(.*)\t(.*)$/.exec(line);
  return match && !match[1]!.startsWith('!') ? [match[2]!] : [];
}
