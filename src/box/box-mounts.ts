import { mkdir, realpath, stat } from 'node:fs/promises';
import { dirname, isAbsolute, join, resolve, sep } from 'node:path';
import { recordDir, workTreeGitDirs } from '../git/record-dir.js';
import { boxPolicy, orderedMounts, SHARED_TEMPORARY, type BoxExtras } from './box-policy.js';
import type { PlacedMount } from './bubblewrap.js';
import type { BoxRequest } from './box-request.js';
import { absentRedirects } from './git-redirects.js';

/** The rules for this work tree, as mounts of paths that exist (a rule for a missing path is skipped). */
export async function placedMounts(
  request: BoxRequest,
  { home, tmp, visible }: { home: string; tmp: string; visible: readonly string[] },
): Promise<{ mounts: PlacedMount[]; redirects: string[] }> {
  const workTree = await realpath(request.root);
  const dirs = await workTreeGitDirs(workTree);
  const [gitDir, commonDir] = await Promise.all([realpath(dirs.gitDir), realpath(dirs.commonDir)]);
  // Made before the box, so that they are there to be bound read-only: a missing one the agent could make its own.
  const records = await recordDir(workTree);
  const mustExist = [
    records,
    join(commonDir, 'ralph'),
    join(commonDir, 'hooks'),
    join(commonDir, 'info'),
    join(workTree, 'ralph', 'logs'),
  ];
  if (!request.dryRun) await Promise.all(mustExist.map((dir) => mkdir(dir, { recursive: true })));
  const fromHome = (path: string) => join(home, path);
  const given = async (path: string) => {
    const absolute = path.startsWith('~/')
      ? fromHome(path.slice(2))
      : isAbsolute(path)
        ? path
        : resolve(workTree, path);
    return realpath(absolute).catch(() => absolute);
  };
  const extras: BoxExtras = {
    write: await Promise.all(request.extras.write.map(given)),
    readOnly: [
      ...(await Promise.all(request.extras.readOnly.map(given))),
      ...visible,
      ...(await programFolders(request.programs ?? [])),
    ],
    hidden: await Promise.all(request.extras.hidden.map(given)),
  };
  const places = {
    workTree,
    gitDir,
    commonDir,
    recordDir: await realpath(records).catch(() => records),
    home,
    tmp,
    clientState: request.clientState.map(fromHome),
  };
  // Each rule at the real place it names: a credential store that is a link is hidden where it leads.
  const rules = await Promise.all(
    boxPolicy(places, extras).map(async (rule) => ({
      ...rule,
      path: await realpath(rule.path).catch(() => rule.path),
    })),
  );
  const placed = await Promise.all(
    orderedMounts(rules).map(async (mount) => {
      const stats = await stat(mount.path).catch(() => undefined);
      return stats && { ...mount, folder: stats.isDirectory() };
    }),
  );
  const redirects = request.dryRun ? [] : await absentRedirects(gitDir, commonDir);
  return { mounts: placed.filter((mount) => mount !== undefined), redirects };
}

/**
 * The folders of the clients' executables that lie in a shared temporary folder, which the box
 * replaces with an empty one: the link's, and the real file's package (all of it: a client loads its
 * own files), read-only, so the client still starts.
 */
async function programFolders(programs: readonly string[]): Promise<string[]> {
  const inShared = (path: string) =>
    SHARED_TEMPORARY.some((shared) => path === shared || path.startsWith(`${shared}${sep}`));
  const folders = await Promise.all(
    programs.map(async (program) => [dirname(program), await packageOf(await realpath(program).catch(() => program))]),
  );
  return [...new Set(folders.flat())].filter(inShared);
}

/**
 * The package a file belongs to: the nearest folder above it with a package.json (a client's, or
 * ralph's own checkout for its demo agent), else the file's folder.
 */
export async function packageOf(file: string): Promise<string> {
  for (let dir = dirname(file); dir !== dirname(dir); dir = dirname(dir))
    if (await stat(join(dir, 'package.json')).catch(() => undefined)) return dir;
  return dirname(file);
}
