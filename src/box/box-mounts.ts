import { mkdir, realpath, stat } from 'node:fs/promises';
import { dirname, isAbsolute, join, resolve, sep } from 'node:path';
import { recordDir, workTreeGitDirs } from '../git/record-dir.js';
import { boxPolicy, orderedMounts, SHARED_TEMPORARY, type BoxExtras } from './box-policy.js';
import type { PlacedMount } from './bubblewrap.js';
import type { BoxRequest } from './box-request.js';
import { absentRedirects } from './git-redirects.js';
import { clientGuard, type ClientGuard } from './client-guard.js';
import { ownFolder } from '../files/own-file.js';
import { recordNested, type NestedRecord } from './nested-repos.js';
import { realPlace, recordAbsentReadOnly, type AbsentRecord } from './absent-read-only.js';
import type { SweepPlaces } from './nested-sweep.js';

/** The box's mounts, and what it recorded as it was made for its sweep after each command. */
export interface PlacedBox {
  mounts: PlacedMount[];
  redirects: string[];
  nested: NestedRecord;
  places: SweepPlaces;
  settings: ClientGuard;
  absent: AbsentRecord;
}

/** The rules for this work tree, as mounts of paths that exist (a rule for a missing path is skipped). */
export async function placedMounts(
  request: BoxRequest,
  { home, tmp, visible }: { home: string; tmp: string; visible: readonly string[] },
): Promise<PlacedBox> {
  const workTree = await realpath(request.root);
  const dirs = await workTreeGitDirs(workTree);
  const [gitDir, commonDir] = await Promise.all([realpath(dirs.gitDir), realpath(dirs.commonDir)]);
  // Made before the box, so that they are there to be bound read-only: a missing one the agent could
  // make its own. The worktrees' folders among them: a worktree the agent added there, with records of
  // its own under its git dir, would be one ralph reuses and whose forged records it replays.
  const records = await recordDir(workTree);
  const nested = await recordNested(workTree, commonDir, gitDir);
  const mustExist = [
    records,
    ...['ralph', 'hooks', 'info', 'worktrees'].map((name) => join(commonDir, name)),
    ...nested.mustExist,
  ];
  if (!request.dryRun) {
    await Promise.all(mustExist.map((dir) => mkdir(dir, { recursive: true })));
    // In the work tree, the agent's to write: a `ralph` made a link elsewhere is refused, never followed.
    for (const name of ['logs', 'worktrees']) await ownFolder(workTree, join(workTree, 'ralph', name));
  }
  const extras = await userExtras(request, { workTree, home, visible });
  const places = {
    workTree,
    gitDir,
    commonDir,
    recordDir: await realpath(records).catch(() => records),
    home,
    tmp,
    clientState: request.clientState.map((path) => join(home, path)),
    clientSettings: (request.clientSettings ?? []).map((path) => join(home, path)),
    nested,
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
  const mounts = placed.filter((mount) => mount !== undefined);
  const redirects = request.dryRun ? [] : [...(await absentRedirects(gitDir, commonDir)), ...nested.redirects];
  const settings = request.dryRun ? { absent: [], keyFiles: [] } : await clientGuard(request, home);
  const absent = await recordAbsentReadOnly(
    request.extras.readOnly,
    (path) => absoluteOf(path, workTree, home),
    mounts,
  );
  return { mounts, redirects, nested, places, settings, absent };
}

/** A path as the user gave it, absolute: `~/…` in home, a relative one in the work tree. */
function absoluteOf(path: string, workTree: string, home: string): string {
  return path.startsWith('~/') ? join(home, path.slice(2)) : isAbsolute(path) ? path : resolve(workTree, path);
}

/** The user's extra paths, each absolute and real where it exists, with what the box must show besides. */
async function userExtras(
  request: BoxRequest,
  { workTree, home, visible }: { workTree: string; home: string; visible: readonly string[] },
): Promise<BoxExtras> {
  // Real as far as it is there: a missing path's guards are then the real folders above it.
  const given = (path: string) => realPlace(absoluteOf(path, workTree, home));
  return {
    write: await Promise.all(request.extras.write.map(given)),
    readOnly: [
      ...(await Promise.all(request.extras.readOnly.map(given))),
      ...visible,
      ...(await programFolders(request.programs ?? [])),
    ],
    hidden: await Promise.all(request.extras.hidden.map(given)),
  };
}

/**
 * The folders of the clients' executables that lie in a shared temporary folder, which the box
 * replaces with an empty one: the link's, and the real file's install (all of it: a client loads its
 * own files and its dependencies — a platform binary in a package beside its own), read-only,
 * so the client still starts.
 */
async function programFolders(programs: readonly string[]): Promise<string[]> {
  const inShared = (path: string) =>
    SHARED_TEMPORARY.some((shared) => path === shared || path.startsWith(`${shared}${sep}`));
  const folders = await Promise.all(
    programs.map(async (program) => [
      dirname(program),
      installOf(await packageOf(await realpath(program).catch(() => program))),
    ]),
  );
  return [...new Set(folders.flat())].filter(inShared);
}

/**
 * The install a package belongs to: the outermost `node_modules` folder above it (where npm put its
 * dependencies, hoisted or not), else the package itself (a checkout, a loose executable).
 */
export function installOf(pkg: string): string {
  const parts = pkg.split(sep);
  const at = parts.indexOf('node_modules');
  return at > 0 ? parts.slice(0, at + 1).join(sep) : pkg;
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
