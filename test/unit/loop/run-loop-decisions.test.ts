import { describe, expect, it } from 'vitest';
import { renderFeedback } from '../../../src/loop/feedback.js';
import type { LoopPorts } from '../../../src/loop/ports.js';
import { runLoop } from '../../../src/loop/run-loop.js';
import type { InterruptSignal } from '../../../src/loop/termination.js';
import { fakePorts, taskList, type FakeCall, loopSettings } from './fakes.js';
import type { TaskList } from '../../../src/domain/tasks.js';
import type { LoopSettings } from '../../../src/loop/loop-state.js';
import type { GateVerdict } from '../../../src/loop/port-data.js';

// Decisions the loop makes around the judge: what it counts, what it tells the next prompt, when it
// looks at the clock and at interrupts.

const START = 1_750_000_000_000;
const settings: LoopSettings = loopSettings();
const tasks = taskList(['US-1', false], ['US-2', false]);
/**
 * An implement iteration may pass only one story (transitions.ts), so a claim that should hold
 * starts one story short.
 */
const lastOneLeft = taskList(['US-1', true], ['US-2', false]);
const gateFailed = (summary: string): GateVerdict => ({
  passed: false,
  interrupted: false,
  summary,
  event: `## Completion Blocked: ${summary}\n`,
});

async function loop(
  calls: FakeCall[],
  overrides: Partial<LoopSettings> = {},
  initial: TaskList = tasks,
  options: Parameters<typeof fakePorts>[2] = {},
) {
  const fake = fakePorts(initial, calls, options);
  const result = await runLoop({ ...settings, ...overrides }, fake.ports, initial);
  return { ...fake, result };
}

/** Fake ports whose interrupt arrives when `arrive` is called (not through an agent's stop). */
function withLateInterrupt(ports: LoopPorts): { ports: LoopPorts; arrive: (signal: InterruptSignal) => void } {
  let signal: InterruptSignal | undefined;
  return {
    ports: { ...ports, interrupts: { received: () => signal, graceful: ports.interrupts.graceful } },
    arrive: (received) => {
      signal = received;
    },
  };
}

describe('runLoop: the summary counts', () => {
  it('counts no stuck iteration in a run where every iteration committed', async () => {
    const { result } = await loop([{ commit: true }, { commit: true }], { maxIterations: 2 });
    expect(result.stuckIterations).toBe(0);
  });

  it('counts a usage-limited iteration without a commit as no stuck iteration', async () => {
    const limited: FakeCall = {
      failure: { kind: 'usage_limit', message: 'limit', reset: { at: START + 3600_000, source: 'event' } },
      exitCode: 1,
    };
    const { result, rows } = await loop([{}, limited, { commit: true }], { maxIterations: 2 });
    expect(rows.map((row) => row.stuckCount)).toEqual([1, 1, 0]);
    expect(result.stuckIterations).toBe(1);
  });

  it('counts an iteration a human interrupted, without a commit, as no strike', async () => {
    const { result, rows } = await loop([{}, { interrupt: 'SIGINT' }]);
    expect(result.termination).toEqual({ reason: 'interrupted', signal: 'SIGINT' });
    expect(rows.map((row) => row.stuckCount)).toEqual([1, 1]);
    expect(result.stuckIterations).toBe(1);
  });

  it('counts every repetition detection per tool', async () => {
    const stop = (tool: string): FakeCall => ({
      stoppedBy: { cause: 'repetition', repetition: { tool, count: 5, kind: 'consecutive', inputPreview: '{}' } },
      exitCode: null,
      commit: true,
    });
    const { result } = await loop([stop('Bash'), stop('Read'), stop('Bash')], { maxIterations: 3 });
    expect(result.repetitions).toEqual({ Bash: 2, Read: 1 });
  });

  it('reports the stories of the last valid task list when the agent left it unreadable', async () => {
    const { result } = await loop(
      [
        { commit: true, pass: ['US-1'] },
        { commit: true, corruptTasks: true },
      ],
      { maxIterations: 2 },
    );
    expect(result.stories).toEqual({ complete: 1, total: 2 });
  });

  it('counts iterations started, usage-limited ones included, and sums their cost', async () => {
    const limited: FakeCall = { failure: { kind: 'usage_limit', message: 'limit' }, exitCode: 1, costUsd: 0.5 };
    const { result } = await loop([limited, { commit: true, costUsd: 0.25 }], { maxIterations: 1 });
    expect(result.iterations).toBe(2);
    expect(result.costUsd).toBe(0.75);
    expect(result.termination).toEqual({ reason: 'max_iterations' });
  });
});

