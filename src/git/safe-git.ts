import { RalphError } from '../errors.js';
import { runCaptured } from '../process/run-captured.js';
import { configMayMention } from './config-text.js';
import { neutralFilter, neutralGitEnv, neutralMergeDriver, type ConfigEntry } from './neutral-config.js';

/** How long one of ralph's git commands may take before it is ended (a stuck lock, a hanging mount). */
export const GIT_TIMEOUT_MS = 60_000;
/**
 * How much of each of git's streams ralph keeps. Far above any answer it asks for (`git status`
 * of a repository of a million files prints ~100 MB only with every path changed), and a git
 * that prints more is stopped and fails rather than answering with part of its output.
 */
export const GIT_MAX_OUTPUT_BYTES = 64 * 1024 * 1024;

/** What one git command answered: its exit code is an answer too (1: not an ancestor, no match). */
export interface GitResult {
  command: string;
  exitCode: number | undefined;
  stdout: string;
  stderr: string;
}

/** A git command ralph ended itself: it took too long, printed too much, or the run's interrupt came. */
export class GitStopped extends Error {
  constructor(
    readonly why: 'timeout' | 'interrupt' | 'output',
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
 * is ended with it. Resolves with the exit code as an answer; throws GitStopped when ralph ended it,
 * for one of those or for printing more than GIT_MAX_OUTPUT_BYTES on a stream.
 */
export async function runGit(root: string, args: readonly string[], options: GitOptions = {}): Promise<GitResult> {
  const command = ['git', ...args].join(' ');
  if (options.signal?.aborted) throw new GitStopped('interrupt', command);
  const extra = [
    ...(options.filters ? await filterDrivers(root, options) : []),
    ...(options.mergeDrivers ? await mergeDrivers(root, options) : []),
  ];
  const result = await runCaptured('git', args, {
    cwd: root,
    ...(options.input === undefined ? {} : { input: options.input }),
    // git is let finish when ralph exits: ended, it would leave its index.lock behind.
    finishOnExit: true,
    env: { ...neutralGitEnv(process.env, extra), ...options.env },
    maxBytes: GIT_MAX_OUTPUT_BYTES,
    timeoutMs: options.timeoutMs ?? GIT_TIMEOUT_MS,
    ...(options.signal ? { signal: options.signal } : {}),
  });
  if (result.stopped) throw new GitStopped(STOPPED_WHY[result.stopped], command);
  // As execa gave them to the callers: `rev-parse HEAD` is the hash, without its newline.
  return {
    command,
    exitCode: result.exitCode,
    stdout: stripFinalNewline(result.stdout),
    stderr: stripFinalNewline(result.stderr),
  };
}

const STOPPED_WHY = { timeout: 'timeout', abort: 'interrupt', overflow: 'output' } as const;

function stripFinalNewline(text: string): string {
  return text.endsWith('\n') ? text.slice(0, text.endsWith('\r\n') ? -2 : -1) : text;
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

/**
 * A git command whose exit code is its answer (1: not an ancestor, a refused switch); one ralph ended
 * (a timeout, the interrupt, too much output) or that could not start is a one-line set-up error.
 */
export function gitAnswer(root: string, args: readonly string[], options: GitOptions = {}): Promise<GitResult> {
  return runGit(root, args, options).catch((error: unknown) => {
    throw gitFailure(error, args);
  });
}

/**
 * The sentence git gave for a refusal: its `error:` or `fatal:` line (else its first), and the files
 * it lists below it (the ones in the way), a few named on the same line.
 */
export function gitRefusal(stderr: string): string {
  const lines = stderr.split('\n');
  const at = lines.findIndex((line) => /^(error|fatal):/.test(line.trim()));
  const first = at === -1 ? lines.findIndex((line) => line.trim() !== '') : at;
  const said =
    (lines[first] ?? '')
      .trim()
      .replace(/^(error|fatal):\s*/, '')
      .replace(/:$/, '') || 'git refused';
  const files = lines
    .slice(first + 1)
    .filter((line) => /^\t\S/.test(line))
    .map((line) => line.trim());
  return files.length === 0 ? said : `${said}: ${fewNamed(files)}`;
}

/** A few paths named, the rest counted: a line, not a listing. */
export function fewNamed(paths: readonly string[]): string {
  const shown = paths.slice(0, 5).join(', ');
  return paths.length > 5 ? `${shown} and ${paths.length - 5} more` : shown;
}

/** A git command that failed, was ended for taking too long or by the interrupt, as the one-line set-up error it is. */
export function gitFailure(failure: unknown, args: readonly string[]): RalphError {
  const why =
    failure instanceof GitStopped
      ? failure.why === 'timeout'
        ? `no answer within ${GIT_TIMEOUT_MS / 1000} s, so it was stopped`
        : failure.why === 'output'
          ? `it printed more than ${GIT_MAX_OUTPUT_BYTES / 1024 / 1024} MiB, so it was stopped`
          : 'stopped by the interrupt'
      : isResult(failure)
        ? failure.stderr.split('\n')[0] || `exit ${failure.exitCode ?? 'unknown'}`
        : ((failure as Error).message.split('\n')[0] ?? 'git failed');
  const fix =
    failure instanceof GitStopped && failure.why === 'output'
      ? 'look for what made it so large (`git status` listing a flood of untracked files, a huge file)'
      : failure instanceof GitStopped && failure.why === 'timeout'
        ? // git waits on a FIFO the agent put in .git/ (objects/info/alternates) until its timeout: name that too.
          'check the repository with `git status` (a stale .git/index.lock, a hanging hook, a FIFO the agent put in .git/: `find .git -type p`)'
        : 'check the repository with `git status` (a stale .git/index.lock, a hanging hook)';
  return new RalphError('setup', `git ${args[0] ?? ''} failed: ${why}`, fix, { cause: failure });
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
  if (!(await configMayMention(root, section))) return [];
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
