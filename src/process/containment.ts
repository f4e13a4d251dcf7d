import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import {
  createRunCgroup,
  createScopeCgroup,
  emptyCgroup,
  findOwnCgroup,
  inCgroup,
  killCgroupNow,
  leftoverRunCgroups,
  removeCgroup,
  removeCgroupNow,
  repoHash,
  runCgroupName,
} from './cgroup.js';
import { moveReadiness } from './move-readiness.js';
import { endMarked, killMarkedNow, MARKER_VARIABLE, type MarkedProcess } from './marked-processes.js';
import { bootTicksNow, hasProc } from './proc.js';
import { findUserManager, inScope, leftoverScopes, scopeUnit, type UserManager } from './systemd-scope.js';

/** How a run keeps its processes: the promise "every process it started is ended" holds this far. */
export type ContainmentMode = 'cgroup' | 'systemd scope' | 'marker' | 'process group only';

/** The mode in effect and why: printed at the start, by `--dry-run`, and kept in last-run.json. */
export interface ContainmentChoice {
  mode: ContainmentMode;
  reason: string;
}

/** The mark one scope of a run (an iteration's agent, a gate) puts on its processes. */
export interface RunMarker {
  /** `<run id>:<scope>`, e.g. `3f9a…:agent-7`. */
  value: string;
  /** The environment with the marker set: what the scope's first process is started with. */
  env(base: NodeJS.ProcessEnv): NodeJS.ProcessEnv;
  /** The command that starts `file args` inside the scope's cgroup (as it is without one). */
  wrap: (file: string, args: readonly string[]) => { file: string; args: string[] };
  /** The scope's cgroup, when the run has one. */
  cgroup?: string;
  /** When the scope started, in clock ticks since boot: older processes are not the scope's. */
  sinceTicks?: number;
  /**
   * A systemd scope's: its members may leave it (`systemd-run --user`, or another of the user's
   * scopes' cgroup.procs, are theirs to use), so those that kept the marker are swept too.
   */
  alsoMarked?: true;
}

/**
 * How long the kernel is kept ready to move processes (move-readiness.ts): from the run's cgroup
 * to its first agent (some 50 ms with a quick agent; a slower one pays the wait itself), and from
 * a scope's mark to its wrapper's move (a few milliseconds).
 */
const UNTIL_FIRST_SCOPE_MS = 150;
const UNTIL_MOVED_MS = 30;

/**
 * Keeps a run's processes inside the run. With a cgroup (Linux, cgroup v2, writable by ralph, or
 * made for it by the user's systemd manager as a transient scope): every scope's processes are
 * members of its cgroup, found by reading cgroup.procs, whatever they do to their environment.
 * Otherwise every process ralph starts carries a marker in its environment, inherited through
 * `setsid`, double forks and `daemon()`, and found in /proc once the scope's group is gone.
 * Without /proc (macOS) only the process group is ended.
 */
export class Containment {
  /** Processes ended after they left their group, over the whole run. */
  ended = 0;
  choice: ContainmentChoice;
  private runCgroup: string | undefined;
  private scopes: { manager: UserManager; repo: string } | undefined;
  private readonly live = new Set<RunMarker>();
  private scopesMade = 0;
  private exitHooked = false;

  constructor(readonly runId: string = newRunId()) {
    this.choice = hasProc()
      ? { mode: 'marker', reason: 'not yet opened' }
      : { mode: 'process group only', reason: 'no /proc on this system: processes that leave the group are not found' };
  }

  /**
   * Chooses the mode for a run of the repository `identity` (its git dir) and, with a cgroup, ends
   * what earlier runs of the same repository left in theirs (ralph holds its lock: they are dead).
   */
  async open(identity: string, env: NodeJS.ProcessEnv = process.env): Promise<MarkedProcess[]> {
    if (this.choice.mode === 'process group only') return [];
    const { choice, path, home, repo, manager } = chooseMode(identity, this.runId, env);
    this.choice = choice;
    this.runCgroup = path;
    this.scopes = manager ? { manager, repo } : undefined;
    this.hookExit();
    const leftovers = path
      ? leftoverRunCgroups(home, repo, this.runId)
      : manager
        ? leftoverScopes(manager, repo, this.runId)
        : [];
    const ended: MarkedProcess[] = [];
    for (const leftover of leftovers) ended.push(...(await emptyCgroup(leftover)));
    // Not before: the first move holds cgroup_mutex through its long wait, and the mkdir of the
    // run's cgroup (or the rmdir of a leftover) would wait with it, on ralph's main thread.
    if (path) moveReadiness.keep(UNTIL_FIRST_SCOPE_MS);
    return ended;
  }

  /**
   * A fresh marker (and, with a cgroup, a fresh cgroup) for one scope of this run, made a few
   * milliseconds before the scope starts: the kernel is made ready to move its first process.
   */
  mark(scope: string): RunMarker {
    const value = `${this.runId}:${scope}`;
    if (this.scopes) return this.markScope(value, scope, this.scopes);
    const cgroup = this.runCgroup ? createScopeCgroup(this.runCgroup, scope) : undefined;
    if (cgroup) moveReadiness.keep(UNTIL_MOVED_MS);
    const sinceTicks = cgroup ? undefined : bootTicksNow();
    return {
      value,
      env: (base) => ({ ...base, [MARKER_VARIABLE]: value }),
      wrap: (file, args) => (cgroup ? inCgroup(cgroup, file, args) : { file, args: [...args] }),
      ...(cgroup ? { cgroup } : {}),
      ...(sinceTicks === undefined ? {} : { sinceTicks }),
    };
  }

