import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { lockNow, makeRepo, runRalph } from '../helpers/e2e.js';

const REVIEW_ON = { RALPH_SKIP_REVIEW: '0' };

describe('ralph run: the review cycle', () => {
  it('implements, then reviews each story; the modes show in the CSV and COMPLETE waits for approval', async () => {
    const repo = await makeRepo({ stories: [{ id: 'US-1' }, { id: 'US-2' }] });
    await repo.steps([{ auto: true, completeWhenDone: true }]);
    const result = await runRalph(repo, ['run'], { env: REVIEW_ON });
    expect(result.code).toBe(0);
    expect(
      repo
        .csvRows()
        .slice(1)
        .map((row) => [row[1], row[4]]),
    ).toEqual([
      ['implement', '0'],
      ['review', '1'],
      ['implement', '1'],
      ['review', '2'],
    ]);
    expect(repo.call(2).prompt).toContain('## This iteration: review US-1');
    expect(repo.call(2).prompt).toContain('Review cycle:');
    expect(result.stdout).toMatch(/Stories: +2\/2 complete/);
  });

  it('refuses COMPLETE until every story is approved', async () => {
    const repo = await makeRepo({ stories: [{ id: 'US-1' }] });
    await repo.steps([
      { implement: true, say: '<promise>COMPLETE</promise>' },
      { auto: true, completeWhenDone: true },
    ]);
    const result = await runRalph(repo, ['run'], { env: REVIEW_ON });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('COMPLETE rejected: not approved by review yet: US-1');
    expect(repo.calls()).toBe(2);
  });

  it('sends a story back for a fix and reviews it again', async () => {
    const repo = await makeRepo({ stories: [{ id: 'US-1', passes: true }] });
    await repo.steps([
      { auto: true, verdict: 'request_changes' },
      { auto: true },
      { auto: true, completeWhenDone: true },
    ]);
    const result = await runRalph(repo, ['run'], { env: REVIEW_ON });
    expect(result.code).toBe(0);
    expect(
      repo
        .csvRows()
        .slice(1)
        .map((row) => row[1]),
    ).toEqual(['review', 'review-fix', 'review']);
    expect(repo.call(2).prompt).toContain('## This iteration: fix US-1 after review');
    expect(repo.call(2).prompt).toContain('> Add a test for the empty case.');
  });

  it('stops with exit 2 and blocked.txt when review sends a story back --max-reviews times', async () => {
    const repo = await makeRepo({ stories: [{ id: 'US-1', passes: true }] });
    await repo.steps([{ auto: true, verdict: 'request_changes' }]);
    const result = await runRalph(repo, ['run', '--max-reviews', '2', '--max-stuck', '9'], { env: REVIEW_ON });
    expect(result.code).toBe(2);
    expect(
      repo
        .csvRows()
        .slice(1)
        .map((row) => row[1]),
    ).toEqual(['review', 'review-fix', 'review']);
    expect(repo.read('ralph/blocked.txt')).toContain('Story US-1 was sent back by review 2 times');
    expect(repo.read('ralph/blocked.txt')).toContain('Add a test for the empty case.');
    expect(JSON.parse(repo.read('.git/ralph/state.json')).reviewRejections).toEqual({ 'US-1': 2 });
    expect(repo.lastRun()).toMatchObject({ reason: 'blocked', exitCode: 2 });
  });

  it('turns the cycle off with --skip-review (and RALPH_SKIP_REVIEW, and skipReview in the config)', async () => {
    for (const [args, env, config] of [
      [['--skip-review'], REVIEW_ON, undefined],
      [[], { RALPH_SKIP_REVIEW: '1' }, undefined],
      [[], { RALPH_SKIP_REVIEW: undefined }, { skipReview: true }],
    ] as const) {
      const repo = await makeRepo({ stories: [{ id: 'US-1' }] });
      if (config) await writeFile(join(repo.root, 'ralph/config.json'), JSON.stringify(config));
      await repo.steps([{ implement: true, completeWhenDone: true }]);
      const result = await runRalph(repo, ['run', ...args], { env: { ...env } });
      expect(result.code).toBe(0);
      expect(
        repo
          .csvRows()
          .slice(1)
          .map((row) => row[1]),
      ).toEqual(['implement']);
    }
  });

  it('writes the tasks.json snapshot and the mode into .ralph-active while an iteration runs', async () => {
    const repo = await makeRepo({ stories: [{ id: 'US-1', passes: true }] });
    await repo.steps([{ say: 'reviewing\n', hang: true }]);
    let seen: { active?: Record<string, unknown>; snapshot?: string } = {};
    const result = await runRalph(repo, ['run'], {
      env: REVIEW_ON,
      onStdout: (text, child) => {
        if (seen.active || !text.includes('reviewing')) return;
        seen = {
          active: lockNow(repo.read('ralph/.ralph-active')),
          snapshot: repo.read('.git/ralph/tasks-snapshot.json'),
        };
        child.kill('SIGINT');
      },
    });
    expect(result.code).toBe(130);
    expect(seen.active).toMatchObject({ mode: 'review', story: 'US-1', iteration: 1 });
    expect(seen.snapshot).toBe(repo.read('ralph/tasks.json'));
    const status = repo.git('status', '--porcelain', '--', 'ralph');
    expect(status).not.toContain('.tasks-snapshot.json');
    expect(status).not.toContain('.ralph-active');
  });
});