describe('runLoop: the row and the live state of each iteration', () => {
  it('records the duration to a tenth of a second and the end time to the second', async () => {
    const { rows } = await loop([{ commit: true, takesMs: 61_234 }], { maxIterations: 1 });
    expect(rows[0]).toMatchObject({
      durationSeconds: 61.2,
      timestamp: '2025-06-15T15:07:41Z',
      agentExitCode: 0,
      commitHash: 'c1',
    });
  });

  it('records each commit an iteration made as the head its loop saw, from where the iteration started', async () => {
    const { headsRecorded } = await loop([{ commit: true }, {}, { commit: true }], { maxIterations: 3 });
    expect(headsRecorded).toEqual([
      { branch: 'main', from: 'c0', to: 'c1' },
      { branch: 'main', from: 'c1', to: 'c2' },
    ]);
  });

  it('records a move from where the agent started: a commit put there between iterations is no move of its', async () => {
    const fake = fakePorts(tasks, [{ commit: true }, { commit: true }]);
    const { writeActive } = fake.ports.files;
    let started = 0;
    fake.ports.files.writeActive = async (state) => {
      if (++started === 2) fake.commitOutside();
      await writeActive(state);
    };
    await runLoop({ ...settings, maxIterations: 2 }, fake.ports, tasks);
    expect(fake.headsRecorded).toEqual([
      { branch: 'main', from: 'c0', to: 'c1' },
      { branch: 'main', from: 'c2', to: 'c3' },
    ]);
  });

  it('records the agent exit code and no commit hash when HEAD did not move', async () => {
    const { rows } = await loop([{ exitCode: 2, failure: { kind: 'error', lines: ['x'] } }], { maxIterations: 1 });
    expect(rows[0]).toMatchObject({
      agentExitCode: 2,
      commitHash: '',
      outcome: 'agent_error',
      storiesComplete: 0,
      storiesTotal: 2,
    });
  });

  it('writes the stuck count so far, the mode and the story into .ralph-active as each iteration starts', async () => {
    const { active } = await loop([{}, { commit: true, pass: ['US-1'] }, {}], { maxIterations: 3 });
    expect(active).toEqual([
      { iteration: 1, thisRun: 1, maxIterations: 3, stuckCount: 0, mode: 'implement', story: 'US-1', review: false },
      { iteration: 2, thisRun: 2, maxIterations: 3, stuckCount: 1, mode: 'implement', story: 'US-1', review: false },
      { iteration: 3, thisRun: 3, maxIterations: 3, stuckCount: 0, mode: 'implement', story: 'US-2', review: false },
    ]);
  });

  it('announces each iteration with its place among the counted ones: a usage-limited iteration takes no place', async () => {
    const fake = fakePorts(tasks, [
      { failure: { kind: 'usage_limit', message: 'limit' }, exitCode: 1 },
      { commit: true, pass: ['US-1'] },
    ]);
    const started: unknown[] = [];
    const ports: LoopPorts = {
      ...fake.ports,
      report: { ...fake.ports.report, iterationStarted: (event) => void started.push(event) },
    };
    await runLoop({ ...settings, maxIterations: 1 }, ports, tasks);
    expect(started).toEqual([
      {
        iteration: 1,
        index: 0,
        maxIterations: 1,
        mode: 'implement',
        stories: { complete: 0, total: 2 },
        story: { id: 'US-1', title: 'Story US-1' },
      },
      {
        iteration: 2,
        index: 0,
        maxIterations: 1,
        mode: 'implement',
        stories: { complete: 0, total: 2 },
        story: { id: 'US-1', title: 'Story US-1' },
      },
    ]);
  });

  it('writes blocked.txt and decide.txt stamped with the iteration and the time it ended', async () => {
    const blocked = await loop([{ signals: { blocked: 'no key' }, takesMs: 5_000 }]);
    expect(blocked.blocked).toEqual([{ iteration: 1, at: START + 5_000, reason: 'no key' }]);
    const decide = await loop([{ signals: { decide: 'REST?' }, takesMs: 7_000 }]);
    expect(decide.decided).toEqual([{ iteration: 1, at: START + 7_000, question: 'REST?' }]);
    expect(decide.blocked).toEqual([]);
  });

  it('reports how each iteration ended: its row, whether it committed, and the failure or stop', async () => {
    const fake = fakePorts(tasks, [
      { commit: true },
      { failure: { kind: 'error', lines: ['boom'] }, exitCode: 1 },
      { stoppedBy: { cause: 'timeout' }, exitCode: null },
    ]);
    const finished: Parameters<LoopPorts['report']['iterationFinished']>[0][] = [];
    const ports: LoopPorts = {
      ...fake.ports,
      report: { ...fake.ports.report, iterationFinished: (event) => void finished.push(event) },
    };
    await runLoop({ ...settings, maxIterations: 3, maxStuck: 5 }, ports, tasks);
    expect(finished.map(({ row, ...rest }) => ({ iteration: row.iteration, ...rest }))).toEqual([
      { iteration: 1, committed: true },
      { iteration: 2, committed: false, failure: { kind: 'error', lines: ['boom'] } },
      { iteration: 3, committed: false, stoppedBy: { cause: 'timeout' } },
    ]);
  });

  it('waits for the listeners to write an iteration’s row before its pace, the next iteration and the ending', async () => {
    const fake = fakePorts(tasks, [{ commit: true }, { commit: true }]);
    const order: string[] = [];
    const ports: LoopPorts = {
      ...fake.ports,
      report: {
        ...fake.ports.report,
        iterationStarted: (event) => void order.push(`start ${event.iteration}`),
        // A write that takes a few turns of the event loop's microtasks, as summary.csv's append does.
        iterationFinished: async ({ row }) => {
          order.push(`row ${row.iteration} writing`);
          for (let turn = 0; turn < 5; turn += 1) await Promise.resolve();
          order.push(`row ${row.iteration} written`);
        },
      },
      files: { ...fake.ports.files, recordPace: async () => void order.push('pace') },
    };
    await runLoop({ ...settings, maxIterations: 2, maxStuck: 5 }, ports, tasks);
    order.push('ended');
    expect(order).toEqual([
      'start 1',
      'row 1 writing',
      'row 1 written',
      'pace',
      'start 2',
      'row 2 writing',
      'row 2 written',
      'pace',
      'ended',
    ]);
  });

  it('passes the run deadline to the agent', async () => {
    const fake = fakePorts(tasks, [{ commit: true }]);
    const deadlines: (number | undefined)[] = [];
    const ports: LoopPorts = {
      ...fake.ports,
      agent: { run: (request) => (deadlines.push(request.deadline), fake.ports.agent.run(request)) },
    };
    await runLoop({ ...settings, maxIterations: 1, maxRuntimeMs: 3600_000 }, ports, tasks);
    expect(deadlines).toEqual([START + 3600_000]);
  });
});