  /**
   * A scope in a transient unit of the user's manager: its cgroup is where the manager will make it,
   * once systemd-run asks; until then (or if it never does) there is nothing in it to end.
   */
  private markScope(
    value: string,
    scope: string,
    { manager, repo }: { manager: UserManager; repo: string },
  ): RunMarker {
    // Numbered: two scopes whose names clean up alike ("unit tests", "unit_tests") get units of their own.
    this.scopesMade += 1;
    const unit = scopeUnit(repo, this.runId, `${this.scopesMade}-${scope}`);
    return {
      value,
      env: (base: NodeJS.ProcessEnv) => ({ ...base, [MARKER_VARIABLE]: value }),
      wrap: (file: string, args: readonly string[]) => inScope(manager, unit, file, args),
      cgroup: join(manager.sliceDir, unit),
      sinceTicks: bootTicksNow(),
      alsoMarked: true,
    };
  }

  /**
   * Ends what is still in the scope once its group has been ended, and counts it. While it is
   * pending, ralph's own exit (an uncaught error, process.exit) kills them at once instead.
   */
  async endStrays(marker: RunMarker, options: { force?: AbortSignal } = {}): Promise<MarkedProcess[]> {
    const ended = marker.cgroup
      ? await emptyCgroup(marker.cgroup, options)
      : await endMarked({ exact: marker.value, ...since(marker) }, options);
    if (marker.alsoMarked) ended.push(...(await endMarked({ exact: marker.value, ...since(marker) }, options)));
    this.ended += ended.length;
    return ended;
  }

  /**
   * Registers a scope as running (its first process started): if ralph exits before it ends, its
   * processes are killed. The kernel needs keeping ready no longer.
   */
  started(marker: RunMarker): () => void {
    if (this.runCgroup) moveReadiness.enough();
    this.live.add(marker);
    this.hookExit();
    return () => {
      this.live.delete(marker);
      this.hookExit();
    };
  }

  /** Removes the run's cgroup at the end of the run. */
  async close(): Promise<void> {
    const path = this.runCgroup;
    this.runCgroup = undefined;
    this.hookExit();
    if (path) await removeCgroup(path);
  }

  /**
   * Listens for ralph's own exit while there is something to end or remove at it: a scope running,
   * or the run's cgroup (an uncaught fault ends the run without close(), and a cgroup left behind
   * outlives a repository deleted before its next run).
   */
  private hookExit(): void {
    const wanted = this.live.size > 0 || this.runCgroup !== undefined;
    if (wanted && !this.exitHooked) process.once('exit', this.atExit);
    if (!wanted && this.exitHooked) process.off('exit', this.atExit);
    this.exitHooked = wanted;
  }

  private readonly atExit = () => {
    for (const marker of this.live) {
      if (marker.cgroup) killCgroupNow(marker.cgroup);
      if (!marker.cgroup || marker.alsoMarked) killMarkedNow({ exact: marker.value });
    }
    if (this.runCgroup) removeCgroupNow(this.runCgroup);
  };
}

function since(marker: RunMarker): { sinceTicks?: number } {
  return marker.sinceTicks === undefined ? {} : { sinceTicks: marker.sinceTicks };
}

/**
 * The mode a run gets: a cgroup where one can be made, else a transient scope per agent or gate
 * where the user's systemd manager gives one, else the marker (or the marker when asked for).
 */
function chooseMode(identity: string, runId: string, env: NodeJS.ProcessEnv) {
  const home = findOwnCgroup();
  const repo = repoHash(identity);
  if (env.RALPH_CONTAINMENT === 'marker') {
    return { choice: { mode: 'marker' as const, reason: 'RALPH_CONTAINMENT=marker asks for it' }, home, repo };
  }
  const made = createRunCgroup(home, runCgroupName(repo, runId));
  if ('why' in made) {
    const manager = findUserManager(env);
    if (!('why' in manager)) {
      const reason = `${made.why}; each agent and gate in a transient scope of the systemd user manager under ${manager.sliceDir}`;
      return { choice: { mode: 'systemd scope' as const, reason }, home, repo, manager };
    }
    const why = manager.quiet ? made.why : `${made.why}; ${manager.why}`;
    return { choice: { mode: 'marker' as const, reason: `${why}; the environment marker is used` }, home, repo };
  }
  return {
    choice: {
      mode: 'cgroup' as const,
      reason: `each agent and gate in a cgroup of its own under ${'why' in home ? '' : home.dir}`,
    },
    path: made.path,
    home,
    repo,
  };
}

/** A run id: random, so two runs (in two worktrees, or one after another) never share a marker. */
function newRunId(): string {
  return randomBytes(6).toString('hex');
}

/** The mode a run would get, without keeping anything: for `ralph run --dry-run`. */
export async function probeContainment(identity: string, env: NodeJS.ProcessEnv): Promise<ContainmentChoice> {
  const probe = new Containment(`probe${newRunId()}`.replace(/[^0-9a-f]/g, ''));
  if (probe.choice.mode === 'process group only') return probe.choice;
  const { choice, path } = chooseMode(identity, probe.runId, env);
  if (path) await removeCgroup(path);
  return choice;
}
