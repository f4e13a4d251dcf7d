import { describe, expect, it } from 'vitest';
import { isVerifiedComplete, judgeIteration } from '../../../src/loop/judge.js';
import { taskList, judgeSettings } from './fakes.js';
import type { TaskList } from '../../../src/domain/tasks.js';
import {
  type IterationFacts,
  INITIAL_COUNTERS,
  type JudgeSettings,
  type Counters,
} from '../../../src/loop/judge-inputs.js';
import type { AgentRun, GateVerdict } from '../../../src/loop/port-data.js';

// The judge is a pure function: each test states one iteration's facts and reads the ruling.

const NOW = 1_750_000_000_000;
const HOUR = 3600_000;
const settings: JudgeSettings = judgeSettings();

function agentRun(overrides: Partial<AgentRun> = {}): AgentRun {
  return {
    exitCode: 0,
    truncated: false,
    stats: { toolCalls: 0, invalidLines: 0 },
    ...overrides,
    signals: { complete: false, invalid: [], ...overrides.signals },
  };
}

function facts(
  overrides: Partial<Omit<IterationFacts, 'run'>> & { run?: Partial<AgentRun>; list?: TaskList } = {},
): IterationFacts {
  const { run, list, ...rest } = overrides;
  const tasks = list ?? taskList(['US-1', true], ['US-2', false]);
  return {
    run: agentRun(run),
    committed: true,
    tasks: { ok: true, tasks },
    unconfirmed: new Set<string>(),
    now: NOW,
    deadline: NOW + HOUR,
    ...rest,
  };
}

/** An iteration whose agent failed with this error output. */
const errorRun = (lines: string[]): Partial<AgentRun> => ({ failure: { kind: 'error', lines }, exitCode: 1 });
const counters = (overrides: Partial<Counters>): Counters => ({ ...INITIAL_COUNTERS, ...overrides });
const judge = (iteration: IterationFacts, previous: Partial<Counters> = {}, overrides: Partial<JudgeSettings> = {}) =>
  judgeIteration(iteration, counters(previous), { ...settings, ...overrides });

const allPass = taskList(['US-1', true], ['US-2', true]);
const complete = { signals: { complete: true, invalid: [] } };
const gatesFailed: GateVerdict = {
  passed: false,
  interrupted: false,
  summary: 'tests failed',
  event: '## Completion Blocked: tests failed\n',
};

