import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { amp } from '../../../src/agent/amp/dialect.js';
import { codex } from '../../../src/agent/codex/dialect.js';
import { RETRY_ONLY_LIMIT_MS, retryOnlyLimit, StallWatch } from '../../../src/agent/stall-watch.js';
import type { FatalAgentFailure } from '../../../src/domain/agent-failure.js';

describe('StallWatch: a client that will never work is ended as what it is', () => {
  let verdicts: FatalAgentFailure[];
  beforeEach(() => {
    vi.useFakeTimers();
    verdicts = [];
  });
  afterEach(() => vi.useRealTimers());

  it('calls two minutes of nothing but retries an unreachable network, with the last retry and the fix', () => {
    const watch = new StallWatch(codex, (failure) => verdicts.push(failure));
    watch.retry('Reconnecting... 2/5 (stream disconnected before completion)');
    vi.advanceTimersByTime(RETRY_ONLY_LIMIT_MS - 1);
    watch.retry('Reconnecting... waiting for network');
    expect(verdicts).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(verdicts).toEqual([
      {
        kind: 'setup',
        cause: 'network',
        message: 'Codex did nothing but retry for 2 minutes: Reconnecting... waiting for network',
        hint: codex.hints.network,
      },
    ]);
  });

  it('starts over when the client does anything else, and says nothing once stopped', () => {
    const watch = new StallWatch(codex, (failure) => verdicts.push(failure));
    watch.retry('Reconnecting... 2/5');
    vi.advanceTimersByTime(RETRY_ONLY_LIMIT_MS - 10);
    watch.progress();
    watch.retry('Reconnecting... 2/5');
    vi.advanceTimersByTime(RETRY_ONLY_LIMIT_MS - 10);
    expect(verdicts).toEqual([]);
    watch.stop();
    vi.advanceTimersByTime(RETRY_ONLY_LIMIT_MS);
    expect(verdicts).toEqual([]);
  });

  it("ends a login prompt at once as not logged in, in the client's words; other plain lines are no verdict", () => {
    const watch = new StallWatch(amp, (failure) => verdicts.push(failure));
    watch.plainLine('If your browser does not open automatically, visit:');
    expect(verdicts).toEqual([]);
    watch.plainLine('No API key found. Starting login flow...');
    watch.plainLine('When prompted, paste your code here: ');
    expect(verdicts).toEqual([
      { kind: 'auth', message: 'No API key found. Starting login flow...', hint: amp.hints.auth },
    ]);
  });
});

describe('retryOnlyLimit: the window the end-to-end tests shorten', () => {
  it.each([
    [undefined, RETRY_ONLY_LIMIT_MS],
    ['3000', 3000],
    ['1000', 1000],
    // Never longer than two minutes, never so short that a client's first retry ends it, never a fraction.
    ['600000', RETRY_ONLY_LIMIT_MS],
    ['999', RETRY_ONLY_LIMIT_MS],
    ['0', RETRY_ONLY_LIMIT_MS],
    ['-5', RETRY_ONLY_LIMIT_MS],
    ['1500.5', RETRY_ONLY_LIMIT_MS],
    ['soon', RETRY_ONLY_LIMIT_MS],
  ])('RALPH_TEST_RETRY_WINDOW_MS=%j gives %i ms', (value, ms) => {
    expect(retryOnlyLimit(value === undefined ? {} : { RALPH_TEST_RETRY_WINDOW_MS: value })).toBe(ms);
  });

  it('names a shortened window in seconds', () => {
    vi.useFakeTimers();
    const verdicts: FatalAgentFailure[] = [];
    const watch = new StallWatch(codex, (failure) => verdicts.push(failure), 3000);
    watch.retry('Reconnecting... 2/5');
    vi.advanceTimersByTime(3000);
    vi.useRealTimers();
    expect(verdicts[0]?.message).toBe('Codex did nothing but retry for 3 seconds: Reconnecting... 2/5');
  });
});
