import { GitPluginError, simpleGit, type SimpleGit } from 'simple-git';
import { RalphError } from '../errors.js';

/** How long a git command may go silent before it is killed (a stuck lock, a hanging hook or mount). */
export const GIT_TIMEOUT_MS = 60_000;

/**
 * simple-git for one repository, never waited on forever: a git command silent for
 * GIT_TIMEOUT_MS is killed, and so is one running when `signal` aborts (the run's Ctrl-C or SIGTERM).
 */
export function boundedGit(root: string, signal?: AbortSignal): SimpleGit {
  return simpleGit({ baseDir: root, timeout: { block: GIT_TIMEOUT_MS }, ...(signal ? { abort: signal } : {}) });
}

/** Runs `git <args>` through boundedGit; a failure, a timeout or an interrupt is a one-line set-up error. */
export async function gitOutput(root: string, args: string[], signal?: AbortSignal): Promise<string> {
  try {
    return await boundedGit(root, signal).raw(args);
  } catch (error) {
    throw gitFailure(error, args);
  }
}

/** A git command that failed, went silent too long or was interrupted, as the one-line set-up error it is. */
export function gitFailure(error: unknown, args: string[]): RalphError {
  const plugin = error instanceof GitPluginError ? error.plugin : undefined;
  const why =
    plugin === 'timeout'
      ? `no answer within ${GIT_TIMEOUT_MS / 1000} s, so it was stopped`
      : plugin === 'abort'
        ? 'stopped by the interrupt'
        : ((error as Error).message.split('\n')[0] ?? 'git failed');
  return new RalphError(
    'setup',
    `git ${args[0] ?? ''} failed: ${why}`,
    'check the repository with `git status` (a stale .git/index.lock, a hanging hook)',
    { cause: error },
  );
}

/** Whether a failure is a git command the run's interrupt stopped (and so no refusal of its own). */
export function stoppedByInterrupt(error: unknown): boolean {
  const cause = error instanceof RalphError ? error.cause : error;
  return cause instanceof GitPluginError && cause.plugin === 'abort';
}
