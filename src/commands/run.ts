import { join } from 'node:path';
import { writeFile } from 'node:fs/promises';
import { agentCommand } from '../agent/agent-command.js';
import { createAgentRunner } from '../agent/spawn-agent.js';
import { acquireActiveLock, releaseActiveLock } from '../files/active-lock.js';
import { nextIterationNumber } from '../files/iteration-numbers.js';
import { createLoopFiles } from '../files/loop-files.js';
import { iterationFileName, LOOP_OWNED_PATHS } from '../files/paths.js';
import { readOptional } from '../files/signal-files.js';
import { createGit, ensureIgnored } from '../git/repository.js';
import { runLoop } from '../loop/run-loop.js';
import { installInterrupts } from '../run/interrupts.js';
import { preflight } from '../run/preflight.js';
import { buildRunReport, renderSummary, writeLastRun } from '../run/run-report.js';
import { createReporter, streamConsole } from '../ui/reporter.js';

export interface RunOptions {
  cwd: string;
  maxIterations: number;
  maxStuck: number;
  prompt?: string;
  agentBin: string;
  env?: NodeJS.ProcessEnv;
  stdout?: NodeJS.WritableStream & import('node:stream').Writable;
  stderr?: NodeJS.WritableStream & import('node:stream').Writable;
}

/** `ralph run`: checks, then the loop, then the summary. Resolves to the exit code. */
export async function runCommand(options: RunOptions): Promise<number> {
  const stdout = options.stdout ?? process.stdout;
  const stderr = options.stderr ?? process.stderr;
  const out = streamConsole(stdout);
  const env = options.env ?? process.env;

  const ready = await preflight(options);
  const { paths } = ready;
  await ensureIgnored(paths.root, LOOP_OWNED_PATHS);
  if ((await readOptional(paths.progress)) === undefined) {
    await writeFile(paths.progress, '# Progress\n\n## Codebase Patterns\n\n---\n');
  }

  const startedAt = Date.now();
  const firstIteration = await nextIterationNumber(paths.logs, paths.summaryCsv);
  const lock = { pid: process.pid, startedAt: new Date(startedAt).toISOString() };
  const reporter = createReporter(out, options.maxStuck);
  const { warning } = await acquireActiveLock(paths.active, {
    ...lock,
    iteration: firstIteration,
    maxIterations: options.maxIterations,
    stuckCount: 0,
    mode: 'implement',
  });
  if (warning) reporter.warning(warning);

  const interrupts = installInterrupts((signal, count) =>
    out.line(count === 1 ? `\n${signal}: stopping the agent (again to kill it at once)…` : `${signal}: killing the agent now`),
  );
  try {
    const { CLAUDECODE: _nested, ...agentEnv } = env;
    const agent = createAgentRunner({
      command: (prompt) => agentCommand(ready.agentPath, ['--dangerously-skip-permissions'], prompt),
      cwd: paths.root,
      env: agentEnv,
      logPath: (iteration) => join(paths.logs, iterationFileName(iteration, 'log')),
      terminal: { stdout, stderr },
      interrupts,
      warn: reporter.warning,
    });
    const result = await runLoop(
      { maxIterations: options.maxIterations, maxStuck: options.maxStuck, firstIteration },
      {
        agent,
        git: createGit(paths.root),
        clock: { now: Date.now },
        files: createLoopFiles(paths, ready.promptPath, lock),
        interrupts,
        report: reporter,
      },
      ready.tasks,
    );
    const report = buildRunReport(result, {
      startedAt,
      endedAt: Date.now(),
      firstIteration,
      maxIterations: options.maxIterations,
    });
    await writeLastRun(paths.lastRun, report);
    out.line('');
    out.line(renderSummary(report));
    return report.exitCode;
  } finally {
    interrupts.dispose();
    await releaseActiveLock(paths.active, process.pid);
  }
}