describe('judge: what a COMPLETE claim needs', () => {
  it('a story removed by the agent blocks COMPLETE even when every remaining story passes', () => {
    const iteration = facts({
      run: complete,
      list: taskList(['US-1', true]),
      ruleBroken: 'stories removed from ralph/tasks.json: US-2',
    });
    const verdict = judge(iteration);
    expect(isVerifiedComplete(iteration, settings)).toBe(false);
    expect(verdict.termination).toBeUndefined();
    expect(verdict.feedback).toContainEqual({
      kind: 'rule_broken',
      rule: 'stories removed from ralph/tasks.json: US-2',
    });
    expect(verdict.counters.validationFailures).toBe(1);
  });

  it('a COMPLETE with every story passing and none removed ends the run complete', () => {
    const iteration = facts({ run: complete, list: allPass });
    expect(isVerifiedComplete(iteration, settings)).toBe(true);
    expect(judge(iteration).termination).toEqual({ reason: 'complete' });
  });

  it('an iteration that leaves every story done completes the run without the agent saying COMPLETE', () => {
    // Another agent call only to hear COMPLETE would be paid for nothing.
    const iteration = facts({ list: allPass });
    expect(isVerifiedComplete(iteration, settings)).toBe(true);
    expect(judge(iteration).termination).toEqual({ reason: 'complete' });
  });

  it('a done list without a claim is no completion while a story awaits review', () => {
    const awaiting = { stories: allPass.stories.map((story) => ({ ...story, reviewStatus: 'pending' as const })) };
    expect(isVerifiedComplete(facts({ list: awaiting }), { review: true })).toBe(false);
    const approved = { stories: allPass.stories.map((story) => ({ ...story, reviewStatus: 'approved' as const })) };
    expect(isVerifiedComplete(facts({ list: approved }), { review: true })).toBe(true);
  });

  it.each([
    ['BLOCKED', { blocked: 'the staging database is down' }, 'blocked'],
    ['DECIDE', { decide: 'keep the old API?' }, 'decide'],
  ] as const)('a done list with %s and no COMPLETE ends as the agent said, not complete', (_, said, reason) => {
    const iteration = facts({ list: allPass, run: { signals: { complete: false, invalid: [], ...said } } });
    expect(isVerifiedComplete(iteration, settings)).toBe(false);
    expect(judge(iteration).termination?.reason).toBe(reason);
  });

  it('a done list the gates reject is no completion, claimed or not, and counts toward --max-gate-failures', () => {
    const unclaimed = judge({ ...facts({ list: allPass }), gates: { trigger: 'complete', verdict: gatesFailed } });
    expect(unclaimed.termination).toBeUndefined();
    expect(unclaimed.counters.gateFailures).toBe(1);
    expect(unclaimed.rejectedComplete).toBeUndefined();
  });

  it('a done list that broke a rule or lost commits is no completion without a claim either', () => {
    expect(isVerifiedComplete(facts({ list: allPass, ruleBroken: 'story US-3 was removed' }), settings)).toBe(false);
    const rewrite = {
      how: 'rewind' as const,
      from: { head: 'c1', branch: 'main' },
      to: { head: 'c0', branch: 'main' },
      left: 1,
    };
    expect(isVerifiedComplete(facts({ list: allPass, rewrite }), settings)).toBe(false);
  });

  it('a COMPLETE over an unreadable tasks.json is rejected, and the rejection says the file is not valid', () => {
    const verdict = judge({ ...facts({ run: complete }), tasks: { ok: false, error: 'not valid JSON' } });
    expect(verdict.termination).toBeUndefined();
    expect(verdict.rejectedComplete).toEqual([]);
    expect(verdict.feedback).toEqual([
      { kind: 'tasks_invalid', error: 'not valid JSON' },
      { kind: 'complete_rejected', remaining: [] },
    ]);
  });

  it('a rejected COMPLETE names each open story and whether it fails or only awaits review', () => {
    const list: TaskList = {
      stories: [
        { id: 'US-1', title: 'Login', passes: true, reviewStatus: 'pending', priority: 1 },
        { id: 'US-2', title: 'Logout', passes: false, priority: 2 },
        { id: 'US-3', title: 'Done', passes: true, reviewStatus: 'approved', priority: 3 },
      ],
    };
    const verdict = judge(facts({ run: complete, list }), {}, { review: true });
    const remaining = [
      { id: 'US-1', title: 'Login', why: 'unreviewed' },
      { id: 'US-2', title: 'Logout', why: 'failing' },
    ];
    expect(verdict.rejectedComplete).toEqual(remaining);
    expect(verdict.feedback).toEqual([{ kind: 'complete_rejected', remaining }]);
  });

  it('a rejected COMPLETE over an unreadable tasks.json says so as its last rule broken', () => {
    const verdict = judge(
      { ...facts({ run: complete }), tasks: { ok: false, error: 'bad' } },
      { validationFailures: 2 },
    );
    expect(verdict.termination).toEqual({
      reason: 'validation_failures',
      count: 3,
      last: 'ralph/tasks.json is not valid: bad; COMPLETE claimed while tasks.json is not valid',
    });
  });

  it('a COMPLETE the gates reject is no completion; one the gates pass is', () => {
    const rejected = judge(
      facts({ run: complete, list: allPass, gates: { trigger: 'complete', verdict: gatesFailed } }),
    );
    expect(rejected.termination).toBeUndefined();
    expect(rejected.feedback).toEqual([{ kind: 'gates_blocked', event: gatesFailed.event }]);
    const passed = judge(
      facts({ run: complete, list: allPass, gates: { trigger: 'complete', verdict: { passed: true } } }),
    );
    expect(passed.termination).toEqual({ reason: 'complete' });
  });

  it('a COMPLETE whose gates were interrupted is no completion, and no gate failure either', () => {
    const verdict = judge(
      facts({
        run: complete,
        list: allPass,
        gates: { trigger: 'complete', verdict: { passed: false, interrupted: true } },
      }),
      { gateFailures: 2 },
    );
    expect(verdict.termination).toBeUndefined();
    expect(verdict.counters.gateFailures).toBe(2);
    expect(verdict.feedback).toEqual([]);
  });
});

