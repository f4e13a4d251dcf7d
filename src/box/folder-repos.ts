import { lstatSync } from 'node:fs';
import { join } from 'node:path';
import type { IndexPaths } from '../git/index-file.js';
import { runGit } from '../git/safe-git.js';
import { safePath } from '../git/gitlinks.js';

/**
 * The work tree's tracked folders, as paths relative to it ('' for the work tree itself), each a
 * real folder all the way down: through a link, what lies there would be another place's. Only
 * folders the index names (`index`, as the caller's readIndexPaths read it; git's list where that
 * did not settle it): one lstat each, with no walk of what is untracked or ignored (docs/sandbox.md
 * says what that leaves).
 */
export async function realTrackedFolders(workTree: string, index: IndexPaths | undefined): Promise<string[]> {
  const folders = index?.folders ?? (await foldersFromGit(workTree));
  const real = new Map<string, boolean>([['', true]]);
  // Shorter first, so that a folder's parent is judged before it.
  for (const folder of [...folders].filter(safePath).sort((a, b) => a.length - b.length)) {
    const parent = folder.includes('/') ? folder.slice(0, folder.lastIndexOf('/')) : '';
    real.set(folder, real.get(parent) === true && lstatOf(join(workTree, folder))?.isDirectory() === true);
  }
  return [...real].filter(([, isReal]) => isReal).map(([folder]) => folder);
}

/**
 * The `.git` entries in the tracked folders below the work tree (`src/.git`): a repository of its
 * own there never shows in the outer `git status`, but your `cd src && git status` — or a shell
 * prompt that runs git in every folder you enter — runs its `core.fsmonitor` and hooks. Gitlinks
 * are nested-repos.ts's.
 */
export function folderRepos(workTree: string, folders: readonly string[]): Set<string> {
  const found = new Set<string>();
  for (const folder of folders)
    if (folder !== '' && lstatOf(join(workTree, folder, '.git'))) found.add(join(workTree, folder, '.git'));
  return found;
}

/** The files git opens by name in each folder it goes through, and the work tree's own. */
const READ_IN_EACH_FOLDER = ['.gitignore', '.gitattributes'];
const READ_AT_THE_ROOT = ['.gitmodules', '.mailmap'];

/**
 * A FIFO or a device where git opens one of its files in a tracked folder (`sub/.gitignore`): git
 * opens each without O_NONBLOCK and would wait on it for ever, ralph's own end-of-run `git status`
 * for its timeout (the second red team's F3). A link there git no longer follows (2.32).
 */
export function gitFileStrays(workTree: string, folders: readonly string[]): { path: string; what: string }[] {
  const strays: { path: string; what: string }[] = [];
  for (const folder of folders)
    for (const name of folder === '' ? [...READ_IN_EACH_FOLDER, ...READ_AT_THE_ROOT] : READ_IN_EACH_FOLDER) {
      const path = join(workTree, folder, name);
      const stats = lstatOf(path);
      if (stats?.isFIFO()) strays.push({ path, what: 'a FIFO' });
      else if (stats?.isCharacterDevice() || stats?.isBlockDevice()) strays.push({ path, what: 'a device' });
    }
  return strays;
}

/** lstat without following the last link, undefined where nothing is. Synchronous: one call per folder. */
function lstatOf(path: string) {
  try {
    return lstatSync(path, { throwIfNoEntry: false });
  } catch {
    return undefined;
  }
}

/** Every folder a tracked path lies in, from git, where the index file does not settle it. */
async function foldersFromGit(workTree: string): Promise<Set<string>> {
  const listed = await runGit(workTree, ['ls-files', '-z']);
  const folders = new Set<string>();
  if (listed.exitCode !== 0) return folders;
  for (const path of listed.stdout.split('\0'))
    for (let slash = path.indexOf('/'); slash > 0; slash = path.indexOf('/', slash + 1))
      folders.add(path.slice(0, slash));
  return folders;
}