describe('ralph run: resume attempts', () => {
  it('refuses the fourth unproductive resume with the message, and --reset-resumes lets a human go on', async () => {
    const repo = await makeRepo({ stories: [{ id: 'US-1' }] });
    await repo.steps([{ say: 'no progress\n' }]);
    const run = () => runRalph(repo, ['run', '--max-stuck', '1']);
    expect((await run()).code).toBe(4); // the first run: not a resume
    for (let resume = 1; resume <= 3; resume++) expect((await run()).code).toBe(4);
    expect(JSON.parse(repo.read('.git/ralph/state.json'))).toMatchObject({
      runs: 4,
      resumeAttempts: 3,
      lastReason: 'stuck',
    });
    const calls = repo.calls();

    const refused = await run();
    expect(refused.code).toBe(4);
    expect(refused.stderr).toContain(
      'Maximum resume attempts exceeded (4/3). This task list has been resumed 4 times without completing a story. Consider: (1) splitting the stories smaller, (2) raising --max-resumes, (3) reading ralph/logs/summary.csv and the last iteration logs for the cause.',
    );
    expect(repo.calls()).toBe(calls);
    expect(JSON.parse(repo.read('.git/ralph/state.json'))).toMatchObject({ runs: 4, resumeAttempts: 3 });
    expect(repo.exists('ralph/.ralph-active')).toBe(false);

    const reset = await runRalph(repo, ['run', '--max-stuck', '1', '--reset-resumes']);
    expect(reset.code).toBe(4);
    expect(repo.calls()).toBe(calls + 1);
    expect(JSON.parse(repo.read('.git/ralph/state.json'))).toMatchObject({ resumeAttempts: 0 });
  });

  it('resets the count when a run completes a story', async () => {
    const repo = await makeRepo({ stories: [{ id: 'US-1' }, { id: 'US-2' }, { id: 'US-3' }] });
    await repo.steps([{ say: 'nothing\n' }, { say: 'nothing\n' }, { implement: true }, { say: 'nothing\n' }]);
    const state = async () => {
      await runRalph(repo, ['run', '--max-stuck', '1', '--max-iterations', '1']);
      return JSON.parse(repo.read('.git/ralph/state.json')) as { resumeAttempts: number; lastRunCompleted: number };
    };
    expect((await state()).resumeAttempts).toBe(0); // the first run is no resume
    expect((await state()).resumeAttempts).toBe(1); // after a run that completed nothing
    expect(await state()).toMatchObject({ resumeAttempts: 0, lastRunCompleted: 1 }); // this run completed US-1
    expect((await state()).resumeAttempts).toBe(0); // its predecessor was productive
    expect((await state()).resumeAttempts).toBe(1);
  });

  it('with --max-resumes 0 refuses any unproductive resume', async () => {
    const repo = await makeRepo({ stories: [{ id: 'US-1' }] });
    await repo.steps([{}]);
    expect((await runRalph(repo, ['run', '--max-stuck', '1', '--max-resumes', '0'])).code).toBe(4);
    // The dry run refuses as the run will, and says what --reset-resumes would do.
    const dry = await runRalph(repo, ['run', '--dry-run', '--max-resumes', '0']);
    expect(dry.code).toBe(4);
    expect(dry.stdout).toMatch(/FAILED +resumes +Maximum resume attempts exceeded \(1\/0\)/);
    const reset = await runRalph(repo, ['run', '--dry-run', '--max-resumes', '0', '--reset-resumes']);
    expect(reset.code).toBe(0);
    expect(reset.stdout).toMatch(/ok +resumes +the count of unproductive resumes starts again \(--reset-resumes\)/);
    const refused = await runRalph(repo, ['run', '--max-stuck', '1', '--max-resumes', '0']);
    expect(refused.stderr).toContain('Maximum resume attempts exceeded (1/0)');
    expect(repo.calls()).toBe(1);
  });

  it('lets only one of two simultaneous runs proceed', async () => {
    const repo = await makeRepo({ stories: [{ id: 'US-1' }] });
    await repo.steps([{ implement: true, completeWhenDone: true, sleepMs: 1500 }]);
    const [first, second] = await Promise.all([runRalph(repo, ['run']), runRalph(repo, ['run'])]);
    const codes = [first.code, second.code].sort();
    expect(codes).toEqual([0, 64]);
    expect([first.stderr, second.stderr].join('')).toContain('another ralph run is active in this');
    expect(repo.calls()).toBe(1);
  });
});