describe('judge: validation failures', () => {
  const broken = { signals: { complete: false, invalid: ['<promise>DONE</promise>'] } };

  it.each([
    ['the iteration timeout', { cause: 'timeout' }],
    ['the idle timeout', { cause: 'idle_timeout' }],
    [
      'a repetition',
      { cause: 'repetition', repetition: { tool: 'Bash', count: 5, kind: 'consecutive', inputPreview: '{}' } },
    ],
    ['max_runtime', { cause: 'max_runtime' }],
  ] as const)(
    'an iteration ralph stopped itself (%s) neither counts toward nor resets --max-validation-failures',
    (_name, stoppedBy) => {
      const cutOff = judge(
        facts({ run: { ...broken, truncated: true, stoppedBy, exitCode: null } }),
        { validationFailures: 2 },
        { maxRuntimeMs: 4 * HOUR },
      );
      expect(cutOff.counters.validationFailures).toBe(2);
      const clean = judge(facts({ run: { stoppedBy, exitCode: null } }), { validationFailures: 2 });
      expect(clean.counters.validationFailures).toBe(2);
    },
  );

  it('a usage-limited iteration neither counts toward nor resets --max-validation-failures', () => {
    const failure = { kind: 'usage_limit', message: 'limit' } as const;
    expect(
      judge(facts({ run: { ...broken, failure, exitCode: 1 } }), { validationFailures: 2 }).counters.validationFailures,
    ).toBe(2);
    expect(judge(facts({ run: { failure, exitCode: 1 } }), { validationFailures: 2 }).counters.validationFailures).toBe(
      2,
    );
  });

  it('an iteration the agent ended with a broken rule counts one; a clean one resets the count', () => {
    expect(judge(facts({ run: broken }), { validationFailures: 1 }).counters.validationFailures).toBe(2);
    expect(judge(facts(), { validationFailures: 2 }).counters.validationFailures).toBe(0);
  });

  it('a failed agent that broke a rule counts toward --max-validation-failures', () => {
    const verdict = judge(facts({ run: { ...broken, failure: { kind: 'error', lines: ['boom'] }, exitCode: 1 } }), {
      validationFailures: 1,
    });
    expect(verdict.counters.validationFailures).toBe(2);
  });

  it('ends at exactly --max-validation-failures, naming every rule the last iteration broke', () => {
    const verdict = judge(facts({ run: { ...broken, truncated: true } }), { validationFailures: 2 });
    expect(verdict.termination).toEqual({
      reason: 'validation_failures',
      count: 3,
      last: 'promise tags that are no signal: <promise>DONE</promise>; the output stream ended without a result (cut off)',
    });
    expect(judge(facts({ run: broken }), { validationFailures: 1 }).termination).toBeUndefined();
  });

  it('names removed stories among the rules broken', () => {
    const verdict = judge(
      facts({ list: taskList(['US-1', false]), ruleBroken: 'stories removed from ralph/tasks.json: US-2, US-3' }),
      { validationFailures: 2 },
    );
    expect(verdict.termination).toMatchObject({
      last: expect.stringContaining('stories removed from ralph/tasks.json: US-2, US-3'),
    });
  });

  it('a truncated stream is a broken rule with its own feedback', () => {
    const verdict = judge(facts({ run: { truncated: true } }));
    expect(verdict.feedback).toEqual([{ kind: 'truncated' }]);
    expect(verdict.counters.validationFailures).toBe(1);
  });
});

