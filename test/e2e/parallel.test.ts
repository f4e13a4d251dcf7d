import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isAlive, makeRepo, runRalph, waitFor, type Repo } from '../helpers/e2e.js';
import { parallelRecord, repoWithLists } from '../helpers/parallel-repo.js';

/** The main checkout as git sees it: HEAD, the status, and every tracked file's content. */
function snapshot(repo: Repo): string {
  return [repo.git('rev-parse', 'HEAD'), repo.git('status', '--porcelain'), repo.git('ls-files', '-s')].join('\n');
}

describe('ralph run --parallel', () => {
  it('runs three lists at once, each in its worktree, leaving the main checkout as it was', async () => {
    const repo = await repoWithLists(['api', 'ui', 'docs'], 2);
    // The agent notes what it inherited: neither the loop's channel (fd 3) nor the variable naming it.
    const inherited = 'ls -l /proc/$$/fd > "$PWD.fds"; echo "channel=${RALPH_PARALLEL_CHANNEL-unset}" >> "$PWD.fds"';
    await repo.steps([{ shell: [inherited], implement: true, completeWhenDone: true }]);
    const before = snapshot(repo);
    const result = await runRalph(repo, ['run', '--parallel', '--max-iterations', '5'], { timeoutMs: 90_000 });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(snapshot(repo)).toBe(before);
    for (const name of ['api', 'ui', 'docs']) {
      // Every line of a loop carries its list's name; its own record is in its worktree.
      expect(result.stdout).toMatch(new RegExp(`^${name} +│ .*Iteration 1`, 'm'));
      const own = JSON.parse(
        readFileSync(join(repo.root, `ralph/worktrees/ralph-${name}/ralph/logs/last-run.json`), 'utf8'),
      );
      expect(own).toMatchObject({ reason: 'complete', stories: { complete: 2, total: 2 } });
      const fds = readFileSync(join(repo.root, `ralph/worktrees/ralph-${name}.fds`), 'utf8');
      expect(fds).toContain('channel=unset');
      expect(fds).not.toMatch(/ 3 -> /);
      expect(repo.git('log', '--oneline', `ralph/${name}`).split('\n').length).toBeGreaterThanOrEqual(3);
    }
    const record = parallelRecord(repo);
    expect(record.exitCode).toBe(0);
    expect(record.loops.map((loop) => [loop.list, loop.outcome.reason])).toEqual([
      ['api', 'complete'],
      ['docs', 'complete'],
      ['ui', 'complete'],
    ]);
    // Each loop's branch was checked against the base and the others, and all merge.
    expect(record.matrix.length).toBeGreaterThanOrEqual(3);
    expect(record.matrix.every((cell) => cell.check.state === 'clean')).toBe(true);
  }, 120_000);

  it('ends with the most urgent ending of its loops, and a list waiting on a failed one never starts', async () => {
    const repo = await repoWithLists(['done', 'stuck', 'later'], 1, { later: { dependsOn: ['stuck'] } });
    // Each loop's agent acts by its worktree: in `stuck` it fails before committing, elsewhere it finishes.
    await repo.steps([
      { shell: ['case "$PWD" in *ralph-stuck) exit 1;; esac'], implement: true, completeWhenDone: true },
    ]);
    const result = await runRalph(repo, ['run', '--parallel', '--max-iterations', '2', '--max-stuck', '1'], {
      timeoutMs: 90_000,
    });
    expect(result.code).toBe(4);
    const record = parallelRecord(repo);
    expect(record.exitCode).toBe(result.code);
    const outcome = (name: string) => record.loops.find((loop) => loop.list === name)?.outcome;
    expect(outcome('done')).toMatchObject({ state: 'ran', reason: 'complete', exitCode: 0 });
    expect(outcome('stuck')).toMatchObject({ state: 'ran', reason: 'stuck', exitCode: 4 });
    expect(outcome('later')).toMatchObject({ state: 'not_started' });
    expect(result.stdout).toContain('later (ralph/later): not started: stuck ended');
  }, 120_000);

  it("starts a list once its dependency ended COMPLETE, from the dependency's branch holding its work", async () => {
    const repo = await repoWithLists(['base', 'next'], 1, { next: { dependsOn: ['base'] } });
    await repo.steps([{ implement: true, completeWhenDone: true }]);
    const result = await runRalph(repo, ['run', '--parallel', '--max-iterations', '3'], { timeoutMs: 90_000 });
    expect(result.code).toBe(0);
    // Every commit of base's loop is on next's branch: it did not start from a stale base.
    expect(() => repo.git('merge-base', '--is-ancestor', 'ralph/base', 'ralph/next')).not.toThrow();
    expect(repo.git('rev-parse', 'ralph/base')).not.toBe(repo.git('rev-parse', 'HEAD'));
    const order = result.stdout.indexOf('base (ralph/base)');
    expect(order).toBeGreaterThan(-1);
    expect(result.stdout.indexOf('base │ ended complete')).toBeLessThan(result.stdout.indexOf('next │ ── Iteration'));
  }, 120_000);

  it('starts a list on two dependencies from their integration, and --integrate merges every COMPLETE list', async () => {
    const repo = await repoWithLists(['api', 'web', 'both'], 1, { both: { dependsOn: ['api', 'web'] } });
    await repo.steps([{ implement: true, completeWhenDone: true }]);
    const result = await runRalph(repo, ['run', '--parallel', '--integrate', '--max-iterations', '3'], {
      timeoutMs: 120_000,
    });
    expect(result.code, result.stdout + result.stderr).toBe(0);
    // Its base held both dependencies' finished work, merged and gated as `ralph integrate` does.
    for (const dependency of ['ralph/api', 'ralph/web']) {
      expect(() => repo.git('merge-base', '--is-ancestor', dependency, 'ralph/integration/for-both')).not.toThrow();
      expect(() => repo.git('merge-base', '--is-ancestor', dependency, 'ralph/both')).not.toThrow();
    }
    const record = JSON.parse(repo.read('ralph/logs/integrate-last-run.json')) as { into: string; merged: string[] };
    expect(record.into).toMatch(/^ralph\/integration\//);
    expect([...record.merged].sort()).toEqual(['api', 'both', 'web']);
    for (const list of ['ralph/api', 'ralph/web', 'ralph/both'])
      expect(() => repo.git('merge-base', '--is-ancestor', list, record.into)).not.toThrow();
  }, 180_000);

  it('on GitHub Actions keeps the runner deaf to every loop: one stop-commands window, no line at column 0', async () => {
    const repo = await repoWithLists(['one', 'two'], 1);
    // The agent tries to issue a workflow command from each loop.
    await repo.steps([{ say: '::error::forged by the agent\n', implement: true, completeWhenDone: true }]);
    const result = await runRalph(repo, ['run', '--parallel'], {
      timeoutMs: 90_000,
      env: { GITHUB_ACTIONS: 'true', CI: 'true' },
    });
    expect(result.code).toBe(0);
    const lines = result.stdout.trimEnd().split('\n');
    const token = /^::stop-commands::(\S+)$/.exec(lines[0]!)?.[1];
    expect(token).toBeDefined();
    expect(lines.at(-1)).toBe(`::${token}::`);
    expect(lines.slice(1, -1).filter((line) => line.trimStart().startsWith('::'))).toEqual([]);
    expect(result.stdout.split(token!).length - 1).toBe(2);
    expect(result.stdout).toMatch(/^one │ .*::error::forged by the agent/m);
  }, 120_000);

  it('--max-total-cost stops every loop once their summed cost reaches it', async () => {
    const repo = await repoWithLists(['p', 'q'], 5);
    // Each call costs $1 and takes a moment: the cap of $3 falls while both loops still have work.
    await repo.steps([{ implement: true, sleepMs: 300, result: { total_cost_usd: 1 } }]);
    const result = await runRalph(repo, ['run', '--parallel', '--max-iterations', '5', '--max-total-cost', '3'], {
      timeoutMs: 90_000,
    });
    expect(result.code).toBe(1);
    const record = parallelRecord(repo);
    expect(record.loops.map((loop) => [loop.outcome.reason, loop.stoppedBy])).toEqual([
      ['max_total_cost', 'max_total_cost'],
      ['max_total_cost', 'max_total_cost'],
    ]);
    // Each loop ends the iteration it is in: at most one call each past the cap.
    expect(repo.calls()).toBeLessThanOrEqual(5);
    expect(result.stdout).toContain('--max-total-cost $3.00 reached');
  }, 120_000);

  it('refuses with 64: no lists (saying how to add one), --jobs 0, an unknown list', async () => {
    const bare = await makeRepo();
    const none = await runRalph(bare, ['run', '--parallel']);
    expect(none.code).toBe(64);
    expect(none.stderr).toContain('--parallel found no task list under ralph/lists/');
    expect(none.stderr).toContain('ralph/lists/<name>.json');
    const repo = await repoWithLists(['api']);
    const zero = await runRalph(repo, ['run', '--parallel', '--jobs', '0']);
    expect(zero.code).toBe(64);
    expect(zero.stderr).toContain('--jobs');
    const unknown = await runRalph(repo, ['run', '--parallel', 'nope']);
    expect(unknown.code).toBe(64);
    expect(unknown.stderr).toContain('no task list ralph/lists/nope.json');
  });

  it('reports a planted conflict while the loops run, and names it in the matrix', async () => {
    const repo = await repoWithLists(['left', 'right'], 2);
    // Both loops add src/routes.ts, each with its own content: their branches cannot both merge.
    await repo.steps([
      { shell: ['mkdir -p src && basename "$PWD" > src/routes.ts'], implement: true, completeWhenDone: true },
    ]);
    const result = await runRalph(repo, ['run', '--parallel', '--max-iterations', '3'], { timeoutMs: 90_000 });
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/(left|right) +│ conflicts with (right|left) in src\/routes\.ts/);
    const cell = parallelRecord(repo).matrix.find((each) => each.ours === 'left' && each.theirs === 'right');
    expect(cell?.check).toEqual({ state: 'conflicts', files: ['src/routes.ts'] });
    expect(result.stdout).toContain('right into left: conflicts in src/routes.ts');
  }, 120_000);

  it("one loop's usage limit stops the others before their next call, without a call each", async () => {
    const repo = await repoWithLists(['a', 'b', 'c'], 3);
    const reset = Math.floor(Date.now() / 1000) + 3600;
    // The first call meets the account's limit; the others are mid-call and finish that iteration.
    await repo.steps([
      { events: [`Claude AI usage limit reached|${reset}`], exit: 1, result: false },
      { implement: true, sleepMs: 1500 },
    ]);
    const result = await runRalph(repo, ['run', '--parallel', '--max-iterations', '5', '--on-usage-limit', 'stop'], {
      timeoutMs: 90_000,
    });
    expect(result.code).toBe(1);
    const record = parallelRecord(repo);
    expect(record.loops.map((loop) => loop.outcome.reason)).toEqual(['usage_limit', 'usage_limit', 'usage_limit']);
    // Without the account's limit each loop would call on until its 3 stories or 5 iterations.
    expect(repo.calls()).toBeLessThanOrEqual(3);
  }, 120_000);

  it('Ctrl-C stops every loop, each ending its agent, and leaves no process behind', async () => {
    const repo = await repoWithLists(['x', 'y'], 1);
    const pids = join(repo.root, 'agents.pid');
    await repo.steps([{ grandchild: pids, hang: true, tickMs: 200 }]);
    let supervisor: number | undefined;
    const result = await runRalph(repo, ['run', '--parallel'], {
      timeoutMs: 60_000,
      onStart: (child) => (supervisor = child.pid),
      onStdout: (text, child) => {
        if ((text.match(/tick/g) ?? []).length >= 4 && !child.killed) child.kill('SIGINT');
      },
    });
    expect(result.code).toBe(130);
    expect(supervisor).toBeDefined();
    const record = parallelRecord(repo);
    expect(record.loops.map((loop) => loop.outcome.reason)).toEqual(['interrupted', 'interrupted']);
    const sleepers = readFileSync(pids, 'utf8').split('\n').filter(Boolean).map(Number);
    expect(sleepers.length).toBeGreaterThanOrEqual(1);
    await waitFor(() => sleepers.every((pid) => !isAlive(pid)));
    // No ralph of this repository is left either.
    const left = execFileSync('ps', ['-eo', 'pid,args'], { encoding: 'utf8' })
      .split('\n')
      .filter((line) => line.includes(repo.root) || line.includes('ralph/lists/x.json'));
    expect(left).toEqual([]);
  }, 90_000);
});