describe('runLoop: what the next prompt hears', () => {
  it('gives the answered-decide.txt hint once per run, not in every prompt', async () => {
    const { prompts } = await loop([{ commit: true }, { commit: true }], { maxIterations: 2 }, tasks, {
      decide: 'answered',
    });
    expect(prompts[0]).toContain('A human answered your question in `ralph/decide.txt`');
    expect(prompts[0]).toContain('  Your question:\n    > Which database?\n  The answer:\n    > Postgres.');
    expect(prompts[1]).not.toContain('ralph/decide.txt');
  });

  it('gives no decide.txt hint while the question is still unanswered', async () => {
    const { prompts } = await loop([{ commit: true }], { maxIterations: 1 }, tasks, { decide: 'pending' });
    expect(prompts[0]).not.toContain('decide.txt');
  });

  it('explains an --iteration-timeout stop in the next prompt', async () => {
    const { prompts } = await loop([{ stoppedBy: { cause: 'timeout' }, exitCode: null }, { commit: true }], {
      maxIterations: 2,
    });
    expect(prompts[1]).toContain('stopped at the iteration time limit');
  });

  it('explains an idle-timeout stop in the next prompt', async () => {
    const { prompts } = await loop([{ stoppedBy: { cause: 'idle_timeout' }, exitCode: null }, { commit: true }], {
      maxIterations: 2,
    });
    expect(prompts[1]).toContain('produced no output for too long (idle timeout)');
  });

  it("hands a failed agent's last error lines to the next prompt, and only to the next one", async () => {
    const { prompts } = await loop(
      [
        { failure: { kind: 'error', lines: ['ENOSPC: no space left'] }, exitCode: 1 },
        { commit: true },
        { commit: true },
      ],
      { maxIterations: 3 },
    );
    expect(prompts[1]).toContain(
      "The previous iteration's agent process failed. Its last error output:\n    ENOSPC: no space left",
    );
    expect(prompts[2]).not.toContain('Loop feedback');
  });

  it('uses the finish guide when every story passes but the run goes on', async () => {
    const done = taskList(['US-1', true]);
    const { prompts } = await loop([{ commit: true, signals: { complete: true } }], {}, done, {
      gates: [gateFailed('lint failed'), { passed: true }],
    });
    expect(prompts[0]).toContain('## mode finish: (none)');
  });

  it('uses the implement guide for the next failing story', async () => {
    const { prompts } = await loop([{ commit: true }], { maxIterations: 1 });
    expect(prompts[0]).toContain('## mode implement: US-1');
    expect(prompts[0]).not.toContain('review-policy');
  });

  it('adds the review-policy note to every guide when the review cycle is on, and only then', async () => {
    const { prompts } = await loop([{ commit: true }], { maxIterations: 1, review: true });
    expect(prompts[0]).toBe('Do the next story.\n\n## mode implement: US-1\n\n## mode review-policy: {{id}}\n');
    const off = await loop([{ commit: true }], { maxIterations: 1 });
    expect(off.prompts[0]).toBe('Do the next story.\n\n## mode implement: US-1\n');
  });

  it('keeps feedback exactly at the cap in the prompt, and moves one byte more to a file', async () => {
    const failure: FakeCall = { failure: { kind: 'error', lines: ['x'.repeat(500)] }, exitCode: 1 };
    const section = renderFeedback([{ kind: 'agent_failed', lines: ['x'.repeat(500)] }], false);
    const atCap = await loop([failure, { commit: true }], {
      maxIterations: 2,
      maxFeedbackBytes: Buffer.byteLength(section),
    });
    expect(atCap.feedbackFiles).toEqual([]);
    expect(atCap.prompts[1]).toContain(section.trimEnd());
    const over = await loop([failure, { commit: true }], {
      maxIterations: 2,
      maxFeedbackBytes: Buffer.byteLength(section) - 1,
    });
    expect(over.feedbackFiles).toEqual([{ iteration: 2, text: section }]);
  });

  it('previews half the cap of feedback that went to a file', async () => {
    const failure: FakeCall = { failure: { kind: 'error', lines: ['y'.repeat(3000)] }, exitCode: 1 };
    const { prompts } = await loop([failure, { commit: true }], { maxIterations: 2, maxFeedbackBytes: 1000 });
    const preview = prompts[1]?.split('## Loop feedback')[1]?.split('… (cut here')[0] ?? '';
    expect(Buffer.byteLength(`## Loop feedback${preview}`.trimEnd())).toBe(500);
  });
});