describe('judge: feedback for the next prompt', () => {
  it('explains an --iteration-timeout stop and an idle-timeout stop, each as its own limit', () => {
    expect(judge(facts({ run: { stoppedBy: { cause: 'timeout' }, exitCode: null } })).feedback).toEqual([
      { kind: 'time_limit', limit: 'iteration' },
    ]);
    expect(judge(facts({ run: { stoppedBy: { cause: 'idle_timeout' }, exitCode: null } })).feedback).toEqual([
      { kind: 'time_limit', limit: 'idle' },
    ]);
  });

  it('hands on the repetition ralph stopped', () => {
    const repetition = { tool: 'Bash', count: 5, kind: 'window', inputPreview: '{"command":"ls"}' } as const;
    expect(judge(facts({ run: { stoppedBy: { cause: 'repetition', repetition }, exitCode: null } })).feedback).toEqual([
      { kind: 'repetition', repetition },
    ]);
  });

  it("hands on the last eight lines of a failed agent's error output", () => {
    const lines = Array.from({ length: 12 }, (_, index) => `line ${index + 1}`);
    const verdict = judge(facts({ run: { failure: { kind: 'error', lines }, exitCode: 1 } }));
    expect(verdict.feedback).toEqual([{ kind: 'agent_failed', lines: lines.slice(4) }]);
  });

  it('hands on nothing for a clean iteration', () => {
    expect(judge(facts()).feedback).toEqual([]);
  });

  it('hands on a blocking event from gates that ran after a commit', () => {
    const verdict = judge(facts({ gates: { trigger: 'commit', verdict: gatesFailed } }));
    expect(verdict.feedback).toEqual([{ kind: 'gates_blocked', event: gatesFailed.event }]);
  });
});

describe('judge: the counters', () => {
  it('a commit resets the stuck count however the iteration ended; no commit adds one', () => {
    expect(
      judge(facts({ committed: true, run: { failure: { kind: 'error', lines: [] }, exitCode: 1 } }), { stuck: 2 })
        .counters.stuck,
    ).toBe(0);
    expect(judge(facts({ committed: false }), { stuck: 1 }).counters.stuck).toBe(2);
  });

  it('a usage-limited iteration without a commit leaves the stuck count where it was', () => {
    const verdict = judge(
      facts({ committed: false, run: { failure: { kind: 'usage_limit', message: 'limit' }, exitCode: 1 } }),
      { stuck: 2 },
    );
    expect(verdict.counters.stuck).toBe(2);
  });

  it('counts consecutive usage limits, and forgets them after any other iteration', () => {
    const limited = facts({ run: { failure: { kind: 'usage_limit', message: 'limit' }, exitCode: 1 } });
    expect(judge(limited, { usageLimits: 2 }).counters.usageLimits).toBe(3);
    expect(judge(facts(), { usageLimits: 2 }).counters.usageLimits).toBe(0);
  });

  it('agent failures: an error adds one, a clean iteration resets, a stop by ralph or a usage limit leaves the count', () => {
    expect(
      judge(facts({ run: { failure: { kind: 'error', lines: [] }, exitCode: 1 } }), { agentFailures: 1 }).counters
        .agentFailures,
    ).toBe(2);
    expect(judge(facts(), { agentFailures: 2 }).counters.agentFailures).toBe(0);
    expect(
      judge(facts({ run: { stoppedBy: { cause: 'timeout' }, exitCode: null } }), { agentFailures: 2 }).counters
        .agentFailures,
    ).toBe(2);
    expect(
      judge(facts({ run: { failure: { kind: 'usage_limit', message: 'l' }, exitCode: 1 } }), { agentFailures: 2 })
        .counters.agentFailures,
    ).toBe(2);
    expect(judge(facts({ run: { truncated: true } }), { agentFailures: 2 }).counters.agentFailures).toBe(2);
  });

  it('sums the cost of every iteration, an iteration without a cost adding nothing', () => {
    expect(
      judge(facts({ run: { stats: { toolCalls: 0, invalidLines: 0, costUsd: 0.25 } } }), { costUsd: 1 }).counters
        .costUsd,
    ).toBe(1.25);
    expect(judge(facts(), { costUsd: 1 }).counters.costUsd).toBe(1);
  });

  it('gate failures: a rejected claim adds one, a passed claim resets, gates after a commit leave the count', () => {
    const claim = (verdict: GateVerdict) =>
      facts({ run: complete, list: allPass, gates: { trigger: 'complete', verdict } });
    expect(judge(claim(gatesFailed), { gateFailures: 1 }).counters.gateFailures).toBe(2);
    expect(judge(claim({ passed: true }), { gateFailures: 2 }).counters.gateFailures).toBe(0);
    expect(
      judge(facts({ gates: { trigger: 'commit', verdict: gatesFailed } }), { gateFailures: 2 }).counters.gateFailures,
    ).toBe(2);
    expect(
      judge(facts({ gates: { trigger: 'commit', verdict: { passed: true } } }), { gateFailures: 2 }).counters
        .gateFailures,
    ).toBe(2);
    expect(judge(facts(), { gateFailures: 2 }).counters.gateFailures).toBe(2);
  });

  it('a gate rejection is not a validation failure', () => {
    const verdict = judge(
      facts({ run: complete, list: allPass, gates: { trigger: 'complete', verdict: gatesFailed } }),
      { validationFailures: 2 },
    );
    expect(verdict.counters.validationFailures).toBe(0);
  });
});

