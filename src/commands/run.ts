import { writeFile } from 'node:fs/promises';
import { join, relative, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Writable } from 'node:stream';
import pc from 'picocolors';
import { agentCommand } from '../agent/agent-command.js';
import { checkSandbox, defaultSandboxName, sandboxCommand, stopSandbox } from '../agent/sandbox.js';
import { createAgentRunner } from '../agent/spawn-agent.js';
import { loadConfig } from '../config/load-config.js';
import { resolveSettings, type ResolvedSettings } from '../config/resolve-settings.js';
import type { RunOptionKey } from '../config/run-options.js';
import { acquireActiveLock, releaseActiveLock } from '../files/active-lock.js';
import { nextIterationNumber } from '../files/iteration-numbers.js';
import { createLoopFiles } from '../files/loop-files.js';
import { iterationFileName, LOOP_OWNED_PATHS, ralphPaths } from '../files/paths.js';
import { readOptional } from '../files/signal-files.js';
import { createGit, ensureIgnored, findRepoRoot } from '../git/repository.js';
import { runLoop } from '../loop/run-loop.js';
import { PROMPT_MARK, renderDryRun } from '../run/dry-run.js';
import { installInterrupts } from '../run/interrupts.js';
import { preflight } from '../run/preflight.js';
import { buildRunReport, renderSummary, writeLastRun } from '../run/run-report.js';
import { readTemplate } from '../templates.js';
import { createReporter, streamConsole } from '../ui/reporter.js';

export interface RunCommandOptions {
  cwd: string;
  /** Values given as flags (already checked); absent keys fall through to env, config, default. */
  flags: Partial<Record<RunOptionKey, unknown>>;
  dryRun?: boolean;
  env?: NodeJS.ProcessEnv;
  stdout?: Writable;
  stderr?: Writable;
}

/** `ralph run`: configuration, checks, then the loop, then the summary. Resolves to the exit code. */
export async function runCommand(options: RunCommandOptions): Promise<number> {
  const stdout = options.stdout ?? process.stdout;
  const stderr = options.stderr ?? process.stderr;
  const out = streamConsole(stdout);
  const env = options.env ?? process.env;

  const root = await findRepoRoot(options.cwd);
  const paths = ralphPaths(root);
  const shown = (path: string) => relative(options.cwd, path) || path;
  const resolved = resolveSettings(options.flags, env, await loadConfig(paths.config, shown(paths.config)));
  const { settings } = resolved;
  // A prompt named on the command line or in the environment is relative to where ralph was started.
  const promptBase = ['flag', 'env'].includes(resolved.sources.prompt) ? options.cwd : root;
  const sandbox = settings.sandbox === false ? undefined : typeof settings.sandbox === 'string' ? settings.sandbox : defaultSandboxName(root);
  const ready = await preflight({
    cwd: options.cwd,
    root,
    promptPath: resolve(promptBase, settings.prompt),
    ...(sandbox ? {} : { agentBin: settings.agentBin }),
  });
  const docker = sandbox ? await checkSandbox(options.cwd) : undefined;
  const command = (prompt: string) => {
    const onHost = agentCommand(ready.agentPath ?? 'claude', agentArguments(resolved), prompt);
    return docker && sandbox ? sandboxCommand(docker, sandbox, root, onHost) : onHost;
  };

  if (options.dryRun) {
    out.line(renderDryRun(resolved, command(PROMPT_MARK), shown(ready.promptPath)));
    return 0;
  }

  await ensureIgnored(root, LOOP_OWNED_PATHS);
  if ((await readOptional(paths.progress)) === undefined) await writeFile(paths.progress, await readTemplate('progress.txt'));

  const startedAt = Date.now();
  const firstIteration = await nextIterationNumber(paths.logs, paths.summaryCsv);
  const lock = { pid: process.pid, startedAt: new Date(startedAt).toISOString() };
  const reporter = createReporter(out, settings.maxStuck);
  const { warning } = await acquireActiveLock(paths.active, {
    ...lock,
    iteration: firstIteration,
    maxIterations: settings.maxIterations,
    stuckCount: 0,
    mode: 'implement',
  });
  if (warning) reporter.warning(warning);

  const interrupts = installInterrupts((signal, count) =>
    out.line(count === 1 ? `\n${signal}: stopping the agent (again to kill it at once)…` : `${signal}: killing the agent now`),
  );
  try {
    const { CLAUDECODE: _nested, ...inherited } = env;
    const agent = createAgentRunner({
      command,
      cwd: root,
      env: { ...inherited, ...resolved.agent.env },
      output: settings.output,
      logPaths: (iteration) => ({
        log: join(paths.logs, iterationFileName(iteration, 'log')),
        jsonl: join(paths.logs, iterationFileName(iteration, 'jsonl')),
      }),
      ...(settings.quiet ? {} : { terminal: { stdout, stderr } }),
      color: pc.isColorSupported,
      verbose: settings.verbose,
      iterationTimeoutMs: settings.iterationTimeout,
      idleTimeoutMs: settings.idleTimeout,
      maxRepeats: settings.maxRepeats,
      interrupts,
      warn: reporter.warning,
      ...(docker && sandbox ? { onForcedStop: () => stopSandbox(docker, sandbox, root) } : {}),
    });
    const result = await runLoop(
      {
        maxIterations: settings.maxIterations,
        maxStuck: settings.maxStuck,
        firstIteration,
        maxRuntimeMs: settings.maxRuntime,
        ...(settings.maxCost === undefined ? {} : { maxCostUsd: settings.maxCost }),
        maxAgentFailures: settings.maxAgentFailures,
        maxValidationFailures: settings.maxValidationFailures,
        onUsageLimit: settings.onUsageLimit,
        maxFeedbackBytes: MAX_FEEDBACK_BYTES,
      },
      {
        agent,
        git: createGit(root),
        clock: { now: Date.now, sleep: (ms, signal) => sleep(ms, undefined, { signal }).catch(() => undefined) },
        files: createLoopFiles(paths, ready.promptPath, lock),
        interrupts,
        report: reporter,
      },
      ready.tasks,
    );
    const report = buildRunReport(result, { startedAt, endedAt: Date.now(), firstIteration, maxIterations: settings.maxIterations });
    await writeLastRun(paths.lastRun, report);
    out.line('');
    out.line(renderSummary(report));
    return report.exitCode;
  } finally {
    interrupts.dispose();
    await releaseActiveLock(paths.active, process.pid);
  }
}

/** The feedback section's cap in a prompt; longer feedback goes to ralph/logs/feedback-NNN.md. */
const MAX_FEEDBACK_BYTES = 8 * 1024;

/** The agent's arguments after the prompt: the permission switch, the output format, then the user's extra arguments. */
function agentArguments({ agent, settings }: ResolvedSettings): string[] {
  return [
    ...(agent.skipPermissions ? ['--dangerously-skip-permissions'] : []),
    // stream-json needs --verbose with -p.
    ...(settings.output === 'stream-json' ? ['--output-format', 'stream-json', '--verbose'] : []),
    ...agent.args,
  ];
}
