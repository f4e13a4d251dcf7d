import { describe, expect, it } from 'vitest';
import { usageWindowsFromEvent } from '../../../src/agent/usage-windows.js';
import { formatUsage, windowOverShare } from '../../../src/domain/usage.js';

describe('usageWindowsFromEvent', () => {
  it("reads the utilization of the event's own window (devblazer/dodona#32)", () => {
    const event = {
      type: 'rate_limit_event',
      rate_limit_info: {
        status: 'allowed_warning',
        resetsAt: 1787590800,
        rateLimitType: 'seven_day',
        utilization: 0.37,
        isUsingOverage: false,
      },
    };
    expect(usageWindowsFromEvent(event)).toEqual([
      { window: 'seven_day', utilization: 0.37, resetsAt: 1_787_590_800_000 },
    ]);
  });

  it('reads unifiedWindows too (handarbeit/fabrik#1815), an integer 1 included', () => {
    const event = {
      type: 'rate_limit_event',
      rate_limit_info: {
        status: 'rejected',
        rateLimitType: 'five_hour',
        unifiedWindows: {
          five_hour: { utilization: 1, resetsAt: 1787590800 },
          seven_day: { utilization: 0.49, resets_at: 1787850000 },
        },
      },
    };
    expect(usageWindowsFromEvent(event)).toEqual([
      { window: 'five_hour', utilization: 1, resetsAt: 1_787_590_800_000 },
      { window: 'seven_day', utilization: 0.49, resetsAt: 1_787_850_000_000 },
    ]);
  });

  it.each([
    [
      'an allowed event without utilization (anthropics/claude-code#41185)',
      {
        type: 'rate_limit_event',
        rate_limit_info: { status: 'allowed', resetsAt: 1774918800, rateLimitType: 'five_hour' },
      },
    ],
    [
      'a utilization that is no number',
      { type: 'rate_limit_event', rate_limit_info: { rateLimitType: 'five_hour', utilization: '0.9' } },
    ],
    [
      'a negative utilization',
      { type: 'rate_limit_event', rate_limit_info: { rateLimitType: 'five_hour', utilization: -1 } },
    ],
    ['no window name', { type: 'rate_limit_event', rate_limit_info: { utilization: 0.9 } }],
    ['another event', { type: 'result', rate_limit_info: { rateLimitType: 'five_hour', utilization: 0.9 } }],
    ['null', null],
  ])('reads nothing from %s', (_name, event) => {
    expect(usageWindowsFromEvent(event)).toEqual([]);
  });
});

describe('windowOverShare', () => {
  const now = 1_750_000_000_000;

  it('picks the fullest window at or above the share whose reset is ahead', () => {
    const windows = [
      { window: 'five_hour', utilization: 0.9, resetsAt: now + 1000 },
      { window: 'seven_day', utilization: 0.95, resetsAt: now + 2000 },
      { window: 'opus', utilization: 0.99, resetsAt: now - 1 },
    ];
    expect(windowOverShare(windows, 0.9, now)?.window).toBe('seven_day');
    expect(windowOverShare(windows, 0.96, now)).toBeUndefined();
  });
});

describe('formatUsage', () => {
  it('rounds to whole percent', () => {
    expect(
      formatUsage([
        { window: 'five_hour', utilization: 0.925 },
        { window: 'seven_day', utilization: 0.4 },
      ]),
    ).toBe('five_hour 93% · seven_day 40%');
  });
});