describe('judge: budgets and their boundaries', () => {
  it('ends max_runtime when the iteration ends exactly at the deadline, not a millisecond before', () => {
    expect(judge(facts({ now: NOW, deadline: NOW })).termination).toEqual({ reason: 'max_runtime', limitMs: 4 * HOUR });
    expect(judge(facts({ now: NOW - 1, deadline: NOW })).termination).toBeUndefined();
  });

  it('max_runtime wins over stuck when both arrive in the same iteration', () => {
    const verdict = judge(facts({ committed: false, now: NOW, deadline: NOW }), { stuck: 2 });
    expect(verdict.counters.stuck).toBe(3);
    expect(verdict.termination).toEqual({ reason: 'max_runtime', limitMs: 4 * HOUR });
  });

  it('max_runtime wins over agent failures, and max_cost over max_runtime', () => {
    const failed = errorRun(['boom']);
    expect(judge(facts({ run: failed, now: NOW, deadline: NOW }), { agentFailures: 2 }).termination?.reason).toBe(
      'max_runtime',
    );
    const costly = { stats: { toolCalls: 0, invalidLines: 0, costUsd: 2 } };
    expect(judge(facts({ run: costly, now: NOW, deadline: NOW }), {}, { maxCostUsd: 1 }).termination?.reason).toBe(
      'max_cost',
    );
  });

  it('ends max_runtime when the runner stopped the agent at the deadline, even with time seemingly left', () => {
    const verdict = judge(
      facts({ run: { stoppedBy: { cause: 'max_runtime' }, exitCode: null }, now: NOW - HOUR, deadline: NOW }),
    );
    expect(verdict.termination).toEqual({ reason: 'max_runtime', limitMs: 4 * HOUR });
  });

  it('ends max_cost when the summed cost reaches the cap exactly, not below it', () => {
    const cost = (costUsd: number) => facts({ run: { stats: { toolCalls: 0, invalidLines: 0, costUsd } } });
    expect(judge(cost(0.5), { costUsd: 0.5 }, { maxCostUsd: 1 }).termination).toEqual({
      reason: 'max_cost',
      costUsd: 1,
      limitUsd: 1,
    });
    expect(judge(cost(0.49), { costUsd: 0.5 }, { maxCostUsd: 1 }).termination).toBeUndefined();
    expect(judge(cost(100), {}, {}).termination).toBeUndefined();
  });

  it('ends agent_failures at exactly --max-agent-failures, with the last error output', () => {
    const failed = errorRun(['a', 'b']);
    expect(judge(facts({ run: failed }), { agentFailures: 2 }).termination).toEqual({
      reason: 'agent_failures',
      count: 3,
      lastError: ['a', 'b'],
    });
    expect(judge(facts({ run: failed }), { agentFailures: 1 }).termination).toBeUndefined();
  });

  it('an agent-failure count already at the cap ends the run even on an iteration without an error of its own', () => {
    const verdict = judge(facts({ run: { stoppedBy: { cause: 'timeout' }, exitCode: null } }), { agentFailures: 3 });
    expect(verdict.termination).toEqual({ reason: 'agent_failures', count: 3, lastError: [] });
  });

  it('ends stuck at exactly --max-stuck iterations without a commit', () => {
    expect(judge(facts({ committed: false }), { stuck: 2 }).termination).toEqual({ reason: 'stuck', stuckCount: 3 });
    expect(judge(facts({ committed: false }), { stuck: 1 }).termination).toBeUndefined();
  });

  it('ends quality_gate_exhausted at exactly --max-gate-failures rejected claims, with the last event', () => {
    const claim = facts({ run: complete, list: allPass, gates: { trigger: 'complete', verdict: gatesFailed } });
    expect(judge(claim, { gateFailures: 2 }).termination).toEqual({
      reason: 'quality_gate_exhausted',
      count: 3,
      event: gatesFailed.event,
    });
    expect(judge(claim, { gateFailures: 1 }).termination).toBeUndefined();
  });

  it('gates failing after a commit never end the run, even with the gate-failure count at the cap', () => {
    expect(
      judge(facts({ gates: { trigger: 'commit', verdict: gatesFailed } }), { gateFailures: 3 }).termination,
    ).toBeUndefined();
  });

  it('a passed claim at the cap of gate failures ends complete, not exhausted', () => {
    const verdict = judge(
      facts({ run: complete, list: allPass, gates: { trigger: 'complete', verdict: { passed: true } } }),
      { gateFailures: 3 },
    );
    expect(verdict.termination).toEqual({ reason: 'complete' });
  });
});

