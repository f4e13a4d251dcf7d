import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { liveLock, makeProject, makeRepo, PACKAGE_ROOT, runRalph } from '../helpers/e2e.js';

/** `ralph status --json`, parsed. */
async function statusJson(repo: Awaited<ReturnType<typeof makeProject>>): Promise<Record<string, any>> {
  const result = await runRalph(repo, ['status', '--json']);
  expect(result.code).toBe(0);
  return JSON.parse(result.stdout) as Record<string, any>;
}

describe('ralph status: a fresh project', () => {
  it('after ralph init: no stories done, the first one next, no loop, no run, no iterations', async () => {
    const repo = await makeProject({ git: 'committed' });
    await runRalph(repo, ['init']);
    const text = await runRalph(repo, ['status']);
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/Stories +\[░{20}\] 0\/2 complete/);
    expect(text.stdout).toMatch(/Next +US-001 +Add a health check endpoint/);
    expect(text.stdout).toMatch(/Loop +not running/);
    expect(text.stdout).toMatch(/Last run +none yet/);
    expect(text.stdout).toContain('Iterations: none yet');
    expect(repo.calls()).toBe(0);

    expect(await statusJson(repo)).toEqual({
      root: repo.root,
      branch: { current: repo.git('rev-parse', '--abbrev-ref', 'HEAD'), tasks: 'ralph/first-feature' },
      tasks: {
        state: 'ok',
        project: 'my-project',
        branchName: 'ralph/first-feature',
        complete: 0,
        total: 2,
        next: { id: 'US-001', title: 'Add a health check endpoint', priority: 1 },
      },
      loop: { running: false },
      blocked: null,
      decide: null,
      lastRun: null,
      killed: null,
      recentIterations: [],
      forecast: {
        state: 'unmeasured',
        storiesLeft: 2,
        note: 'no measure yet: no story has been completed in any run of this task list',
        windows: [],
      },
    });
  });

  it('before ralph init: says there is no task list, without an error', async () => {
    const repo = await makeProject({ git: 'unborn' });
    const text = await runRalph(repo, ['status']);
    expect(text.code).toBe(0);
    expect(text.stderr).toBe('');
    expect(text.stdout).toContain('no ralph/tasks.json yet');
    expect((await statusJson(repo)).tasks).toEqual({ state: 'missing' });
  });

  it('reports an invalid tasks.json in the status instead of failing', async () => {
    const repo = await makeRepo({ tasksText: '{"stories": [{"id": "A", "passes": "yes"}]}' });
    const text = await runRalph(repo, ['status']);
    expect(text.code).toBe(0);
    expect(text.stdout).toMatch(/Stories +ralph\/tasks\.json is not a valid task list: stories\[0\]\.passes/);
    expect((await statusJson(repo)).tasks).toMatchObject({
      state: 'invalid',
      error: expect.stringContaining('stories[0].passes'),
    });
  });

  it('exits 64 outside a git repository', async () => {
    const project = await makeProject({ git: 'none' });
    const result = await runRalph(project, ['status']);
    expect(result.code).toBe(64);
    expect(result.stderr).toContain('git init');
  });
});

describe('ralph status: a finished project', () => {
  it('shows every story done, the last run, and each iteration with its short commit', async () => {
    const repo = await makeRepo();
    await repo.steps([{ implement: true, completeWhenDone: true }]);
    expect((await runRalph(repo, ['run'])).code).toBe(0);
    const commits = repo.git('log', '--format=%H', '-2').split('\n').reverse();

    const text = await runRalph(repo, ['status']);
    expect(text.code).toBe(0);
    expect(repo.calls()).toBe(2);
    expect(text.stdout).toMatch(/Stories +\[█{20}\] 2\/2 complete \(e2e\)/);
    expect(text.stdout).toMatch(/Next +none: every story passes/);
    expect(text.stdout).toMatch(/Last run +COMPLETE \(code 0\) · 2 iterations/);
    expect(text.stdout).toContain('Last 2 iterations (ralph/logs/summary.csv):');
    expect(text.stdout).toMatch(/iter +mode +story +duration +commit +outcome/);
    expect(text.stdout).toMatch(new RegExp(` 1 +implement +US-1 +\\d+s +${commits[0]!.slice(0, 7)} +ok\\n`));
    expect(text.stdout).toMatch(new RegExp(` 2 +implement +US-2 +\\d+s +${commits[1]!.slice(0, 7)} +ok\\n`));
    expect(text.stdout).toContain('forecast: no story left');

    const json = await statusJson(repo);
    expect(json.tasks).toMatchObject({ state: 'ok', complete: 2, total: 2, next: null });
    expect(json.lastRun).toMatchObject({
      state: 'ok',
      reason: 'complete',
      exitCode: 0,
      iterations: 2,
      stories: { complete: 2, total: 2 },
    });
    expect(json.recentIterations).toEqual([
      {
        iteration: 1,
        mode: 'implement',
        durationSeconds: expect.any(Number),
        commit: commits[0],
        outcome: 'ok',
        story: 'US-1',
      },
      {
        iteration: 2,
        mode: 'implement',
        durationSeconds: expect.any(Number),
        commit: commits[1],
        outcome: 'ok',
        story: 'US-2',
      },
    ]);
    expect(json.forecast).toEqual({ state: 'done', storiesLeft: 0 });
  });
});

