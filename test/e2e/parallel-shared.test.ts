import { readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runRalph, type Repo } from '../helpers/e2e.js';
import { parallelRecord, repoWithLists } from '../helpers/parallel-repo.js';

/** Every call the fake agent got: when (its record's write), from which loop (its worktree), in order. */
function agentCalls(repo: Repo): { at: number; loop: string; call: number }[] {
  const dir = dirname(repo.script);
  const prefix = `${basename(repo.script)}.call-`;
  return readdirSync(dir)
    .filter((name) => name.startsWith(prefix))
    .map((name) => {
      const path = join(dir, name);
      const record = JSON.parse(readFileSync(path, 'utf8')) as { call: number; cwd: string };
      return { at: statSync(path).mtimeMs, loop: basename(record.cwd), call: record.call };
    })
    .sort((a, b) => a.at - b.at);
}

/** The reset, in epoch seconds, that the limited loop's first call announced (its raw log keeps it). */
function announcedReset(repo: Repo, loop: string): number {
  const raw = readFileSync(join(repo.root, 'ralph/worktrees', loop, 'ralph/logs/iteration-001.jsonl'), 'utf8');
  return Number(/usage limit reached\|(\d+)/.exec(raw)?.[1]);
}

describe('ralph run --parallel: the account is shared', () => {
  it('with --on-usage-limit wait, every loop waits for the reset one met, with no call of its own, then all go on', async () => {
    const repo = await repoWithLists(['a', 'b'], 3);
    // The first call meets the limit, its reset 52 s before the call: with the minute ralph adds, the
    // wait ends 8 s after the call, however long the run took to get there. The other loop is
    // mid-call and finishes that iteration first.
    await repo.steps([
      { eventAtCall: { text: 'Claude AI usage limit reached|{epoch}', inSeconds: -52 }, exit: 1, result: false },
      { implement: true, sleepMs: 1500, completeWhenDone: true },
    ]);
    const result = await runRalph(repo, ['run', '--parallel', '--max-iterations', '8', '--on-usage-limit', 'wait'], {
      timeoutMs: 90_000,
    });
    expect(result.code, result.stdout + result.stderr).toBe(0);
    expect(result.stdout).toMatch(/^(a|b) +│ usage limit until .*: every loop waits for it/m);
    const calls = agentCalls(repo);
    const limited = calls.find((each) => each.call === 1)!;
    const other = limited.loop === 'ralph-a' ? 'ralph-b' : 'ralph-a';
    const until = announcedReset(repo, limited.loop) * 1000 + 60_000;
    // Before the reset: the limit's call and at most the one call the other loop had under way
    // when the limit was met (a loop that starts later hears of it before its first call).
    const before = calls.filter((each) => each.at < until);
    expect(before.filter((each) => each.loop === limited.loop)).toEqual([limited]);
    expect(before.filter((each) => each.loop === other).length).toBeLessThanOrEqual(1);
    // After it both loops called on and finished their three stories.
    const after = calls.filter((each) => each.at >= until);
    expect(after.some((each) => each.loop === limited.loop)).toBe(true);
    expect(after.some((each) => each.loop === other)).toBe(true);
    const record = parallelRecord(repo);
    expect(record.loops.map((loop) => [loop.list, loop.outcome.reason])).toEqual([
      ['a', 'complete'],
      ['b', 'complete'],
    ]);
    // The other loop spent no iteration on the limit: one row per story.
    const otherLog = readFileSync(join(repo.root, 'ralph/worktrees', other, 'ralph/logs/summary.csv'), 'utf8');
    expect(otherLog.trim().split('\n').length - 1).toBe(3);
  }, 120_000);
});

describe('ralph run --parallel: two loops edit the same line', () => {
  /** Two lists of three stories whose every iteration writes its own name over the one line of src/routes.ts. */
  async function sameLine(): Promise<Repo> {
    const repo = await repoWithLists(['left', 'right'], 3, {}, { 'src/routes.ts': 'original\n' });
    await repo.steps([
      {
        shell: ['basename "$PWD" > src/routes.ts'],
        implement: true,
        sleepMs: 300,
        completeWhenDone: true,
      },
    ]);
    return repo;
  }

  it('--on-conflict stop-later stops the loop whose commit made the conflict (merge_conflict, 4); the other ends', async () => {
    const repo = await sameLine();
    const result = await runRalph(repo, ['run', '--parallel', '--max-iterations', '5', '--on-conflict', 'stop-later'], {
      timeoutMs: 90_000,
    });
    expect(result.code, result.stdout + result.stderr).toBe(4);
    const record = parallelRecord(repo);
    expect(record.exitCode).toBe(4);
    const stopped = record.loops.filter((loop) => loop.stoppedBy === 'merge_conflict');
    expect(stopped).toHaveLength(1);
    expect(stopped[0]?.outcome).toEqual({ state: 'ran', exitCode: 4, reason: 'merge_conflict' });
    const other = record.loops.find((loop) => loop !== stopped[0]);
    expect(other?.outcome).toMatchObject({ state: 'ran', exitCode: 0, reason: 'complete' });
    expect(record.matrix.find((cell) => cell.ours === 'left' && cell.theirs === 'right')?.check).toEqual({
      state: 'conflicts',
      files: ['src/routes.ts'],
    });
    expect(result.stdout).toMatch(
      new RegExp(`^${stopped[0]?.list} +│ stopping: its last commit conflicts with another loop`, 'm'),
    );
    expect(result.stdout).toContain('right into left: conflicts in src/routes.ts');
  }, 120_000);

  it('by default (report) says the conflict while they run, and both loops go on to their ending', async () => {
    const repo = await sameLine();
    const result = await runRalph(repo, ['run', '--parallel', '--max-iterations', '5'], { timeoutMs: 90_000 });
    expect(result.code, result.stdout + result.stderr).toBe(0);
    expect(result.stdout).toMatch(/(left|right) +│ conflicts with (right|left) in src\/routes\.ts/);
    const record = parallelRecord(repo);
    expect(record.loops.map((loop) => [loop.list, loop.outcome.reason, loop.stoppedBy])).toEqual([
      ['left', 'complete', undefined],
      ['right', 'complete', undefined],
    ]);
    expect(record.matrix.find((cell) => cell.ours === 'left' && cell.theirs === 'right')?.check).toEqual({
      state: 'conflicts',
      files: ['src/routes.ts'],
    });
  }, 120_000);
});
