import { RalphError } from '../errors.js';
import { ralphPaths } from '../files/paths.js';
import { recordPaths } from '../files/record-paths.js';
import { currentBranch } from '../git/branch.js';
import { recordDir } from '../git/record-dir.js';
import { findRepoRoot } from '../git/repository.js';
import { GitStopped } from '../git/safe-git.js';
import { commitOf } from '../git/merge-check.js';
import { baseFor } from '../integrate/base-for.js';
import { integrateLists } from '../integrate/integrate-lists.js';
import { findTaskLists, LISTS_DIR, worktreeDir, type TaskList } from '../lists/task-lists.js';
import { exitCodeFor, type InterruptSignal } from '../loop/termination.js';
import { gitMergePorts } from '../parallel/merge-ports.js';
import { mostUrgent } from '../parallel/most-urgent.js';
import { readLoopRecord, writeParallelRecord } from '../parallel/parallel-record.js';
import { liveScreen, prefixedScreen, type SupervisorScreen } from '../parallel/supervisor-screen.js';
import { gateEnvironment } from '../run-lifecycle/agent-environment.js';
import { Supervisor, type ParallelResult } from '../parallel/supervisor.js';
import { detectCi } from '../ui/screen.js';

/** The most loops a parallel run starts at once unless --jobs says otherwise. */
const DEFAULT_JOBS_CAP = 4;

export interface ParallelCommandOptions {
  cwd: string;
  /** The lists named on the command line; every list under ralph/lists/ when empty. */
  names: readonly string[];
  jobs?: number;
  maxTotalCost?: number;
  onConflict?: 'report' | 'stop-later';
  /** --integrate: once the loops end, `ralph integrate` the lists that ended COMPLETE. */
  integrate?: boolean;
  /** The user's other run options, passed on to every loop as given. */
  passThrough: readonly string[];
  env?: NodeJS.ProcessEnv;
  stdout?: NodeJS.WritableStream & { isTTY?: boolean; columns?: number };
}

/**
 * `ralph run --parallel`: one `ralph run --worktree --tasks …` child per list, supervised. Resolves
 * to the most urgent of the loops' exit codes.
 */
export async function runParallelCommand(options: ParallelCommandOptions): Promise<number> {
  const root = await findRepoRoot(options.cwd);
  const lists = chosenLists(await findTaskLists(root), options.names);
  const jobs = options.jobs ?? Math.min(lists.length, DEFAULT_JOBS_CAP);
  const env = options.env ?? process.env;
  const stdout = options.stdout ?? process.stdout;
  const { ci, github } = detectCi(env);
  const paths = ralphPaths(root);
  const startedAt = Date.now();
  const names = lists.map((list) => list.name);
  const screen = await screenFor(stdout, { root, logs: paths.logs, names, startedAt, ci, github });
  const branch = (await currentBranch(root)) ?? 'HEAD';
  // Pinned in ralph's own memory now: every ref is the loops' agents' to move (they commit in the
  // shared git dir), the user's branch too, so no loop, base or integration starts from it later.
  const start = await commitOf(root, 'HEAD', {});
  // Ctrl-C ends the supervisor's own work too: the gates and git of a dependent list's base, and --integrate.
  const halt = { stop: new AbortController(), force: new AbortController() };
  const stopping = { signal: halt.stop.signal, force: halt.force.signal };
  const supervisor = new Supervisor(
    {
      lists,
      jobs,
      base: { name: branch, branch },
      onConflict: options.onConflict ?? 'report',
      ...(options.maxTotalCost === undefined ? {} : { maxTotalCost: options.maxTotalCost }),
    },
    supervisorPorts({ root, lists, env, github, start, stopping, screen, passThrough: options.passThrough }),
  );
  const interrupts = passInterrupts(supervisor, screen, halt);
  try {
    const result = await supervisor.run();
    showSummary(screen, result);
    const moved = await headMoved(root, start);
    if (moved) screen.line(moved);
    await writeParallelRecord(root, paths.logs, { startedAt, endedAt: Date.now(), jobs }, result);
    if (!options.integrate) return result.exitCode;
    const after = { start, stopping, interruptedBy: interrupts.first };
    return mostUrgent([result.exitCode, await integrateAfter(root, env, screen, after)]);
  } finally {
    interrupts.release();
    await screen.close();
  }
}