describe('runLoop: the clock and interrupts between iterations', () => {
  it('a usage-limit wait that ends exactly at the deadline ends the run max_runtime before another agent starts', async () => {
    const maxRuntimeMs = 3600_000;
    const limited: FakeCall = {
      failure: { kind: 'usage_limit', message: 'limit', reset: { at: START + maxRuntimeMs - 60_000, source: 'event' } },
      exitCode: 1,
    };
    const { result, prompts, sleeps } = await loop([limited, { commit: true }], { maxRuntimeMs });
    expect(sleeps).toEqual([maxRuntimeMs - 60_000]);
    expect(result.termination).toEqual({ reason: 'max_runtime', limitMs: maxRuntimeMs });
    expect(prompts).toHaveLength(1);
  });

  it('does not sleep when the reset time has already passed', async () => {
    const limited: FakeCall = {
      failure: { kind: 'usage_limit', message: 'limit', reset: { at: START + 60_000 - 60_000, source: 'event' } },
      exitCode: 1,
    };
    const { sleeps, events } = await loop([limited, { commit: true }], { maxIterations: 1 });
    expect(sleeps).toEqual([]);
    expect(events).toContain('wait ended');
  });

  it('an interrupt during a usage-limit wait ends the run before another agent starts', async () => {
    const fake = fakePorts(tasks, [
      { failure: { kind: 'usage_limit', message: 'limit' }, exitCode: 1 },
      { commit: true },
    ]);
    const late = withLateInterrupt(fake.ports);
    const ports: LoopPorts = {
      ...late.ports,
      clock: { ...fake.ports.clock, sleep: async () => late.arrive('SIGTERM') },
    };
    const result = await runLoop(settings, ports, tasks);
    expect(result.termination).toEqual({ reason: 'interrupted', signal: 'SIGTERM' });
    expect(fake.prompts).toHaveLength(1);
  });

  it('runs no gates on a claim when an interrupt arrived as the agent finished', async () => {
    const fake = fakePorts(lastOneLeft, [{ commit: true, pass: ['US-2'], signals: { complete: true } }], {
      gates: [{ passed: true }],
    });
    const late = withLateInterrupt(fake.ports);
    const ports: LoopPorts = {
      ...late.ports,
      agent: { run: async (request) => fake.ports.agent.run(request).finally(() => late.arrive('SIGINT')) },
    };
    await runLoop(settings, ports, lastOneLeft);
    expect(fake.gateChecks).toEqual([]);
  });

  it('an interrupt that stops the start-of-run gates ends the run with the signal received', async () => {
    const done = taskList(['US-1', true]);
    const fake = fakePorts(done, [], { gates: [{ passed: false, interrupted: true }] });
    const late = withLateInterrupt(fake.ports);
    late.arrive('SIGTERM');
    expect((await runLoop(settings, late.ports, done)).termination).toEqual({
      reason: 'interrupted',
      signal: 'SIGTERM',
    });
    const unnamed = await loop([], {}, done, { gates: [{ passed: false, interrupted: true }] });
    expect(unnamed.result.termination).toEqual({ reason: 'interrupted', signal: 'SIGINT' });
  });
});

