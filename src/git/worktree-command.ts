import { setTimeout as sleep } from 'node:timers/promises';
import { RalphError } from '../errors.js';
import { gitAnswer, gitFailure, type GitOptions, type GitResult } from './safe-git.js';

/**
 * `git worktree …` as ralph runs it. git reads every worktree's record before it lists the
 * worktrees, adds or removes one, and dies on a record that another git is still writing:
 * `fatal: failed to read .git/worktrees/<id>/commondir: Success` (git creates the file, then
 * writes it). The loops of `ralph run --parallel`, and its supervisor, add worktrees at the same
 * moment, so such a command is asked again, a few times: git dies before it changes anything.
 * git speaks English here (LC_ALL=C), so that its words can be recognised in any locale.
 */
export async function worktreeGit(root: string, args: readonly string[], options: GitOptions = {}): Promise<GitResult> {
  const command = ['worktree', ...args];
  return await despiteHalfWrittenRecords(() =>
    gitAnswer(root, command, { ...options, env: { ...options.env, LC_ALL: 'C' } }),
  );
}

/**
 * The same, for a command whose output is the answer: any failure is a one-line set-up error, and a
 * record that stays unreadable (a real fault, or one the agent left) is named in the fix.
 */
export async function worktreeOutput(root: string, args: readonly string[], options: GitOptions = {}): Promise<string> {
  const result = await worktreeGit(root, args, options);
  if (result.exitCode === 0) return result.stdout;
  const record = HALF_WRITTEN_RECORD.exec(result.stderr)?.[1];
  if (record === undefined) throw gitFailure(result, ['worktree', ...args]);
  throw new RalphError(
    'setup',
    `git worktree failed: git cannot read the worktree record ${record}`,
    `if no worktree uses it, remove the folder ${record} (it holds git's notes on one worktree, no work)`,
  );
}

/** Asks again while git names a half-written record; exported for its test. */
export async function despiteHalfWrittenRecords(
  ask: () => Promise<GitResult>,
  wait: (ms: number) => Promise<unknown> = sleep,
): Promise<GitResult> {
  for (let attempt = 1; ; attempt++) {
    const result = await ask();
    if (result.exitCode === 0 || attempt === RECORD_ATTEMPTS || !HALF_WRITTEN_RECORD.test(result.stderr)) return result;
    await wait(RECORD_RETRY_MS * attempt);
  }
}

/** setup.c's only message of this kind; the path is absolute from a linked worktree, and may hold spaces. */
const HALF_WRITTEN_RECORD = /failed to read (.*worktrees\/[^/\n]+)\/commondir\b/;
/** Some 300 ms in all: a record is written within microseconds, even on a loaded machine. */
const RECORD_ATTEMPTS = 6;
const RECORD_RETRY_MS = 20;