describe('judge: usage limits (the ruling itself is pinned in limit-ruling.test.ts)', () => {
  const limited = {
    failure: { kind: 'usage_limit', message: 'limit', reset: { at: NOW + 60_000, source: 'event' } },
    exitCode: 1,
  } as const;

  it('a limited iteration waits out the ruling and ends nothing', () => {
    const verdict = judge(facts({ run: limited }));
    expect(verdict.termination).toBeUndefined();
    expect(verdict.wait).toMatchObject({ until: NOW + 2 * 60_000, why: 'usage_limit' });
  });

  it('a budget ending wins over the wait: a limited iteration that reaches --max-cost ends the run', () => {
    const run = { ...limited, stats: { toolCalls: 0, invalidLines: 0, costUsd: 1 } };
    const verdict = judge(facts({ run }), {}, { maxCostUsd: 1 });
    expect(verdict.termination).toEqual({ reason: 'max_cost', costUsd: 1, limitUsd: 1 });
  });
});

describe('judge: the order of endings', () => {
  it('an interrupt wins over a verified COMPLETE', () => {
    const verdict = judge(
      facts({
        run: { ...complete, stoppedBy: { cause: 'interrupt', signal: 'SIGTERM' }, exitCode: null },
        list: allPass,
      }),
    );
    expect(verdict.termination).toEqual({ reason: 'interrupted', signal: 'SIGTERM' });
  });

  it('BLOCKED wins over the review cap, and the review cap over DECIDE', () => {
    const reviewCap = { id: 'US-1', count: 3 };
    const blocked = judge(
      facts({ run: { signals: { complete: false, invalid: [], blocked: 'no key', decide: 'q' } }, reviewCap }),
    );
    expect(blocked.termination).toEqual({ reason: 'blocked', message: 'no key' });
    const capped = judge(facts({ run: { signals: { complete: false, invalid: [], decide: 'q' } }, reviewCap }));
    expect(capped.termination).toMatchObject({ reason: 'blocked' });
  });

  it('a story sent back --max-reviews times ends blocked with a message for a human, quoting the last feedback', () => {
    const withFeedback = judge(facts({ reviewCap: { id: 'US-2', count: 3, feedback: 'no tests' } }));
    expect(withFeedback.termination).toEqual({
      reason: 'blocked',
      message:
        'Story US-2 was sent back by review 3 times (--max-reviews 3): a human should look at it. Its last review feedback: no tests',
    });
    const without = judge(facts({ reviewCap: { id: 'US-2', count: 4 } }), {}, { maxReviews: 4 });
    expect(without.termination).toEqual({
      reason: 'blocked',
      message: 'Story US-2 was sent back by review 4 times (--max-reviews 4): a human should look at it.',
    });
  });

  it('DECIDE wins over an authentication failure, and that over the root refusal and a usage limit', () => {
    const signals = { complete: false, invalid: [], decide: 'REST?' };
    expect(
      judge(facts({ run: { signals, failure: { kind: 'auth', message: 'x', hint: 'the fix' } } })).termination?.reason,
    ).toBe('decide');
    expect(
      judge(facts({ run: { failure: { kind: 'auth', message: 'Not logged in', hint: 'the fix' }, exitCode: 1 } }))
        .termination,
    ).toEqual({ reason: 'agent_auth', message: 'Not logged in', hint: 'the fix' });
    expect(
      judge(facts({ run: { failure: { kind: 'setup', message: 'root', hint: 'the fix' }, exitCode: 1 } })).termination,
    ).toEqual({
      reason: 'agent_setup',
      message: 'root',
      hint: 'the fix',
    });
  });

  it('agent failures win over validation failures, and those over exhausted gates and stuck', () => {
    const failed = { ...errorRun(['x']), truncated: true };
    expect(
      judge(facts({ run: failed, committed: false }), { agentFailures: 2, validationFailures: 2, stuck: 2 }).termination
        ?.reason,
    ).toBe('agent_failures');
    const broken = { truncated: true };
    expect(
      judge(facts({ run: broken, committed: false }), { validationFailures: 2, stuck: 2 }).termination?.reason,
    ).toBe('validation_failures');
    const claim = facts({
      run: complete,
      list: allPass,
      committed: false,
      gates: { trigger: 'complete', verdict: gatesFailed },
    });
    expect(judge(claim, { gateFailures: 2, stuck: 2 }).termination?.reason).toBe('quality_gate_exhausted');
  });

  it('the verdict keeps its counters and feedback when it ends the run', () => {
    const verdict = judge(facts({ committed: false, run: { truncated: true } }), { stuck: 2 });
    expect(verdict).toMatchObject({
      outcome: 'truncated',
      counters: { stuck: 3, validationFailures: 1 },
      feedback: [{ kind: 'truncated' }],
    });
  });
});

