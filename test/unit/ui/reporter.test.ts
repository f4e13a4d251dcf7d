import { describe, expect, it } from 'vitest';
import type { IterationRow } from '../../../src/loop/port-data.js';
import { createReporter } from '../../../src/ui/reporter.js';

/** A console that records lines and status updates, colour codes removed. */
function recorder() {
  const lines: string[] = [];
  const statuses: (string | undefined)[] = [];
  const plain = (text: string) => text.replace(/\u001b\[\d+m/g, '');
  return {
    lines,
    statuses,
    out: {
      line: (text: string) => void lines.push(plain(text)),
      command: (text: string) => void lines.push(text),
      status: (text: string | undefined) => void statuses.push(text && plain(text)),
    },
  };
}

const row = (outcome: IterationRow['outcome']): IterationRow => ({
  iteration: 1,
  mode: 'implement',
  durationSeconds: 12,
  commitHash: '',
  storiesComplete: 0,
  storiesTotal: 1,
  stuckCount: 1,
  timestamp: '2026-01-01T00:00:00Z',
  outcome,
  agentExitCode: 1,
  stats: { toolCalls: 0, invalidLines: 0 },
});

/** The first iteration's start. */
const FIRST = {
  iteration: 1,
  index: 0,
  maxIterations: 5,
  mode: 'implement',
  stories: { complete: 0, total: 1 },
} as const;

describe('the terminal reporter and limits', () => {
  const now = () => 1_750_000_000_000;

  it('labels a throttled or overloaded server as such, not as a usage limit', () => {
    const { out, lines } = recorder();
    const reporter = createReporter(out, { maxStuck: 3, runStartedAt: now(), github: false, now });
    void reporter.iterationFinished({
      row: row('agent_error'),
      committed: false,
      failure: { kind: 'error', lines: ['x'], busy: { kind: 'rate_limited', message: 'x' } },
    });
    void reporter.iterationFinished({
      row: row('agent_error'),
      committed: false,
      failure: { kind: 'error', lines: ['y'], busy: { kind: 'overloaded', message: 'y' } },
    });
    void reporter.iterationFinished({
      row: row('usage_limit'),
      committed: false,
      failure: { kind: 'usage_limit', message: 'limit' },
    });
    expect(lines[0]).toMatch(/ · rate limited$/);
    expect(lines[2]).toMatch(/ · overloaded$/);
    expect(lines[4]).toMatch(/ · usage limit$/);
  });

  it('counts a strike beside an iteration without a commit, but none beside a usage limit or an interrupt', () => {
    const { out, lines } = recorder();
    const reporter = createReporter(out, { maxStuck: 3, runStartedAt: now(), github: false, now });
    for (const outcome of ['agent_error', 'usage_limit', 'interrupted'] as const)
      void reporter.iterationFinished({ row: row(outcome), committed: false });
    expect(lines.filter((line) => line.startsWith('✗'))).toEqual([
      '✗ iteration 1: no new commit (stuck 1/3) · 12s · stories 0/1 · agent exit 1 · agent failed',
      '✗ iteration 1: no new commit · 12s · stories 0/1 · agent exit 1 · usage limit',
      '✗ iteration 1: no new commit · 12s · stories 0/1 · agent exit 1 · interrupted',
    ]);
  });

  it('says why it waits, and where the reset came from', () => {
    const { out, lines } = recorder();
    const reporter = createReporter(out, { maxStuck: 3, runStartedAt: now(), github: false, now });
    reporter.usageLimitWait({
      until: now() + 90_000,
      message: 'five_hour usage is at 92% (--max-usage 90)',
      resetsAt: now() + 30_000,
      resetSource: 'event',
      why: 'max_usage',
    })();
    reporter.usageLimitWait({ until: now() + 30_000, message: 'API Error: 529 Overloaded', why: 'overloaded' })();
    expect(lines[0]).toBe(
      "--max-usage reached: five_hour usage is at 92% (--max-usage 90) — waiting until 2025-06-15T15:08:10.000Z (1m 30s, reset read from the agent's rate_limit_event)",
    );
    expect(lines[1]).toMatch(
      /^overloaded \(the API, not your usage limit\): API Error: 529 Overloaded — waiting until /,
    );
  });

  it('shows the latest utilization per window on the live status line', () => {
    const { out, statuses } = recorder();
    const reporter = createReporter(out, { maxStuck: 3, runStartedAt: now(), github: false, now });
    reporter.iterationStarted(FIRST);
    reporter.usage([
      { window: 'five_hour', utilization: 0.92 },
      { window: 'seven_day', utilization: 0.404 },
    ]);
    expect(statuses.at(-1)).toMatch(/tool calls · usage five_hour 92% · seven_day 40%$/);
    void reporter.iterationFinished({ row: row('ok'), committed: false });
  });

  it('abandon closes what an unfinished iteration opened: its status line and its group, once', () => {
    const { out, lines, statuses } = recorder();
    const reporter = createReporter(out, { maxStuck: 3, runStartedAt: now(), github: true, now });
    reporter.iterationStarted(FIRST);
    expect(statuses.at(-1)).toMatch(/^⋯ iteration 1/);
    reporter.abandon();
    reporter.abandon();
    expect(statuses.at(-1)).toBeUndefined();
    expect(lines.filter((line) => line.startsWith('::'))).toEqual(['::group::Iteration 1 (implement)', '::endgroup::']);
  });

  it('abandon after a finished iteration, or off Actions, prints nothing', () => {
    const github = recorder();
    const reporter = createReporter(github.out, { maxStuck: 3, runStartedAt: now(), github: true, now });
    reporter.iterationStarted(FIRST);
    void reporter.iterationFinished({ row: row('ok'), committed: false });
    const printed = github.lines.length;
    reporter.abandon();
    expect(github.lines).toHaveLength(printed);
    expect(github.lines.filter((line) => line === '::endgroup::')).toHaveLength(1);

    const local = recorder();
    const plain = createReporter(local.out, { maxStuck: 3, runStartedAt: now(), github: false, now });
    plain.iterationStarted(FIRST);
    plain.abandon();
    expect(local.lines.filter((line) => line.startsWith('::'))).toEqual([]);
    expect(local.statuses.at(-1)).toBeUndefined();
  });

  it('shows the time elapsed by its elapsed clock, whatever the wall clock did meanwhile', () => {
    const { out, lines, statuses } = recorder();
    let wall = now();
    let monotonic = 5_000;
    const reporter = createReporter(out, {
      maxStuck: 3,
      runStartedAt: monotonic,
      github: false,
      now: () => wall,
      elapsed: () => monotonic,
    });
    // 90 s later by the monotonic clock, while the wall clock was set back an hour.
    wall -= 3_600_000 - 90_000;
    monotonic += 90_000;
    reporter.iterationStarted(FIRST);
    expect(lines.at(-1)).toMatch(/· 1m 30s elapsed ──$/);
    expect(statuses.at(-1)).toMatch(/· 0s ·/);
    reporter.abandon();
  });
});
