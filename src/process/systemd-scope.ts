import { randomBytes } from 'node:crypto';
// eslint-disable-next-line no-restricted-imports -- chosen before a run's first agent, where loading execa costs ~100 ms
import { spawnSync } from 'node:child_process';
import { statSync } from 'node:fs';
import { delimiter, dirname, isAbsolute, join } from 'node:path';
import { cgroupDir, childDirs, findCgroupMount } from './cgroup.js';
import { lookUp } from './find-executable.js';

/**
 * Transient scopes of the user's systemd manager (`systemd-run --user --scope`), for where ralph may
 * not create a cgroup itself (a non-root login whose session cgroup belongs to root): the manager
 * makes one per agent or gate on request, owned by the user, so ralph still reads its members and
 * writes its cgroup.kill. systemd-run moves itself into the scope, then execs the command: the
 * command is a member from its first instruction, and so is everything it starts.
 */

/** Named, not left to the manager's default: the scopes' cgroups are then known without asking. */
const SLICE = 'app.slice';
/** A manager that does not answer in this time is taken as none: choosing must never hang a run. */
const PROBE_TIMEOUT_MS = 3000;

export interface UserManager {
  /** The absolute path of systemd-run. */
  systemdRun: string;
  /** The cgroup directory ralph's scopes appear in. */
  sliceDir: string;
}

/**
 * The user's systemd manager, if one answers and gives ralph a scope it can use: found by starting
 * one (`cat /proc/self/cgroup` in a throwaway scope) — which also proves that the manager may move
 * ralph's processes, something no property query shows.
 */
export function findUserManager(
  env: NodeJS.ProcessEnv,
  mountinfo?: string,
): UserManager | { why: string; quiet?: true } {
  const systemdRun = systemsOwn('systemd-run', env.PATH ?? '');
  if (!systemdRun) return { why: 'no systemd-run of the system on PATH', quiet: true };
  const mount = findCgroupMount(mountinfo);
  if ('why' in mount) return mount;
  const unit = `ralph-probe-${randomBytes(6).toString('hex')}.scope`;
  // Synchronous, as the rest of the choice: it runs once, before anything else of the run.
  const probe = spawnSync(systemdRun, [...scopeOptions(unit), '--', 'cat', '/proc/self/cgroup'], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
    encoding: 'utf8',
    timeout: PROBE_TIMEOUT_MS,
    killSignal: 'SIGKILL',
    maxBuffer: 1024 * 1024,
  });
  const own = /^0::(.*)$/m.exec(probe.stdout ?? '')?.[1];
  if (probe.status !== 0 || own?.endsWith(`/${SLICE}/${unit}`) !== true) {
    const timedOut = probe.error !== undefined && 'code' in probe.error && probe.error.code === 'ETIMEDOUT';
    const said = timedOut ? `no answer in ${PROBE_TIMEOUT_MS / 1000} s` : (probe.stderr ?? '').trim().split('\n')[0];
    return { why: `no systemd user manager gives ralph a scope${said ? ` (systemd-run: ${said})` : ''}` };
  }
  return { systemdRun, sliceDir: cgroupDir(mount, dirname(own)) };
}

/**
 * The program on PATH only where the agent cannot have put it: absolute folders only, and a file
 * that root owns and no one else may write, in a folder likewise. This mode is for users who are
 * not root, and the agent runs as them: a systemd-run of theirs could wrap agents in no scope at all.
 */
export function systemsOwn(name: string, pathVariable: string): string | undefined {
  const folders = pathVariable.split(delimiter).filter((folder) => isAbsolute(folder) && rootsAlone(folder));
  const found = lookUp(name, '/', folders.join(delimiter));
  return found !== undefined && rootsAlone(found) ? found : undefined;
}

function rootsAlone(path: string): boolean {
  try {
    const stats = statSync(path);
    return stats.uid === 0 && (stats.mode & 0o022) === 0;
  } catch {
    return false;
  }
}

/** The unit of one scope of a run: named for the repository, the run and the scope. */
export function scopeUnit(repo: string, runId: string, scope: string): string {
  return `ralph-${repo}-${runId}-${scope.replace(/[^\w.-]/g, '_').slice(0, 100)}.scope`;
}

/** The command that runs `file args` in a new transient scope named `unit`. */
export function inScope(
  manager: UserManager,
  unit: string,
  file: string,
  args: readonly string[],
): { file: string; args: string[] } {
  return { file: manager.systemdRun, args: [...scopeOptions(unit), '--', file, ...args] };
}

/**
 * --collect: a scope whose members were killed ends "failed", and would stay loaded until the
 * user resets it. A scope inherits the caller's working directory and environment: nothing to pass.
 */
function scopeOptions(unit: string): string[] {
  return ['--user', '--scope', '--collect', '--quiet', `--slice=${SLICE}`, `--unit=${unit}`];
}

/** The scopes of earlier runs of this repository that still have members: what a crashed run left. */
export function leftoverScopes(manager: UserManager, repo: string, exceptRunId: string): string[] {
  return childDirs(manager.sliceDir)
    .filter((name) => name.startsWith(`ralph-${repo}-`) && !name.startsWith(`ralph-${repo}-${exceptRunId}-`))
    .map((name) => join(manager.sliceDir, name));
}