describe('judge: what a rejected COMPLETE tells the human and the agent', () => {
  const A = 'a'.repeat(40);
  const B = 'b'.repeat(40);
  const rewrite = {
    how: 'rewind' as const,
    from: { head: A, branch: 'main' },
    to: { head: B, branch: 'main' },
    left: 1,
  };
  /** The last validation failure's text: what the summary and last-run.json say stopped the run. */
  const stopText = (iteration: IterationFacts) => {
    const ending = judge(iteration, {}, { maxValidationFailures: 1 }).termination;
    return ending?.reason === 'validation_failures' ? ending.last : undefined;
  };

  it('names every story still open', () => {
    const list = taskList(['US-1', true], ['US-2', false], ['US-3', false]);
    expect(stopText(facts({ run: complete, list }))).toBe('COMPLETE claimed while stories still open: US-2, US-3');
  });

  it('says commits left the branch when every story passes but history was rewritten', () => {
    const verdict = judge(facts({ run: complete, list: allPass, rewrite }));
    expect(verdict.feedback).toContainEqual({ kind: 'complete_rejected', remaining: [], broke: 'history_rewritten' });
    expect(stopText(facts({ run: complete, list: allPass, rewrite }))).toMatch(
      /^history was rewound on main .*; COMPLETE claimed while commits left the branch$/,
    );
  });

  it('says the iteration broke a rule when every story passes but a rule was broken', () => {
    const broken = facts({ run: complete, list: allPass, ruleBroken: 'story US-3 was removed' });
    expect(judge(broken).feedback).toContainEqual({ kind: 'complete_rejected', remaining: [], broke: 'rule_broken' });
    expect(stopText(broken)).toBe(
      'ralph/tasks.json: story US-3 was removed; COMPLETE claimed while the iteration broke a rule of the task list',
    );
  });

  it('says tasks.json is not valid when it cannot be read', () => {
    const unreadable = { ...facts({ run: complete }), tasks: { ok: false as const, error: 'not valid JSON' } };
    expect(stopText(unreadable)).toBe(
      'ralph/tasks.json is not valid: not valid JSON; COMPLETE claimed while tasks.json is not valid',
    );
  });

  it('lists every promise tag that was no signal', () => {
    const tags = facts({ run: { signals: { complete: false, invalid: ['DONE', 'BLOCKED:'] } } });
    expect(stopText(tags)).toBe('promise tags that are no signal: DONE, BLOCKED:');
  });

  it('tells a failing story from an approval ralph did not see, and a pending one from either', () => {
    const list: TaskList = {
      stories: [
        { id: 'US-1', title: 'Seen', passes: true, reviewStatus: 'approved', priority: 1 },
        { id: 'US-2', title: 'Unseen', passes: true, reviewStatus: 'approved', priority: 2 },
        { id: 'US-3', title: 'Pending', passes: true, reviewStatus: 'pending', priority: 3 },
        { id: 'US-4', title: 'Failing', passes: false, priority: 4 },
      ],
    };
    // US-3 is in the unconfirmed set from an earlier approval, but is pending review again now.
    const iteration = facts({ run: complete, list, unconfirmed: new Set(['US-2', 'US-3']) });
    expect(judge(iteration, {}, { review: true }).rejectedComplete).toEqual([
      { id: 'US-2', title: 'Unseen', why: 'unconfirmed' },
      { id: 'US-3', title: 'Pending', why: 'unreviewed' },
      { id: 'US-4', title: 'Failing', why: 'failing' },
    ]);
  });
});

