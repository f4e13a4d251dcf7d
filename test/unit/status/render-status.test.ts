import { describe, expect, it } from 'vitest';
import type { StatusReport } from '../../../src/status/read-status.js';
import { progressBar, renderStatus as renderColoured } from '../../../src/status/render-status.js';

/** The text without colour codes: picocolors colours in CI, and these tests run there too. */
const renderStatus = (report: StatusReport) => renderColoured(report).replace(/\u001b\[\d+m/g, '');

const base: StatusReport = {
  root: '/repo',
  branch: { current: 'main', tasks: null },
  tasks: {
    state: 'ok',
    project: null,
    branchName: null,
    complete: 1,
    total: 4,
    next: { id: 'US-2', title: 'Second', priority: 2 },
  },
  loop: { running: false },
  blocked: null,
  decide: null,
  lastRun: null,
  killed: null,
  recentIterations: [],
  forecast: null,
};

describe('progressBar', () => {
  it.each([
    [0, 4, '[░░░░░░░░] 0/4'],
    [1, 4, '[██░░░░░░] 1/4'],
    [4, 4, '[████████] 4/4'],
    [0, 0, '[░░░░░░░░] 0/0'],
  ])('%i of %i', (complete, total, bar) => {
    expect(progressBar(complete, total, 8)).toBe(bar);
  });
});

/** A loop running its second iteration of at most five, as an older ralph's lock describes it. */
const running = {
  running: true as const,
  pid: 7,
  iteration: 2,
  maxIterations: 5,
  stuckCount: 0,
  mode: 'implement',
  startedAt: '2026-01-01T00:00:00Z',
  elapsedSeconds: 60,
};

describe('renderStatus', () => {
  it('shows the latest utilization per usage window of a running loop', () => {
    const loop = running;
    expect(renderStatus({ ...base, loop: { ...loop, usage: [{ window: 'five_hour', utilization: 0.92 }] } })).toMatch(
      /running · pid 7 · .* elapsed · usage five_hour 92%\n/,
    );
    expect(renderStatus({ ...base, loop })).not.toContain('usage');
  });

  it("shows a resumed run's iteration by its number and its place in this run, as the run's header does", () => {
    const loop = { ...running, iteration: 3, thisRun: 1, maxIterations: 3 };
    expect(renderStatus({ ...base, loop })).toContain('pid 7 · iteration 3 (1/3 this run) · ');
    expect(renderStatus({ ...base, loop: running })).toContain('iteration 2 (at most 5 this run)');
    // The lock as it is first written, before the start checks have numbered anything.
    expect(renderStatus({ ...base, loop: { ...loop, iteration: 0, thisRun: 0, maxIterations: 0 } })).toContain(
      'pid 7 · starting · 1m 0s elapsed',
    );
  });

  it.each([
    [{ current: 'main', tasks: null }, 'Branch    main (the task list names no branchName)'],
    [{ current: 'ralph/x', tasks: 'ralph/x' }, "Branch    ralph/x (the task list's branchName)"],
    [
      { current: 'main', tasks: 'ralph/x' },
      "Branch    main — the task list's branchName is ralph/x: ralph run switches to it",
    ],
    [{ current: null, tasks: 'ralph/x' }, "Branch    detached HEAD — the task list's branchName is ralph/x"],
  ])('shows the branch checked out and the one the task list names: %j', (branch, line) => {
    expect(renderStatus({ ...base, branch })).toContain(line);
  });

  it('does not say the task list names no branchName when it cannot be read at all', () => {
    const text = renderStatus({ ...base, tasks: { state: 'invalid', error: 'not valid JSON' } });
    expect(text).toContain('Branch    main (the task list cannot be read, nor its branchName)');
    expect(text).not.toContain('names no branchName');
  });

  it('shows a dash for a column the CSV does not have, and the short commit', () => {
    const text = renderStatus({
      ...base,
      recentIterations: [
        {
          iteration: 7,
          mode: 'implement',
          durationSeconds: 65,
          commit: '0123456789abcdef',
          outcome: null,
          story: 'US-2',
        },
        { iteration: 8, mode: null, durationSeconds: null, commit: null, outcome: 'stuck', story: null },
      ],
    });
    expect(text).toContain('Last 2 iterations');
    expect(text).toMatch(/ 7  implement  US-2 +1m 5s +0123456  -\n/);
    expect(text).toMatch(/ 8 {2}- +- +- +- +stuck\n/);
  });

  it('shows a last run that stopped, with its reason', () => {
    const text = renderStatus({
      ...base,
      lastRun: {
        state: 'ok',
        reason: 'blocked',
        exitCode: 2,
        detail: 'no key\nmore',
        iterations: 1,
        durationSeconds: 9,
      },
    });
    expect(text).toMatch(/Last run +BLOCKED \(code 2\) · 1 iteration · 9s — no key\n/);
  });

  it('says when last-run.json cannot be read', () => {
    expect(renderStatus({ ...base, lastRun: { state: 'invalid', error: 'not valid JSON' } })).toContain(
      'last-run.json is unreadable: not valid JSON',
    );
  });

  it('says an answered decision will be acted on', () => {
    expect(renderStatus({ ...base, decide: { question: 'A or B?', answered: true } })).toMatch(
      /Decision +A or B\? — answered/,
    );
  });
});