/** Live lines on a terminal; elsewhere (CI, a pipe) lines prefixed with their list. */
async function screenFor(
  stdout: NonNullable<ParallelCommandOptions['stdout']>,
  at: { root: string; logs: string; names: string[]; startedAt: number; ci: boolean; github: boolean },
): Promise<SupervisorScreen> {
  if (stdout.isTTY !== true || at.ci) return prefixedScreen(stdout, at.names, at.github);
  const stamp = new Date(at.startedAt).toISOString().replace(/[:.]/g, '-');
  return liveScreen(stdout, at.root, at.logs, at.names, stamp);
}

/** How the supervisor starts each loop, makes a dependent list's base, and hears of the loops. */
function supervisorPorts(at: {
  root: string;
  lists: readonly TaskList[];
  env: NodeJS.ProcessEnv;
  github: boolean;
  start: string | undefined;
  stopping: { signal: AbortSignal; force: AbortSignal };
  screen: SupervisorScreen;
  passThrough: readonly string[];
}): ConstructorParameters<typeof Supervisor>[1] {
  const { root, lists, env, start, screen } = at;
  return {
    loopCommand: (list, from) => ({
      command: process.execPath,
      args: [...process.execArgv, process.argv[1] ?? 'ralph', ...loopArgs(list, from ?? start, at.passThrough)],
      cwd: root,
      env: loopEnvironment(env, at.github),
    }),
    // The work of every list it depends on, merged and gated as `ralph integrate` does.
    baseFor: (list) =>
      baseFor(root, list, lists, {
        env: gateEnvironment(env),
        ...(start ? { start } : {}),
        ...at.stopping,
        onLine: (line) => screen.say(list.name, line),
      }),
    merge: gitMergePorts(root),
    readRecord: async (list, since) => {
      const records = await recordDir(worktreeDir(root, list.branch)).catch(() => undefined);
      return records === undefined ? undefined : readLoopRecord(recordPaths(records), since);
    },
    output: (list) => screen.output(list.name, 'stdout'),
    changed: (views) => screen.changed(views),
    say: (list, text) => screen.say(list, text),
    now: Date.now,
  };
}

/**
 * A warning when HEAD is not where the run began: ralph's loops never move the checkout's branch,
 * so something else did — the user, or a loop's agent (every ref of the shared git dir is theirs).
 */
async function headMoved(root: string, start: string | undefined): Promise<string | undefined> {
  const now = await commitOf(root, 'HEAD', {});
  if (start === undefined || now === start) return undefined;
  return (
    `warning: HEAD moved during the run, from ${start.slice(0, 12)} to ${now?.slice(0, 12) ?? 'nothing'}, ` +
    `and not by ralph: look at what it holds (git log ${start.slice(0, 12)}..HEAD); integrations start from ${start.slice(0, 12)}`
  );
}

/** What --integrate starts from and what stops it. */
interface IntegrateAfter {
  /** The commit HEAD was at when the parallel run began. */
  start: string | undefined;
  stopping: { signal: AbortSignal; force: AbortSignal };
  interruptedBy: () => InterruptSignal | undefined;
}

/**
 * `--integrate`, once the loops ended: its exit code. A Ctrl-C before it keeps it from starting;
 * one during it ends its gates and git at once.
 */
async function integrateAfter(
  root: string,
  env: NodeJS.ProcessEnv,
  screen: SupervisorScreen,
  { start, stopping: { signal, force }, interruptedBy }: IntegrateAfter,
): Promise<number> {
  screen.line('');
  const interrupted = () => exitCodeFor({ reason: 'interrupted', signal: interruptedBy() ?? 'SIGINT' });
  if (signal.aborted) {
    screen.line('ralph integrate: not started, the run was interrupted');
    return interrupted();
  }
  try {
    const gates = {
      env: gateEnvironment(env),
      signal,
      force,
      ranHere: true,
      ...(start ? { start } : {}),
      onLine: (line: string) => screen.line(line),
    };
    return (await integrateLists(root, gates)).exitCode;
  } catch (error) {
    // Ctrl-C ended a git command of its set-up (the branch, the worktree): nothing was merged.
    if (!(error instanceof GitStopped && error.why === 'interrupt')) throw error;
    screen.line('ralph integrate: interrupted');
    return interrupted();
  }
}

