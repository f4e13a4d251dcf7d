import { lstatSync } from 'node:fs';
import { join } from 'node:path';
import type { IndexPaths } from '../git/index-file.js';
import { runGit } from '../git/safe-git.js';
import { safePath } from '../git/gitlinks.js';

/**
 * The `.git` entries in the work tree's tracked folders (`src/.git`): a repository of its own there
 * never shows in the outer `git status`, but your `cd src && git status` — or a shell prompt that
 * runs git in every folder you enter — runs its `core.fsmonitor` and hooks. Only folders the index
 * names are looked at (`index`, as the caller's readIndexPaths read it; git's list where that did not
 * settle it): one lstat each, with no walk of what is untracked or ignored (docs/sandbox.md says
 * what that leaves). Gitlinks are nested-repos.ts's.
 */
export async function folderRepos(workTree: string, index: IndexPaths | undefined): Promise<Set<string>> {
  const folders = index?.folders ?? (await foldersFromGit(workTree));
  const real = new Map<string, boolean>([['', true]]);
  const found = new Set<string>();
  // Shorter first, so that a folder's parent is judged before it.
  for (const folder of [...folders].filter(safePath).sort((a, b) => a.length - b.length)) {
    const parent = folder.includes('/') ? folder.slice(0, folder.lastIndexOf('/')) : '';
    // Every folder on the way a real folder: through a link, `.git` would be another place's, not this tree's.
    const isReal = real.get(parent) === true && lstatOf(join(workTree, folder))?.isDirectory() === true;
    real.set(folder, isReal);
    if (isReal && lstatOf(join(workTree, folder, '.git'))) found.add(join(workTree, folder, '.git'));
  }
  return found;
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
