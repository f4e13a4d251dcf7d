import { describe, expect, it } from 'vitest';
import { detailOf, exitCodeFor } from '../../../src/loop/termination.js';

describe('detailOf: agent failures', () => {
  it.each([
    [1, 'the agent failed once; its last error output:'],
    [2, 'the agent failed 2 times in a row; its last error output:'],
  ])('%i → %s', (count, head) => {
    expect(detailOf({ reason: 'agent_failures', count, lastError: ['boom'] })).toBe(`${head}\nboom`);
  });

  it('names a busy server as no usage limit', () => {
    expect(detailOf({ reason: 'agent_failures', count: 3, lastError: [], busy: 'overloaded' })).toBe(
      'the agent failed 3 times in a row (overloaded: the server, not your usage limit); its last error output:',
    );
  });
});

describe('detailOf: usage limits say why the run stopped and what to do', () => {
  const resetsAt = Date.parse('2026-04-01T00:00:00Z');

  it.each([
    [{ why: 'allocation_disabled' }, /no wait lifts that: ask your organisation's admin to re-enable it/],
    [
      { why: 'out_of_credits', hint: "top the agent's credits up" },
      /no wait lifts that: top the agent's credits up, then run ralph again$/,
    ],
    [
      { why: 'monthly_cap' },
      /resets 2026-04-01T00:00:00.000Z, read from the date in the message\) — the monthly usage or spend cap is reached/,
    ],
    [
      { why: 'beyond_max_runtime' },
      /the reset comes after --max-runtime ends.*run ralph again after 2026-04-01T00:00:00.000Z, or allow a longer --max-runtime/,
    ],
    [{ why: 'stop_requested' }, /--on-usage-limit stop: run ralph again after 2026-04-01T00:00:00.000Z/],
  ] as const)('%j', (stop, advice) => {
    const termination = {
      reason: 'usage_limit' as const,
      message: 'limit',
      resetsAt,
      resetSource: 'dated' as const,
      ...stop,
    };
    expect(detailOf(termination)).toMatch(advice);
    expect(detailOf(termination)?.startsWith('limit')).toBe(true);
    expect(exitCodeFor(termination)).toBe(1);
  });

  it('says when the agent named no reset time', () => {
    expect(detailOf({ reason: 'usage_limit', message: 'limit', resetSource: 'backoff', why: 'stop_requested' })).toBe(
      'limit (no reset time: the agent named none) — --on-usage-limit stop: run ralph again after the limit resets, or use --on-usage-limit wait',
    );
  });
});