/** The lists named (each must exist), or every list; none at all is a set-up error saying how to add one. */
export function chosenLists(all: readonly TaskList[], names: readonly string[]): TaskList[] {
  if (all.length === 0)
    throw new RalphError(
      'setup',
      `--parallel found no task list under ${LISTS_DIR}/`,
      `add one as ${LISTS_DIR}/<name>.json (a task list like ralph/tasks.json), then run again`,
    );
  const byName = new Map(all.map((list) => [list.name, list]));
  for (const name of names)
    if (!byName.has(name))
      throw new RalphError(
        'setup',
        `--parallel: no task list ${LISTS_DIR}/${name}.json`,
        `name one of ${all.map((list) => list.name).join(', ')}`,
      );
  const chosen = names.length === 0 ? [...all] : all.filter((list) => names.includes(list.name));
  for (const list of chosen) {
    for (const other of list.dependsOn)
      if (!chosen.some((each) => each.name === other))
        throw new RalphError(
          'setup',
          `--parallel: ${list.name} dependsOn ${other}, which is not among the lists named`,
          `name ${other} too, or run every list (name none)`,
        );
  }
  return chosen;
}

/** `run --worktree --tasks ralph/lists/<name>.json [--from <ref>]` and the user's other options. */
export function loopArgs(list: TaskList, from: string | undefined, passThrough: readonly string[]): string[] {
  return [
    'run',
    '--worktree',
    '--tasks',
    `${LISTS_DIR}/${list.name}.json`,
    ...(from === undefined ? [] : ['--from', from]),
    ...passThrough,
  ];
}

/**
 * The loops' environment: on GitHub Actions they are not the step (the supervisor speaks to the
 * runner, and one step output per step is all there is), but still CI.
 */
function loopEnvironment(env: NodeJS.ProcessEnv, github: boolean): NodeJS.ProcessEnv {
  if (!github) return env;
  const { GITHUB_ACTIONS: _actions, GITHUB_OUTPUT: _output, GITHUB_STEP_SUMMARY: _summary, ...rest } = env;
  return { ...rest, CI: 'true' };
}

/**
 * The first Ctrl-C (or SIGTERM, SIGHUP) is passed on to every loop and aborts `stop`, which ends the
 * gates and git the supervisor runs itself; a second one is passed on too, and aborts `force`: the
 * agents and the supervisor's own gates die at once.
 */
function passInterrupts(
  supervisor: Supervisor,
  screen: SupervisorScreen,
  { stop, force }: { stop: AbortController; force: AbortController },
): { release: () => void; first: () => InterruptSignal | undefined } {
  const signals: InterruptSignal[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];
  const got: InterruptSignal[] = [];
  const handle = (signal: InterruptSignal) => {
    got.push(signal);
    screen.line(
      got.length === 1
        ? `${signal}: stopping every loop (again to kill their agents at once)…`
        : `${signal}: killing the agents now`,
    );
    supervisor.interrupt(signal);
    if (got.length > 1) force.abort();
    stop.abort();
  };
  for (const signal of signals) process.on(signal, handle);
  return {
    release: () => {
      for (const signal of signals) process.off(signal, handle);
    },
    first: () => got[0],
  };
}

/** Each loop's ending and the merge matrix, as the run's last lines. */
function showSummary(screen: SupervisorScreen, result: ParallelResult): void {
  screen.line('');
  for (const loop of result.loops) {
    const { outcome } = loop;
    const ending =
      outcome.state === 'ran' ? `${outcome.reason} (exit ${outcome.exitCode})` : `not started: ${outcome.why}`;
    screen.line(`${loop.list} (${loop.branch}): ${ending}${loop.costUsd > 0 ? ` · $${loop.costUsd.toFixed(2)}` : ''}`);
  }
  if (result.matrix.length > 0) screen.line('merge check:');
  for (const cell of result.matrix) {
    const { check } = cell;
    const verdict =
      check.state === 'clean'
        ? 'merges cleanly'
        : check.state === 'conflicts'
          ? `conflicts in ${check.files.join(', ')}`
          : `not checked: ${check.why}`;
    screen.line(`  ${cell.theirs} into ${cell.ours}: ${verdict}`);
  }
  if (result.skippedMergeCheck !== undefined) screen.line(`merge check skipped: ${result.skippedMergeCheck}`);
  screen.line(`parallel run: exit ${result.exitCode}`);
}
