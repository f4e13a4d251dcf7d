import { describe, expect, it } from 'vitest';
import type { ResetSource } from '../../../src/domain/usage.js';
import { usageLimitDetail } from '../../../src/loop/usage-limit-ending.js';

const RESET = Date.parse('2026-11-26T14:00:00Z');

describe('usageLimitDetail: what a usage-limit ending tells the user', () => {
  it.each<[ResetSource, string]>([
    ['event', "read from the agent's rate_limit_event"],
    ['epoch', 'read from the timestamp in the message'],
    ['dated', 'read from the date in the message'],
    ['retry_after', 'read from the retry-after in the message'],
    ['clock', 'read from the clock time in the message'],
  ])('names where the reset time came from: %s', (resetSource, evidence) => {
    const detail = usageLimitDetail({ message: 'limit reached', resetsAt: RESET, resetSource, why: 'stop_requested' });
    expect(detail).toBe(
      `limit reached (resets 2026-11-26T14:00:00.000Z, ${evidence}) — --on-usage-limit stop: run ralph again after 2026-11-26T14:00:00.000Z, or use --on-usage-limit wait`,
    );
  });

  it('says when the agent named no reset time at all', () => {
    const detail = usageLimitDetail({ message: 'limit reached', resetSource: 'backoff', why: 'stop_requested' });
    expect(detail).toBe(
      'limit reached (no reset time: the agent named none) — --on-usage-limit stop: run ralph again after the limit resets, or use --on-usage-limit wait',
    );
  });

  it('a wait past --max-runtime without a reset time still says what to do', () => {
    const detail = usageLimitDetail({ message: 'limit reached', resetSource: 'backoff', why: 'beyond_max_runtime' });
    expect(detail).toBe(
      'limit reached (no reset time: the agent named none) — the reset comes after --max-runtime ends, so ralph stopped instead of waiting: run ralph again after the reset, or allow a longer --max-runtime',
    );
  });
});