describe('ralph status: what it loads', () => {
  it('checks the task list and the last run without loading the code of a run', async () => {
    const repo = await makeRepo();
    await repo.steps([{ implement: true, completeWhenDone: true }]);
    expect((await runRalph(repo, ['run'])).code).toBe(0);
    // The files of ralph's bundle this status loaded, as Node's module cache holds them at exit.
    const folder = await mkdtemp(join(tmpdir(), 'ralph-loaded-'));
    const hook = join(folder, 'hook.cjs');
    const loaded = join(folder, 'loaded.json');
    await writeFile(
      hook,
      `process.on('exit', () => require('node:fs').writeFileSync(${JSON.stringify(loaded)}, JSON.stringify(Object.keys(require.cache))));\n`,
    );
    // Without RALPH_SKIP_REVIEW: the usual status, whose review policy needs no configuration schema.
    const text = await runRalph(repo, ['status'], {
      env: { NODE_OPTIONS: `--require ${hook}`, RALPH_SKIP_REVIEW: undefined },
    });
    expect(text.stdout).toMatch(/Last run +COMPLETE/);
    const chunks = (JSON.parse(await readFile(loaded, 'utf8')) as string[]).filter((file) =>
      file.startsWith(join(PACKAGE_ROOT, 'dist')),
    );
    const code = (await Promise.all(chunks.map((file) => readFile(file, 'utf8')))).join('\n');
    // The schemas were checked (the bundle keeps each module's name as a comment before its code)…
    expect(code).toContain('// dist/files/tasks.js');
    expect(code).toContain('// dist/files/last-run-schema.js');
    // …and nothing of a run came with them.
    expect(code).not.toContain('// dist/commands/run.js');
    expect(code).not.toContain('// dist/run-lifecycle/');
    await rm(folder, { recursive: true });
  });
});

describe('ralph status: what needs attention', () => {
  it('shows a running loop, a blocked reason and a pending question', async () => {
    const repo = await makeRepo();
    const startedAt = new Date(Date.now() - 125_000).toISOString();
    const active = liveLock({ startedAt, iteration: 4, maxIterations: 10, stuckCount: 1 });
    await writeFile(join(repo.root, 'ralph/.ralph-active'), JSON.stringify(active));
    await repo.write(
      'ralph/blocked.txt',
      '## Blocked (from iteration 3, 2026-01-01T00:00:00Z)\nthe staging API key is missing\n',
    );
    await repo.write(
      'ralph/decide.txt',
      '## Question (from iteration 2, 2026-01-01T00:00:00Z)\nWebSockets or polling?\n\n---\n## Answer\n',
    );

    const text = await runRalph(repo, ['status']);
    expect(text.stdout).toMatch(
      new RegExp(`Loop +running · pid ${process.pid} · iteration 4 \\(at most 10 this run\\) · 2m \\d+s elapsed`),
    );
    expect(text.stdout).toMatch(
      /Blocked +the staging API key is missing — resolve it, then ralph answer "<what you did>"/,
    );
    expect(text.stdout).toMatch(/Decision +WebSockets or polling\? — waiting for your answer/);

    const json = await statusJson(repo);
    expect(json.loop).toMatchObject({ running: true, pid: process.pid, iteration: 4, maxIterations: 10, startedAt });
    expect(json.blocked).toEqual({ reason: 'the staging API key is missing' });
    expect(json.decide).toEqual({ question: 'WebSockets or polling?', answered: false });
  });

  it('says not running when .ralph-active was left by a process that is gone', async () => {
    const repo = await makeRepo();
    await repo.write(
      'ralph/.ralph-active',
      JSON.stringify({
        pid: 2 ** 22 + 1,
        startedAt: new Date().toISOString(),
        iteration: 1,
        maxIterations: 1,
        stuckCount: 0,
        mode: 'implement',
      }),
    );
    expect((await statusJson(repo)).loop).toEqual({ running: false });
  });

  it('says not running when the pid in .ralph-active is alive but is another process, or the lock is from an older ralph', async () => {
    const repo = await makeRepo();
    await repo.write('ralph/.ralph-active', JSON.stringify(liveLock({ startTime: '1@another-boot' })));
    expect((await statusJson(repo)).loop).toEqual({ running: false });
    const { startTime: _omitted, host: _host, marker: _marker, ...older } = liveLock();
    await repo.write('ralph/.ralph-active', JSON.stringify(older));
    expect((await statusJson(repo)).loop).toEqual({ running: false });
  });

  it('shows only the last rows of a long summary.csv, with an outcome column when the file has one', async () => {
    const repo = await makeRepo();
    const header =
      'iteration,mode,duration_seconds,commit_hash,stories_complete,stories_total,stuck_count,timestamp,outcome';
    const rows = Array.from({ length: 5000 }, (_, index) => {
      const iteration = index + 1;
      return `${iteration},implement,${iteration % 60},${iteration % 2 ? 'abcdef0123456789' : ''},0,2,0,2026-01-01T00:00:00Z,${iteration % 2 ? 'committed' : 'no-commit'}`;
    });
    await mkdir(join(repo.root, 'ralph/logs'));
    await writeFile(join(repo.root, 'ralph/logs/summary.csv'), `${header}\n${rows.join('\n')}\n`);

    const text = await runRalph(repo, ['status']);
    expect(text.stdout).toContain('Last 10 iterations');
    expect(text.stdout).toMatch(/5000 +implement +- +20s +- +no-commit\n/);
    expect(text.stdout).toMatch(/4999 +implement +- +19s +abcdef0 +committed\n/);
    expect(text.stdout).not.toMatch(/\n +4990 /);

    const json = await statusJson(repo);
    expect(json.recentIterations).toHaveLength(10);
    expect(json.recentIterations[0]).toMatchObject({ iteration: 4991 });
    expect(json.recentIterations[9]).toEqual({
      iteration: 5000,
      mode: 'implement',
      durationSeconds: 20,
      commit: null,
      outcome: 'no-commit',
      story: null,
    });
  });
});