describe('runLoop: gates on a claim and on a commit', () => {
  it('checks a verified claim as a claim, even with gatesWhen commit', async () => {
    const { gateChecks } = await loop(
      [{ commit: true, pass: ['US-2'], signals: { complete: true } }],
      { gatesWhen: 'commit' },
      lastOneLeft,
      { gates: [{ passed: true }] },
    );
    expect(gateChecks).toEqual([{ iteration: 1, trigger: 'complete' }]);
  });

  it('with gatesWhen commit runs no gates after an iteration without a commit', async () => {
    const { gateChecks } = await loop([{}, { commit: true }], { gatesWhen: 'commit', maxIterations: 2 }, tasks, {
      gates: [{ passed: true }],
    });
    expect(gateChecks).toEqual([{ iteration: 2, trigger: 'commit' }]);
  });

  it('checks a claim whose agent a time limit stopped after the work was done', async () => {
    const claim: FakeCall = {
      commit: true,
      pass: ['US-2'],
      signals: { complete: true },
      stoppedBy: { cause: 'timeout' },
      exitCode: null,
    };
    const { gateChecks, result } = await loop([claim], {}, lastOneLeft, { gates: [{ passed: true }] });
    expect(gateChecks).toEqual([{ iteration: 1, trigger: 'complete' }]);
    expect(result.termination).toEqual({ reason: 'complete' });
  });
});

