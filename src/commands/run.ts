import { rm, writeFile } from 'node:fs/promises';
import { join, relative, resolve } from 'node:path';
import type { Writable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import pc from 'picocolors';
import { createAgentRunner } from '../agent/spawn-agent.js';
import { loadConfig } from '../config/load-config.js';
import { resolveSettings } from '../config/resolve-settings.js';
import type { RunOptionKey } from '../config/run-options.js';
import { acquireActiveLock, releaseActiveLock } from '../files/active-lock.js';
import { nextIterationNumber } from '../files/iteration-numbers.js';
import { createLoopFiles } from '../files/loop-files.js';
import { iterationFileName, LOOP_OWNED_PATHS, ralphPaths } from '../files/paths.js';
import { readRunState, taskListId, writeRunState } from '../files/run-state.js';
import { readOptional } from '../files/signal-files.js';
import { countStories } from '../files/tasks.js';
import { createGit, ensureIgnored, findRepoRoot } from '../git/repository.js';
import { runLoop } from '../loop/run-loop.js';
import { requireAgent } from '../run/agent-check.js';
import { prepareInvocation, type AgentInvocation } from '../run/agent-invocation.js';
import { deferredAgent } from '../run/deferred-agent.js';
import { dryRun } from '../run/dry-run.js';
import { installInterrupts } from '../run/interrupts.js';
import { loopSettings } from '../run/loop-settings.js';
import { preflight, type PreflightOptions } from '../run/preflight.js';
import { checkResume, stateAfterRun } from '../run/resume-guard.js';
import { buildRunReport, renderSummary, writeLastRun } from '../run/run-report.js';
import { enterTaskBranch } from '../run/task-branch.js';
import { readTemplate } from '../templates.js';
import type { IterationRow } from '../loop/ports.js';
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

/** `ralph run`: configuration, checks, then the loop, then the summary. Resolves to the exit code. */
export async function runCommand(options: RunCommandOptions): Promise<number> {
  const stdout = options.stdout ?? process.stdout;
  const stderr = options.stderr ?? process.stderr;
  const env = options.env ?? process.env;
  const { ci, github } = detectCi(env);
  const tty = (stdout as { isTTY?: boolean }).isTTY === true && !ci;
  const out = new Screen(stdout, { tty, timestamps: ci });

  const root = await findRepoRoot(options.cwd);
  const paths = ralphPaths(root);
  const shown = (path: string) => relative(options.cwd, path) || path;
  const resolved = resolveSettings(options.flags, env, await loadConfig(paths.config, shown(paths.config)));
  const { settings } = resolved;
  // A prompt named on the command line or in the environment is relative to where ralph was started.
  const promptBase = ['flag', 'env'].includes(resolved.sources.prompt) ? options.cwd : root;
  const { CLAUDECODE: _nested, ...inherited } = env;
  const checks: PreflightOptions = {
    cwd: options.cwd,
    root,
    promptPath: resolve(promptBase, settings.prompt),
    review: !settings.skipReview,
    yes: options.yes === true,
    ...(settings.sandbox === false ? { agentBin: settings.agentBin } : {}),
    skipPermissions: resolved.agent.skipPermissions,
    agentEnv: { ...inherited, ...resolved.agent.env },
    uid: process.getuid?.(),
  };
  if (options.dryRun) return dryRun(resolved, checks, out);
  const ready = await preflight(checks);

  await ensureIgnored(root, LOOP_OWNED_PATHS);
  if ((await readOptional(paths.progress)) === undefined) await writeFile(paths.progress, await readTemplate('progress.txt'));
  const startedAt = Date.now();
  const lock = { pid: process.pid, startedAt: new Date(startedAt).toISOString() };
  const rows: IterationRow[] = [];
  const terminal = createReporter(out, { maxStuck: settings.maxStuck, runStartedAt: startedAt, github });
  const reporter: typeof terminal = { ...terminal, iterationFinished: (event) => (rows.push(event.row), terminal.iterationFinished(event)) };
  const { warning } = await acquireActiveLock(paths.active, { ...lock, iteration: 0, maxIterations: settings.maxIterations, stuckCount: 0, mode: 'implement' });
  if (warning) reporter.warning(warning);
  // Numbered under the lock: no other run can be writing logs now.
  const firstIteration = await nextIterationNumber(paths.logs, paths.summaryCsv);

  const interrupts = installInterrupts((signal, count) =>
    out.line(count === 1 ? `${signal}: stopping (again to kill the agent at once)…` : `${signal}: killing the agent now`),
  );
  try {
    // Under the lock: two runs never switch branches under each other.
    const { tasks, branch } = await enterTaskBranch({ root, tasks: ready.tasks, tasksPath: paths.tasks, enabled: settings.branch, say: (text) => out.line(text) });
    // Checked under the lock, so two simultaneous starts cannot both count as one resume.
    const taskList = taskListId(tasks);
    const state = await readRunState(paths.state, taskList);
    const attempts = checkResume(state, settings.maxResumes, options.resetResumes === true);
    const policy = { review: !settings.skipReview, unconfirmed: new Set(state.unconfirmedApprovals) };
    const completeBefore = countStories(tasks, policy).complete;

    const files = createLoopFiles(paths, ready.promptPath, lock, taskList);
    const makeAgent = (invocation: AgentInvocation) => createAgentRunner({
      ...invocation,
      cwd: root,
      env: checks.agentEnv,
      output: settings.output,
      logPaths: (iteration) => ({
        log: join(paths.logs, iterationFileName(iteration, 'log')),
        jsonl: join(paths.logs, iterationFileName(iteration, 'jsonl')),
      }),
      ...(settings.quiet ? {} : { terminal: tty ? { stdout: out.agentStream(stdout), stderr: out.agentStream(stderr) } : { stdout, stderr } }),
      color: pc.isColorSupported,
      verbose: settings.verbose,
      iterationTimeoutMs: settings.iterationTimeout,
      idleTimeoutMs: settings.idleTimeout,
      maxRepeats: settings.maxRepeats,
      interrupts,
      warn: reporter.warning,
      onToolCall: reporter.toolCall,
      onUsage: (windows) => {
        reporter.usage(windows);
        void files.writeUsage(windows).catch(() => undefined);
      },
    });
    const invocationFor = (agentPath: string | undefined) => prepareInvocation(resolved, root, options.cwd, agentPath);
    const agent = ready.nothingLeft
      ? deferredAgent(async () => makeAgent(await invocationFor(await requireAgent(checks))))
      : makeAgent(await invocationFor(ready.agentPath));
    // The gate runner and the GitHub reporting are loaded only by the runs that use them: start-up stays short.
    const gates =
      resolved.gates.length > 0 && !options.noGates
        ? (await import('../run/quality-gates.js')).createQualityGates({ specs: resolved.gates, root, logsDir: paths.logs, env: inherited, interrupts, out })
        : undefined;
    const result = await runLoop(
      loopSettings(settings, firstIteration, branch),
      {
        agent,
        git: createGit(root),
        clock: { now: Date.now, sleep: (ms, signal) => sleep(ms, undefined, { signal }).catch(() => undefined) },
        files,
        interrupts,
        report: reporter,
        ...(gates ? { gates } : {}),
      },
      tasks,
      state.unconfirmedApprovals,
    );

    const report = buildRunReport(result, { startedAt, endedAt: Date.now(), firstIteration, maxIterations: settings.maxIterations });
    await writeLastRun(paths.lastRun, report);
    // Re-read: review counts may have changed during the run.
    const latest = await readRunState(paths.state, taskList);
    await writeRunState(paths.state, stateAfterRun(latest, { reason: report.reason, attempts, completeBefore, completeAfter: report.stories.complete }));
    out.line('');
    out.line(renderSummary(report));
    if (github) {
      const { annotationFor, publishToGitHub } = await import('../ui/github-actions.js');
      const annotation = annotationFor(report.reason, report.exitCode, report.detail?.split('\n')[0]);
      if (annotation) out.line(annotation);
      await publishToGitHub(env, report, rows);
    }
    return report.exitCode;
  } finally {
    interrupts.dispose();
    await rm(paths.tasksSnapshot, { force: true });
    await releaseActiveLock(paths.active, process.pid);
  }
}
