import { RalphError } from '../errors.js';
import { signalGroup } from '../process/process-group.js';
import { neutralFilter, neutralGitEnv, neutralMergeDriver, type ConfigEntry } from './neutral-config.js';

/** How long one of ralph's git commands may take before it is ended (a stuck lock, a hanging mount). */
export const GIT_TIMEOUT_MS = 60_000;

/** What one git command answered: its exit code is an answer too (1: not an ancestor, no match). */
export interface GitResult {
  command: string;
  exitCode: number | undefined;
  stdout: string;
  stderr: string;
}

/** A git command ralph ended itself: it took too long, or the run's interrupt came. */
export class GitStopped extends Error {
  constructor(
    readonly why: 'timeout' | 'interrupt',
    command: string,
  ) {
    super(`${command}: ${why}`);
    this.name = 'GitStopped';
  }
}

export interface GitOptions {
  signal?: AbortSignal;
  timeoutMs?: number;
  /** Also switch off the filter drivers the configuration names (commands that read or write file content). */
  filters?: boolean;
  /** Also replace the merge drivers the configuration names (commands that merge file content). */
  mergeDrivers?: boolean;
  /** What git reads on its standard input (`cat-file --batch-check`); nothing when absent. */
  input?: string;
  /** Variables of ralph's own for this command (GIT_INDEX_FILE for a scratch index). */
  env?: Readonly<Record<string, string>>;
}

/**
 * The one way ralph runs git: with the repository's executable configuration switched off
 * (neutral-config.ts), in a process group of its own that is ended as soon as git exits, when it
 * takes longer than the timeout, or when `signal` aborts — whatever git or a hook left in the group
 * is ended with it. Resolves with the exit code as an answer; throws GitStopped when ralph ended it.
 */
export async function runGit(root: string, args: readonly string[], options: GitOptions = {}): Promise<GitResult> {
  const command = ['git', ...args].join(' ');
  if (options.signal?.aborted) throw new GitStopped('interrupt', command);
  const extra = [
    ...(options.filters ? await filterDrivers(root, options) : []),
    ...(options.mergeDrivers ? await mergeDrivers(root, options) : []),
  ];
  // Loaded on the first git command: `ralph status` and the usual iteration start none.
  const { execa } = await import('execa');
  if (options.signal?.aborted) throw new GitStopped('interrupt', command);
  const child = execa('git', args, {
    cwd: root,
    reject: false,
    ...(options.input === undefined ? { stdin: 'ignore' as const } : { input: options.input }),
    detached: true,
    extendEnv: false,
    env: { ...neutralGitEnv(process.env, extra), ...options.env },
  });
  const pid = child.pid;
  let stopped: GitStopped['why'] | undefined;
  const end = (why?: GitStopped['why']) => {
    stopped ??= why;
    if (pid !== undefined) signalGroup(pid, 'SIGKILL');
    // A process that left the group may still hold git's pipes: stop waiting for them.
    if (why) for (const stream of [child.stdout, child.stderr]) stream?.destroy();
  };
  const timer = setTimeout(() => end('timeout'), options.timeoutMs ?? GIT_TIMEOUT_MS);
  const onAbort = () => end('interrupt');
  options.signal?.addEventListener('abort', onAbort, { once: true });
  // git is done: anything of its group still running (a hook's daemon holding the pipes) goes too.
  child.once('exit', () => end());
  try {
    const result = await child;
    if (stopped) throw new GitStopped(stopped, command);
    return { command, exitCode: result.exitCode, stdout: result.stdout, stderr: result.stderr };
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener('abort', onAbort);
  }
}

/** Runs git and returns what it printed; any failure, a timeout or an interrupt is a one-line set-up error. */
export async function gitOutput(
  root: string,
  args: readonly string[],
  options: GitOptions | AbortSignal = {},
): Promise<string> {
  const result = await runGit(root, args, options instanceof AbortSignal ? { signal: options } : options).catch(
    (error: unknown) => {
      throw gitFailure(error, args);
    },
  );
  if (result.exitCode !== 0) throw gitFailure(result, args);
  return result.stdout;
}

/** A git command that failed, was ended for taking too long or by the interrupt, as the one-line set-up error it is. */
export function gitFailure(failure: unknown, args: readonly string[]): RalphError {
  const why =
    failure instanceof GitStopped
      ? failure.why === 'timeout'
        ? `no answer within ${GIT_TIMEOUT_MS / 1000} s, so it was stopped`
        : 'stopped by the interrupt'
      : isResult(failure)
        ? failure.stderr.split('\n')[0] || `exit ${failure.exitCode ?? 'unknown'}`
        : ((failure as Error).message.split('\n')[0] ?? 'git failed');
  return new RalphError(
    'setup',
    `git ${args[0] ?? ''} failed: ${why}`,
    'check the repository with `git status` (a stale .git/index.lock, a hanging hook)',
    { cause: failure },
  );
}

/** Whether a failure is a git command the run's interrupt stopped (and so no refusal of its own). */
export function stoppedByInterrupt(error: unknown): boolean {
  const cause = error instanceof RalphError ? error.cause : error;
  return cause instanceof GitStopped && cause.why === 'interrupt';
}

function isResult(value: unknown): value is GitResult {
  return typeof value === 'object' && value !== null && 'stderr' in value && 'exitCode' in value;
}

/**
 * Every filter driver the configuration defines (any scope), switched off: `.gitattributes` may
 * name one for any file, and `git status` and `git switch` would run its clean or smudge program.
 */
async function filterDrivers(root: string, options: GitOptions): Promise<ConfigEntry[]> {
  return (await configuredDrivers(root, 'filter', options)).flatMap(neutralFilter);
}

/** Every merge driver the configuration defines (any scope), replaced: `.gitattributes` may name one for any file. */
async function mergeDrivers(root: string, options: GitOptions): Promise<ConfigEntry[]> {
  return (await configuredDrivers(root, 'merge', options)).flatMap(neutralMergeDriver);
}

/** The names of the `<section>.<name>.*` entries in the configuration. */
async function configuredDrivers(root: string, section: 'filter' | 'merge', options: GitOptions): Promise<string[]> {
  const { signal, timeoutMs } = options;
  const listed = await runGit(root, ['config', '--null', '--name-only', '--get-regexp', `^${section}\\.`], {
    ...(signal ? { signal } : {}),
    ...(timeoutMs ? { timeoutMs } : {}),
  });
  // Exit 1: no such entry.
  const names = listed.exitCode === 0 ? listed.stdout.split('\0').filter(Boolean) : [];
  const drivers = new Set(names.map((name) => name.slice(section.length + 1, name.lastIndexOf('.'))).filter(Boolean));
  return [...drivers];
}