describe('runLoop: the review cycle', () => {
  const review = { review: true } as const;

  it('a review-fix iteration that leaves its story sent back counts no review rejection', async () => {
    const initial: TaskList = {
      stories: [{ id: 'US-1', title: 'Story US-1', passes: false, priority: 1, reviewStatus: 'changes_requested' }],
    };
    const { rows, reviewRejections } = await loop(
      [{ commit: true }, { commit: true }],
      { ...review, maxIterations: 2, maxReviews: 1 },
      initial,
    );
    expect(rows.map((row) => row.mode)).toEqual(['review-fix', 'review-fix']);
    expect(reviewRejections).toEqual({});
  });

  it('the review cap reads the story under review, not another story already sent back', async () => {
    const initial: TaskList = {
      // The story sent back comes first in the file: the count must find the reviewed one by id.
      stories: [
        { id: 'US-2', title: 'Story US-2', passes: false, priority: 2, reviewStatus: 'changes_requested' },
        { id: 'US-1', title: 'Story US-1', passes: true, priority: 1, reviewStatus: 'pending' },
      ],
    };
    const { rows, reviewRejections, result } = await loop(
      [{ commit: true, review: { 'US-1': { reviewStatus: 'approved' } } }],
      { ...review, maxIterations: 1, maxReviews: 1 },
      initial,
    );
    expect(rows[0]?.mode).toBe('review');
    expect(reviewRejections).toEqual({});
    expect(result.termination).toEqual({ reason: 'max_iterations' });
  });

  it('counts a rejection for the reviewed story, below --max-reviews going on', async () => {
    const initial = taskList(['US-1', true]);
    const { reviewRejections, result } = await loop(
      [{ commit: true, review: { 'US-1': { reviewStatus: 'changes_requested', passes: false } } }],
      { ...review, maxIterations: 1, maxReviews: 2 },
      initial,
    );
    expect(reviewRejections).toEqual({ 'US-1': 1 });
    expect(result.termination).toEqual({ reason: 'max_iterations' });
  });

  it('a review cap reached without written feedback says so without quoting any', async () => {
    const initial = taskList(['US-1', true]);
    const { blocked } = await loop(
      [{ commit: true, review: { 'US-1': { reviewStatus: 'changes_requested', passes: false } } }],
      { ...review, maxReviews: 1 },
      initial,
    );
    expect(blocked[0]?.reason).toBe(
      'Story US-1 was sent back by review 1 time (--max-reviews 1): a human should look at it.',
    );
  });

  it('reviews the highest-priority story awaiting review, whose status is pending or not set yet', async () => {
    const initial: TaskList = {
      stories: [
        { id: 'US-3', title: 'Story US-3', passes: true, priority: 3 },
        { id: 'US-2', title: 'Story US-2', passes: true, priority: 2, reviewStatus: 'approved' },
        { id: 'US-1', title: 'Story US-1', passes: false, priority: 1 },
      ],
    };
    const { active } = await loop([{ commit: true }], { ...review, maxIterations: 1 }, initial);
    expect(active[0]).toMatchObject({ mode: 'review', story: 'US-3' });
  });
});