describe('judge: an iteration whose commits left the branch', () => {
  const rewrite = {
    how: 'rewrite' as const,
    from: { head: 'c2', branch: 'main' },
    to: { head: 'c9', branch: 'main' },
    left: 2,
  };

  it.each([
    ['ended on its own', {}],
    ['ended with a cut-off stream', { truncated: true }],
    ['failed with an error', errorRun(['boom'])],
  ])('is recorded as history_rewritten when the agent %s', (_, run) => {
    expect(judge(facts({ run, rewrite })).outcome).toBe('history_rewritten');
  });

  it.each([
    ['stopped at its time limit', { stoppedBy: { cause: 'timeout' as const } }, 'timeout'],
    ['usage-limited', { failure: { kind: 'usage_limit' as const, limit: {} } }, 'usage_limit'],
  ])('keeps the stronger outcome when ralph %s it', (_, run, outcome) => {
    expect(judge(facts({ run: run as Partial<AgentRun>, rewrite })).outcome).toBe(outcome);
  });

  it('counts as a validation failure however it ended, except when interrupted', () => {
    const timedOut = judge(facts({ run: { stoppedBy: { cause: 'timeout' } }, rewrite }));
    expect(timedOut.counters.validationFailures).toBe(1);
    const interrupted = judge(facts({ run: { stoppedBy: { cause: 'interrupt', signal: 'SIGINT' } }, rewrite }));
    expect(interrupted.counters.validationFailures).toBe(0);
  });
});
