import { detectCi } from '../process/ci-environment.js';
import { findRepoRoot } from '../git/repository.js';
import { GitStopped } from '../git/safe-git.js';
import { exitCodeFor, type InterruptSignal } from '../loop/termination.js';
import { integrateLists } from '../integrate/integrate-lists.js';
import { gateEnvironment } from '../run-lifecycle/agent-environment.js';
import { fencedFromRunner } from '../ui/runner-fence.js';

export interface IntegrateCommandOptions {
  cwd: string;
  /** The integration branch (default: a new ralph/integration/<date>-<n>). */
  into?: string;
  stdout?: NodeJS.WritableStream;
  env?: NodeJS.ProcessEnv;
}

/** `ralph integrate`: the complete lists' branches, merged and checked in an integration branch of their own. */
export async function integrateCommand(options: IntegrateCommandOptions): Promise<number> {
  const stdout = options.stdout ?? process.stdout;
  const env = options.env ?? process.env;
  const root = await findRepoRoot(options.cwd);
  // Branch names, file names and a gate's output line are the agent's words: on Actions, fenced from the runner.
  const github = detectCi(env).github;
  // The first Ctrl-C (SIGTERM, SIGHUP) ends the gates and git at once; a second kills a gate without its grace.
  const stop = new AbortController();
  const force = new AbortController();
  const got: InterruptSignal[] = [];
  const onSignal = (signal: InterruptSignal) => {
    got.push(signal);
    (got.length === 1 ? stop : force).abort();
  };
  for (const signal of SIGNALS) process.on(signal, onSignal);
  try {
    const run = await integrateLists(root, {
      ...(options.into === undefined ? {} : { into: options.into }),
      env: gateEnvironment(env),
      signal: stop.signal,
      force: force.signal,
      onLine: (line) => stdout.write(github ? fencedFromRunner(line) : `${line}\n`),
    });
    if (run.recordError) stdout.write(`ralph: warning: ${run.recordError}\n`);
    return run.exitCode;
  } catch (error) {
    // Ctrl-C ended a git command of its set-up (the branch, the worktree): nothing was merged.
    if (!(error instanceof GitStopped && error.why === 'interrupt')) throw error;
    stdout.write('ralph integrate: interrupted\n');
    return exitCodeFor({ reason: 'interrupted', signal: got[0] ?? 'SIGINT' });
  } finally {
    for (const signal of SIGNALS) process.off(signal, onSignal);
  }
}

const SIGNALS: readonly InterruptSignal[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];
