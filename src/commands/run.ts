import { access, rm } from 'node:fs/promises';
import { relative } from 'node:path';
import type { Writable } from 'node:stream';
import pc from 'picocolors';
import { Containment } from '../agent/containment.js';
import type { RunOptionKey } from '../config/run-options.js';
import { RalphError } from '../errors.js';
import { ActiveLock, currentOwner } from '../files/active-lock.js';
import { nextIterationNumber } from '../files/iteration-numbers.js';
import { ralphPaths, type RalphPaths } from '../files/paths.js';
import { readRunState, taskListId } from '../files/run-state.js';
import { countStories } from '../domain/tasks.js';
import { findRepoRoot } from '../git/repository.js';
import type { AgentFailure } from '../domain/agent-failure.js';
import type { LoopPorts } from '../loop/ports.js';
import { runLoop } from '../loop/run-loop.js';
import { dryRun } from '../run-lifecycle/dry-run.js';
import { endingOfError, finishRun, type RunEnd } from '../run-lifecycle/finish-run.js';
import { installInterrupts } from '../run-lifecycle/interrupts.js';
import { loopSettings } from '../run-lifecycle/loop-settings.js';
import { checkStart, checkStartTree, planStart, setUpRun } from '../run-lifecycle/prepare-run.js';
import { checkResume } from '../run-lifecycle/resume-guard.js';
import { noProgress } from '../loop/run-report.js';
import { enterTaskBranch } from '../run-lifecycle/task-branch.js';
import { wirePorts, type LoopRun, type ReadyRun, type Terminal } from '../run-lifecycle/wire-ports.js';
import { detectCi, Screen } from '../ui/screen.js';

export interface RunCommandOptions {
  cwd: string;
  /** Values given as flags (already checked); absent keys fall through to env, config, default. */
  flags: Partial<Record<RunOptionKey, unknown>>;
  dryRun?: boolean;
  /** --no-gates: skip the quality gates for this run. */
  noGates?: boolean;
  /** --reset-resumes: clear the resume counter (a human fixed the cause). */
  resetResumes?: boolean;
  /** --yes: run even the example task list. */
  yes?: boolean;
  env?: NodeJS.ProcessEnv;
  stdout?: Writable;
  stderr?: Writable;
}

/**
 * `ralph run`: find the repository and take the lock at once — so every later refusal is recorded in
 * last-run.json — then prepare the run, wire the loop to the real world, run it, and finish with one
 * ending. Resolves to the exit code.
 */
export async function runCommand(options: RunCommandOptions): Promise<number> {
  const terminal = terminalFor(options);
  const root = await findRepoRoot(options.cwd);
  const paths = ralphPaths(root);
  const start: StartInput = {
    cwd: options.cwd,
    root,
    paths,
    flags: options.flags,
    env: terminal.env,
    yes: options.yes === true,
  };
  if (options.dryRun) return await dryRunCommand(start, terminal);
  await requireRalphFolder(paths, options.cwd, () => checkStart(start));
  const run = await openRun(options, terminal, paths);
  try {
    // Printed inside the try: the finally below must close the screen once it printed anything.
    if (run.lockWarning) terminal.out.line(pc.yellow(`warning: ${run.lockWarning}`));
    const end = await runUnderLock(start, run);
    // A fault mid-iteration left its group and status line open: closed before the summary.
    run.abandonIteration();
    return await finishRun(end, {
      ...{ paths, out: terminal.out, stderr: terminal.stderr, env: terminal.env, github: terminal.github },
      ...{
        startedAt: run.startedAt,
        firstIteration: run.firstIteration,
        maxIterations: run.maxIterations,
        strayProcessesEnded: run.containment.ended,
      },
    });
  } finally {
    await closeRun(run);
  }
}

/** What `checkStart` and `planStart` read. */
type StartInput = Parameters<typeof checkStart>[0];

/** `--dry-run`: the start checks and the settings, shown; nothing is locked, written or spawned. */
async function dryRunCommand(start: StartInput, terminal: Terminal): Promise<number> {
  try {
    const plan = await planStart(start);
    await checkStartTree(plan, start.paths);
    return await dryRun(plan.resolved, plan.checks, terminal.out);
  } finally {
    await terminal.out.close();
  }
}

/** Takes the lock and listens for interrupts. Before the lock, a refusal writes nothing: it must never overwrite the record of a live run. */
async function openRun(options: RunCommandOptions, terminal: Terminal, paths: RalphPaths): Promise<LoopRun> {
  const startedAt = Date.now();
  const containment = new Containment();
  const lock = new ActiveLock(paths.active, {
    ...currentOwner(containment.runId),
    startedAt: new Date(startedAt).toISOString(),
    ...{ iteration: 0, maxIterations: 0, stuckCount: 0, mode: 'implement' },
  });
  const { warning } = await lock.acquire();
  const interrupts = installInterrupts((signal, count) =>
    terminal.out.line(
      count === 1 ? `${signal}: stopping (again to kill the agent at once)…` : `${signal}: killing the agent now`,
    ),
  );
  return {
    options,
    terminal,
    paths,
    lock,
    lockWarning: warning,
    containment,
    interrupts,
    rows: [],
    startedAt,
    abandonIteration: () => undefined,
    firstIteration: 1,
    maxIterations: 0,
  };
}

