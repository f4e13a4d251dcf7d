import { relative, sep } from 'node:path';
import pc from 'picocolors';
import { worktreePlace } from '../outlets/notification.js';
import { countStories } from '../domain/tasks.js';
import { nextIterationNumber } from '../files/iteration-numbers.js';
import { stoppedByInterrupt } from '../git/safe-git.js';
import { withListBranch, type RunState } from '../files/run-state.js';
import { startRecords } from './start-records.js';
import type { IterationRow } from '../loop/port-data.js';
import { noProgress, type RunProgress } from '../loop/run-report.js';
import { runLoop } from '../loop/run-loop.js';
import { endingOfError, type RunEnd } from './finish-run.js';
import { loopSettings } from './loop-settings.js';
import { checkStart, setUpRun, type StartPlan } from './prepare-run.js';
import type { TaskList } from '../domain/tasks.js';
import type { Enclose } from '../agent/ask-agent.js';
import { enterTaskBranch } from './task-branch.js';
import { openRunBox } from './run-box.js';
import { boxLine } from '../box/box-gate-place.js';
import { startForecast, type RunLimits } from './start-forecast.js';
import { wirePorts, type WiredRun } from './wire-ports.js';
import type { ReadyRun, RunContext } from './run-context.js';
import { listenersFor } from './run-listeners.js';

/** What `checkStart` and `planStart` read. */
export type StartInput = Parameters<typeof checkStart>[0];

/** Prepare → wire → loop, under the lock; any refusal or fault becomes the run's ending. */
export async function runUnderLock(start: StartInput, run: RunContext): Promise<RunEnd> {
  try {
    const prepared = await prepareUnderLock(start, run);
    return await loopOver(prepared, run, await wirePorts(prepared, run));
  } catch (error) {
    // A git command stopped by Ctrl-C or SIGTERM fails: the run ends as the interrupt it was. Any
    // other failure keeps its own ending (a bug its trace), interrupt or not.
    const signal = run.interrupts.received();
    const ending =
      signal && stoppedByInterrupt(error)
        ? { ending: { reason: 'interrupted', signal } as const }
        : endingOfError(error);
    return { progress: noProgress(run.start.facts.storiesAtStart), rows: run.rows, ...ending };
  }
}

/** Checks the start, sets up ralph's files, numbers the iterations, enters the task branch, and counts the resume. */
async function prepareUnderLock(start: StartInput, run: RunContext): Promise<ReadyRun> {
  const { paths, terminal } = run;
  const setUp = setUpRun(paths);
  // Read beside the start checks (it only reads, and the lock is held); its warnings keep their place.
  const numberWarnings: string[] = [];
  const numbering = nextIterationNumber(paths.logs, paths.summaryCsv, (message) => numberWarnings.push(message));
  numbering.catch(() => undefined);
  const prepared = await checkStart(
    { ...start, signal: run.interrupts.graceful },
    { onPlan: (plan, tasks) => hearPlan(run, plan, tasks), openBox: (plan) => openBoxOf(run, plan, start.cwd) },
  );
  const { settings } = prepared.resolved;
  const { agentVersion, warnings } = prepared.ready;
  for (const warning of warnings) terminal.out.line(pc.yellow(`warning: ${warning}`));
  if (agentVersion !== undefined) {
    run.start.learn({ agentVersion });
    terminal.out.line(`agent: ${agentVersion}`);
  }
  // Once the start checks passed: a refused start is its one line, and this is the run's promise.
  sayBoundaries(run);
  await setUp();
  // Numbered under the lock: no other run can be writing logs now.
  const firstIteration = await numbering;
  run.start.learn({ firstIteration });
  for (const message of numberWarnings) terminal.out.line(pc.yellow(`warning: ${message}`));
  // Under the lock: two runs never switch branches under each other.
  const { tasks, branch } = await enterTaskBranch({
    root: paths.root,
    tasks: withListBranch(prepared.ready.tasks, paths.root, paths.tasks),
    tasksPath: paths.tasks,
    enabled: settings.branch,
    say: (text) => terminal.out.line(text),
    warn: (text) => terminal.out.line(pc.yellow(`warning: ${text}`)),
    signal: run.interrupts.graceful,
  });
  const { taskList, state, attempts, policy } = await startRecords(run, tasks, settings);
  const stories = sayForecast(run, state, countStories(tasks, policy), settings);
  const loopRan = { taskList, attempts, completeBefore: stories.complete };
  const { listeners } = run.start.facts;
  return {
    ...prepared,
    tasks,
    branch,
    unconfirmed: [...policy.unconfirmed],
    loopRan,
    policy,
    firstIteration,
    listeners,
  };
}

