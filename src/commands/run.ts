import { access, rm } from 'node:fs/promises';
import { join, relative } from 'node:path';
import type { Writable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import pc from 'picocolors';
import { createAgentRunner } from '../agent/spawn-agent.js';
import type { RunOptionKey } from '../config/run-options.js';
import { RalphError } from '../errors.js';
import { Containment } from '../agent/containment.js';
import { ActiveLock, currentOwner, releaseActiveLock } from '../files/active-lock.js';
import { nextIterationNumber } from '../files/iteration-numbers.js';
import { createLoopFiles } from '../files/loop-files.js';
import { iterationFileName, ralphPaths, type RalphPaths } from '../files/paths.js';
import { readRunState, taskListId } from '../files/run-state.js';
import { countStories } from '../domain/tasks.js';
import { createGit, findRepoRoot } from '../git/repository.js';
import type { AgentFailure } from '../domain/agent-failure.js';
import type { LoopPorts } from '../loop/ports.js';
import type { IterationRow } from '../loop/port-data.js';
import { runLoop } from '../loop/run-loop.js';
import { requireAgent } from '../run/agent-check.js';
import { prepareInvocation, type AgentInvocation } from '../run/agent-invocation.js';
import { deferredAgent } from '../run/deferred-agent.js';
import { dryRun } from '../run/dry-run.js';
import { endingOfError, finishRun, type RunEnd } from '../run/finish-run.js';
import { installInterrupts } from '../run/interrupts.js';
import { loopSettings } from '../run/loop-settings.js';
import { checkStart, checkStartTree, planStart, setUpRun, type PreparedRun } from '../run/prepare-run.js';
import { enterTaskBranch } from '../run/task-branch.js';
import { checkResume } from '../run/resume-guard.js';
import { noProgress } from '../loop/run-report.js';
import { createReporter } from '../ui/reporter.js';
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

/** Where a run shows itself: the terminal (or CI log) and whether GitHub Actions is listening. */
interface Terminal {
  stdout: Writable;
  stderr: Writable;
  env: NodeJS.ProcessEnv;
  out: Screen;
  tty: boolean;
  github: boolean;
}

/**
 * `ralph run`: find the repository and take the lock at once — so every later refusal is recorded in
 * last-run.json — then check the start, run the loop, and finish with one ending. Resolves to the exit code.
 */
export async function runCommand(options: RunCommandOptions): Promise<number> {
  const terminal = terminalFor(options);
  const root = await findRepoRoot(options.cwd);
  const paths = ralphPaths(root);
  const start = { cwd: options.cwd, root, paths, flags: options.flags, env: terminal.env, yes: options.yes === true };
  if (options.dryRun) {
    try {
      const plan = await planStart(start);
      await checkStartTree(plan, paths);
      return await dryRun(plan.resolved, plan.checks, terminal.out);
    } finally {
      terminal.out.close();
    }
  }
  await requireRalphFolder(paths, options.cwd, () => checkStart(start));
  const startedAt = Date.now();
  const containment = new Containment();
  const lock = new ActiveLock(paths.active, {
    ...currentOwner(containment.runId),
    startedAt: new Date(startedAt).toISOString(),
    ...{ iteration: 0, maxIterations: 0, stuckCount: 0, mode: 'implement' },
  });
  // Before it, a refusal writes nothing: it must never overwrite the record of a live run.
  const { warning } = await lock.acquire();
  const interrupts = installInterrupts((signal, count) =>
    terminal.out.line(count === 1 ? `${signal}: stopping (again to kill the agent at once)…` : `${signal}: killing the agent now`),
  );
  const rows: IterationRow[] = [];
  let end: RunEnd = { ending: { reason: 'complete' }, progress: noProgress(), rows };
  let firstIteration = 1;
  let maxIterations = 0;
  try {
    // Printed inside the try: the finally below must close the screen once it printed anything.
    if (warning) terminal.out.line(pc.yellow(`warning: ${warning}`));
    try {
      const prepared = await checkStart(start);
      maxIterations = prepared.resolved.settings.maxIterations;
      await setUpRun(paths);
      // Numbered under the lock: no other run can be writing logs now.
      firstIteration = await nextIterationNumber(paths.logs, paths.summaryCsv);
      end = await runTheLoop(prepared, { options, terminal, paths, lock, containment, firstIteration, interrupts, rows, startedAt });
    } catch (error) {
      end = { ...end, ...endingOfError(error) };
    }
    return await finishRun(end, {
      ...{ paths, out: terminal.out, stderr: terminal.stderr, env: terminal.env, github: terminal.github },
      ...{ startedAt, firstIteration, maxIterations, strayProcessesEnded: containment.ended },
    });
  } finally {
    // Later steps of the job must find the runner obeying commands again, however the run ended.
    terminal.out.close();
    interrupts.dispose();
    await rm(paths.tasksSnapshot, { force: true }).catch(() => undefined);
    await releaseActiveLock(paths.active, process.pid).catch((error: Error) => terminal.stderr.write(`ralph: could not remove ${paths.active}: ${error.message}\n`));
  }
}

/** What the loop needs from the command around it. */
interface LoopRun {
  options: RunCommandOptions;
  terminal: Terminal;
  paths: RalphPaths;
  lock: ActiveLock;
  containment: Containment;
  firstIteration: number;
  interrupts: ReturnType<typeof installInterrupts>;
  rows: IterationRow[];
  startedAt: number;
}

/** Checks the task list's resume count under the lock, wires the ports, and runs the loop. */
async function runTheLoop(prepared: PreparedRun, run: LoopRun): Promise<RunEnd> {
  const { resolved, ready } = prepared;
  const { settings } = resolved;
  const { paths, rows, terminal } = run;
  // Under the lock: two runs never switch branches under each other.
  const { tasks, branch } = await enterTaskBranch({ root: paths.root, tasks: ready.tasks, tasksPath: paths.tasks, enabled: settings.branch, say: (text) => terminal.out.line(text) });
  // Checked under the lock, so two simultaneous starts cannot both count as one resume.
  const taskList = taskListId(tasks);
  const state = await readRunState(paths.state, taskList);
  const attempts = checkResume(state, settings.maxResumes, run.options.resetResumes === true);
  const policy = { review: !settings.skipReview, unconfirmed: new Set(state.unconfirmedApprovals) };
  const loopRan = { taskList, attempts, completeBefore: countStories(tasks, policy).complete };
  const { ports, started, lastFailure } = await wirePorts(prepared, run, taskList);
  try {
    const { termination, ...progress } = await runLoop(loopSettings(settings, run.firstIteration, branch), ports, tasks, state.unconfirmedApprovals);
    return { ending: termination, progress, loopRan, rows, ...lastFailure() };
  } catch (error) {
    // A fault mid-run (a full disk): the iterations it started still count in the record.
    const last = rows.at(-1);
    const stories = last ? { complete: last.storiesComplete, total: last.storiesTotal } : countStories(tasks, policy);
    const costUsd = rows.reduce((sum, row) => sum + (row.stats.costUsd ?? 0), 0);
    return { ...endingOfError(error), progress: { ...noProgress(stories), iterations: started(), costUsd }, loopRan, rows, ...lastFailure() };
  }
}

/** The loop's ports over the real world: the agent, git, the clock, ralph's files, the terminal, the gates. */
async function wirePorts(
  { resolved, ready, checks }: PreparedRun,
  run: LoopRun,
  taskList: string,
): Promise<{ ports: LoopPorts; started: () => number; lastFailure: () => { lastFailure?: AgentFailure } }> {
  const { settings } = resolved;
  const { terminal, paths, interrupts, rows } = run;
  const { out, stdout, stderr } = terminal;
  const shown = createReporter(out, { maxStuck: settings.maxStuck, runStartedAt: run.startedAt, github: terminal.github });
  let started = 0;
  let lastFailure: AgentFailure | undefined;
  const reporter: typeof shown = {
    ...shown,
    iterationStarted: (event) => (started++, shown.iterationStarted(event)),
    iterationFinished: (event) => {
      rows.push(event.row);
      lastFailure = event.failure;
      shown.iterationFinished(event);
    },
  };
  const { CLAUDECODE: _nested, ...inherited } = terminal.env;
  const files = createLoopFiles(paths, ready.promptPath, run.lock, taskList);
  const makeAgent = (invocation: AgentInvocation) =>
    createAgentRunner({
      ...invocation,
      cwd: paths.root,
      env: checks.agentEnv,
      output: settings.output,
      logPaths: (iteration) => ({
        log: join(paths.logs, iterationFileName(iteration, 'log')),
        jsonl: join(paths.logs, iterationFileName(iteration, 'jsonl')),
      }),
      // On Actions the agent's stderr joins stdout: the runner handles a batch's stderr lines before its
      // stdout lines, so only one stream keeps them inside ralph's ::stop-commands:: window.
      ...(settings.quiet ? {} : { terminal: { stdout: out.agentStream(stdout), stderr: out.agentStream(terminal.github ? stdout : stderr) } }),
      color: pc.isColorSupported,
      verbose: settings.verbose,
      iterationTimeoutMs: settings.iterationTimeout,
      idleTimeoutMs: settings.idleTimeout,
      maxRepeats: settings.maxRepeats,
      interrupts,
      warn: reporter.warning,
      onToolCall: reporter.toolCall,
      containment: run.containment,
      onGroup: (agentGroup) => run.lock.update({ agentGroup }).catch((error: Error) => reporter.warning(`could not record the agent in ralph/.ralph-active: ${error.message}`)),
      onUsage: (windows) => {
        reporter.usage(windows);
        // Shown by `ralph status` only: a failed write must not end the iteration.
        void files.writeUsage(windows).catch(() => undefined);
      },
    });
  const invocationFor = (agentPath: string | undefined) => prepareInvocation(resolved, paths.root, run.options.cwd, agentPath);
  // Nothing left to do: the agent is found only if the gates send the loop back to work.
  const agent = ready.nothingLeft
    ? deferredAgent(async () => makeAgent(await invocationFor(await requireAgent(checks))))
    : makeAgent(await invocationFor(ready.agentPath));
  // The gate runner is loaded only by the runs that use it: start-up stays short.
  const gates =
    resolved.gates.length > 0 && !run.options.noGates
      ? (await import('../run/quality-gates.js')).createQualityGates({ specs: resolved.gates, root: paths.root, logsDir: paths.logs, env: inherited, interrupts, out, containment: run.containment })
      : undefined;
  const ports: LoopPorts = {
    agent,
    git: createGit(paths.root),
    clock: { now: Date.now, sleep: (ms, signal) => sleep(ms, undefined, { signal }).catch(() => undefined) },
    files,
    interrupts,
    report: reporter,
    ...(gates ? { gates } : {}),
  };
  return { ports, started: () => started, lastFailure: () => (lastFailure ? { lastFailure } : {}) };
}

/**
 * ralph/ must exist before the lock can be written in it: without it there is nothing to record
 * in either. The start checks then say what is missing (and how a ralph.sh layout is imported).
 */
async function requireRalphFolder(paths: RalphPaths, cwd: string, checks: () => Promise<unknown>): Promise<void> {
  if (await access(paths.dir).then(() => true, () => false)) return;
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