/** Closes the screen, stops listening for interrupts, and releases the lock — however the run ended. */
async function closeRun({ terminal, interrupts, paths, lock }: LoopRun): Promise<void> {
  // Later steps of the job must find the runner obeying commands again.
  const closed = terminal.out.close();
  interrupts.dispose();
  await rm(paths.tasksSnapshot, { force: true }).catch(() => undefined);
  await lock
    .release()
    .catch((error: Error) => terminal.stderr.write(`ralph: could not remove ${paths.active}: ${error.message}\n`));
  // Everything printed reaches the terminal before ralph exits, unless nothing reads it for a while.
  await Promise.race([closed, new Promise((resolve) => setTimeout(resolve, FLUSH_LIMIT_MS).unref())]);
}

/** How long ralph waits at the end for a terminal that does not read what it printed. */
const FLUSH_LIMIT_MS = 10_000;

/** Prepare → wire → loop, under the lock; any refusal or fault becomes the run's ending. */
async function runUnderLock(start: StartInput, run: LoopRun): Promise<RunEnd> {
  try {
    const prepared = await prepareUnderLock(start, run);
    const { ports, started, lastFailure } = await wirePorts(prepared, run);
    return await loopOver(prepared, run, ports, started, lastFailure);
  } catch (error) {
    // A git command stopped by Ctrl-C or SIGTERM fails: the run ends as the interrupt it was.
    const signal = run.interrupts.received();
    const ending = signal ? { ending: { reason: 'interrupted', signal } as const } : endingOfError(error);
    return { progress: noProgress(), rows: run.rows, ...ending };
  }
}

/** Checks the start, sets up ralph's files, numbers the iterations, enters the task branch, and counts the resume. */
async function prepareUnderLock(start: StartInput, run: LoopRun): Promise<ReadyRun> {
  const { paths, terminal } = run;
  const prepared = await checkStart({ ...start, signal: run.interrupts.graceful });
  const { settings } = prepared.resolved;
  run.maxIterations = settings.maxIterations;
  await setUpRun(paths);
  // Numbered under the lock: no other run can be writing logs now.
  run.firstIteration = await nextIterationNumber(paths.logs, paths.summaryCsv);
  // Under the lock: two runs never switch branches under each other.
  const { tasks, branch } = await enterTaskBranch({
    root: paths.root,
    tasks: prepared.ready.tasks,
    tasksPath: paths.tasks,
    enabled: settings.branch,
    say: (text) => terminal.out.line(text),
    signal: run.interrupts.graceful,
  });
  // Checked under the lock, so two simultaneous starts cannot both count as one resume.
  const taskList = taskListId(tasks);
  const state = await readRunState(paths.state, taskList);
  const attempts = checkResume(state, settings.maxResumes, run.options.resetResumes === true);
  const policy = { review: !settings.skipReview, unconfirmed: new Set(state.unconfirmedApprovals) };
  const loopRan = { taskList, attempts, completeBefore: countStories(tasks, policy).complete };
  return { ...prepared, tasks, branch, unconfirmed: state.unconfirmedApprovals, loopRan, policy };
}

/** Runs the loop; a fault mid-run (a full disk) still counts the iterations it started in the record. */
async function loopOver(
  ready: ReadyRun,
  run: LoopRun,
  ports: LoopPorts,
  started: () => number,
  lastFailure: () => { lastFailure?: AgentFailure },
): Promise<RunEnd> {
  const { tasks, loopRan, policy } = ready;
  const { rows } = run;
  try {
    const { termination, ...progress } = await runLoop(
      loopSettings(ready.resolved.settings, run.firstIteration, ready.branch),
      ports,
      tasks,
      ready.unconfirmed,
    );
    return { ending: termination, progress, loopRan, rows, ...lastFailure() };
  } catch (error) {
    const last = rows.at(-1);
    const stories = last ? { complete: last.storiesComplete, total: last.storiesTotal } : countStories(tasks, policy);
    const costUsd = rows.reduce((sum, row) => sum + (row.stats.costUsd ?? 0), 0);
    return {
      ...endingOfError(error),
      progress: { ...noProgress(stories), iterations: started(), costUsd },
      loopRan,
      rows,
      ...lastFailure(),
    };
  }
}

/**
 * ralph/ must exist before the lock can be written in it: without it there is nothing to record
 * in either. The start checks then say what is missing (and how a ralph.sh layout is imported).
 */
async function requireRalphFolder(paths: RalphPaths, cwd: string, checks: () => Promise<unknown>): Promise<void> {
  if (
    await access(paths.dir).then(
      () => true,
      () => false,
    )
  )
    return;
  await checks();
  throw new RalphError('setup', `${relative(cwd, paths.dir) || paths.dir} not found`, 'run `ralph init` to create it');
}

function terminalFor(options: RunCommandOptions): Terminal {
  const stdout = options.stdout ?? process.stdout;
  const env = options.env ?? process.env;
  const { ci, github } = detectCi(env);
  const tty = (stdout as { isTTY?: boolean }).isTTY === true && !ci;
  return {
    stdout,
    stderr: options.stderr ?? process.stderr,
    env,
    // The Actions runner stamps every line itself; elsewhere in CI ralph stamps its own.
    out: new Screen(stdout, { tty, timestamps: ci && !github, github }),
    tty,
    github,
  };
}