/** What the run knows before any check can refuse its start: its record then says the real limits and stories. */
function hearPlan(run: RunContext, plan: StartPlan, tasks: TaskList | undefined): void {
  const { paths, terminal, channel } = run;
  const { settings } = plan.resolved;
  const { worktreeOf } = run.options;
  const planned = {
    settings,
    cwd: run.options.cwd,
    // A worktree lies inside the repository: a `cmd:` program anywhere in it is the agent's to rewrite.
    root: worktreeOf?.root ?? paths.root,
    ...(worktreeOf ? { place: worktreePlace(worktreeOf.root, worktreeOf.list) } : {}),
    runStartedAt: run.startedMonotonicMs,
    paths,
  };
  const { out, env, github } = terminal;
  run.start.learn({
    maxIterations: settings.maxIterations,
    listeners: listenersFor(planned, { out, env, github, ...(channel ? { channel } : {}) }),
    ...(tasks ? { storiesAtStart: countStories(tasks, { review: !settings.skipReview }) } : {}),
  });
}

/**
 * Says the forecast as the run starts (ralph's records of this list's pace), and a limit that falls
 * short; resolves to the stories it counted.
 */
function sayForecast(
  run: RunContext,
  state: RunState,
  stories: { complete: number; total: number },
  limits: RunLimits,
): { complete: number; total: number } {
  const { lines, warning } = startForecast(state, stories, limits, Date.now());
  for (const line of lines) run.terminal.out.line(line);
  if (warning) run.terminal.out.line(pc.yellow(`warning: ${warning}`));
  return stories;
}

/**
 * The box that holds the run's agents and gates, opened once, before the agent's program is first
 * asked anything (its --version runs in it): a box asked for by name that cannot start refuses the run.
 */
async function openBoxOf(run: RunContext, plan: StartPlan, cwd: string): Promise<Enclose | undefined> {
  const { out, env } = run.terminal;
  const opened = await openRunBox(plan.resolved, run.paths.root, env, {
    warn: (line) => out.line(pc.yellow(`warning: ${line}`)),
    cwd,
  });
  run.start.learn({ box: opened });
  const { box } = opened;
  return box ? (command, where) => box.wrap(command, where) : undefined;
}

/** How the run keeps its processes and which box holds its agents and gates: the run's promise. */
function sayBoundaries(run: RunContext): void {
  const { out } = run.terminal;
  const { mode, reason } = run.containment.choice;
  out.line(pc.dim(`containment: ${mode} (${reason})`));
  const { box } = run.start.facts;
  if (box) out.line(pc.dim(boxLine(box)));
}

/**
 * Runs the loop. A fault mid-run (a full disk) closes what its iteration left open on the terminal,
 * and still counts the iterations it started in the record.
 */
async function loopOver(ready: ReadyRun, run: RunContext, wired: WiredRun): Promise<RunEnd> {
  const { tasks, loopRan, policy } = ready;
  const { rows } = run;
  const { ports, started, lastFailure } = wired;
  try {
    const { termination, ...progress } = await runLoop(
      loopSettings(
        ready.resolved.settings,
        ready.firstIteration,
        ready.branch,
        relative(run.paths.root, run.paths.tasks).split(sep).join('/'),
      ),
      ports,
      tasks,
      ready.unconfirmed,
    );
    return { ending: termination, progress, loopRan, rows, ...lastFailure() };
  } catch (error) {
    // Before the summary: on Actions it would be folded into the iteration's group otherwise.
    wired.abandonIteration();
    return {
      ...endingOfError(error),
      progress: { ...progressOfRows(rows, countStories(tasks, policy)), iterations: started() },
      loopRan,
      rows,
      ...lastFailure(),
    };
  }
}

/** What the rows written so far say of a run a fault cut short: its stories, strikes and cost. */
export function progressOfRows(
  rows: readonly IterationRow[],
  before: { complete: number; total: number },
): RunProgress {
  const last = rows.at(-1);
  const stories = last ? { complete: last.storiesComplete, total: last.storiesTotal } : before;
  // A strike is a row whose stuck count went up (every run starts at 0).
  const stuckIterations = rows.filter((row, index) => row.stuckCount > (rows[index - 1]?.stuckCount ?? 0)).length;
  const costUsd = rows.reduce((sum, row) => sum + (row.stats.costUsd ?? 0), 0);
  return { ...noProgress(stories), stuckIterations, costUsd };
}
