import { detectCi } from '../config/ci-environment.js';
import { findRepoRoot } from '../git/repository.js';
import { integrateLists } from '../integrate/integrate-lists.js';
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
  const stop = new AbortController();
  const onSignal = () => stop.abort();
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  try {
    const run = await integrateLists(root, {
      ...(options.into === undefined ? {} : { into: options.into }),
      env,
      signal: stop.signal,
      onLine: (line) => stdout.write(github ? fencedFromRunner(line) : `${line}\n`),
    });
    if (run.recordError) stdout.write(`ralph: warning: ${run.recordError}\n`);
    return run.exitCode;
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}
