import { describe, expect, it } from 'vitest';
import { resetFromText } from '../../../src/agent/limit-reset.js';

/**
 * When a limit lifts, read from the client's words. Every test passes the local zone in (never the
 * machine's), so none depends on where or how the suite runs. An undefined reset is what the user
 * sees as ralph falling back to its own backoff.
 */
const at = (iso: string) => Date.parse(iso);
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

describe('a reset on a named date', () => {
  // The wording of anthropics/claude-code#92834 ("You've hit your weekly limit · resets Sep 15 at
  // 7pm"), each month in turn.
  it.each(MONTHS.map((name, index) => [name, index + 1] as const))(
    'reads %s as month %i: "resets %s 15 at 7pm" lifts on the 15th',
    (name, month) => {
      const now = Date.UTC(2026, month - 1, 1);
      expect(resetFromText(`You've hit your weekly limit · resets ${name} 15 at 7pm`, now, 'UTC')).toEqual({
        at: Date.UTC(2026, month - 1, 15, 19),
        source: 'dated',
      });
    },
  );

  it.each([
    ['a month spelt out', 'resets September 15 at 7pm', '2026-09-15T19:00:00Z'],
    ['an abbreviation with a dot', 'resets Sept. 15 at 7pm', '2026-09-15T19:00:00Z'],
    ['lower case', 'resets sep 15 at 7pm', '2026-09-15T19:00:00Z'],
    ['capitals', 'RESETS SEP 15 AT 7PM', '2026-09-15T19:00:00Z'],
    // The /usage screen of anthropics/claude-code#16618: "Resets Jan 12, 10:59am (America/New_York)".
    ['a comma and a zone, as /usage prints it', 'Resets Sep 12, 10:59am (America/New_York)', '2026-09-12T14:59:00Z'],
  ])('reads %s', (_name, text, resetsAt) => {
    expect(resetFromText(text, at('2026-09-01T00:00:00Z'), 'UTC')?.at).toBe(at(resetsAt));
  });

  // Codex 0.171 (codex-rs format_retry_timestamp): a clock time today, else `Sep 26th, 2026 3:05 PM`.
  it('reads Codex\'s reset on another day: "try again at Dec 7th, 2026 12:15 AM", local time, its year kept', () => {
    const text = 'You’ve hit your usage limit. Upgrade to Pro (…), visit … or try again at Dec 7th, 2026 12:15 AM.';
    expect(resetFromText(text, Date.UTC(2026, 11, 6, 23, 50), 'UTC')).toEqual({
      at: Date.UTC(2026, 11, 7, 0, 15),
      source: 'dated',
    });
    expect(resetFromText(text, Date.UTC(2026, 11, 6, 23, 50), 'Europe/Berlin')?.at).toBe(Date.UTC(2026, 11, 6, 23, 15));
  });

  it('passes over a word in the date\'s place that is no month ("on attempt 2 at 10:05") for the date after it', () => {
    const text = 'gave up on attempt 2 at 10:05 · resets Jan 12, 10:59am (America/New_York)';
    expect(resetFromText(text, at('2026-01-07T14:12:38Z'), 'UTC')).toEqual({
      at: at('2026-01-12T15:59:00Z'),
      source: 'dated',
    });
  });

  it.each([
    ['Feb 30', '2026-01-20T00:00:00Z', 'resets Feb 30 at 9am (UTC)'],
    ['Feb 29 in a common year', '2027-02-20T00:00:00Z', 'resets Feb 29 at 9am (UTC)'],
    ['Apr 31', '2026-04-20T00:00:00Z', 'resets Apr 31 at 9am (UTC)'],
    ['Jan 0', '2026-01-20T00:00:00Z', 'resets Jan 0 at 9am (UTC)'],
    ['Dec 32', '2026-12-20T00:00:00Z', 'resets Dec 32 at 9am (UTC)'],
    ['2026-02-30', '2026-01-20T00:00:00Z', 'You will regain access on 2026-02-30 at 00:00 UTC.'],
    ['month 13', '2026-12-20T00:00:00Z', 'You will regain access on 2026-13-01 at 00:00 UTC.'],
    ['month 00', '2026-01-20T00:00:00Z', 'You will regain access on 2026-00-15 at 00:00 UTC.'],
  ])(
    'a reset dated %s is no date: ralph falls back to its backoff, not to the day luxon rolls it to',
    (_name, now, text) => {
      expect(resetFromText(text, at(now), 'UTC')).toBeUndefined();
    },
  );

  it('reads Feb 29 in a leap year', () => {
    expect(resetFromText('resets Feb 29 at 9am (UTC)', at('2028-02-25T00:00:00Z'), 'UTC')?.at).toBe(
      at('2028-02-29T09:00:00Z'),
    );
  });
});

describe('the year of a date the message does not give', () => {
  it("a reset in January read in December is next year's", () => {
    expect(resetFromText('resets Jan 2 at 9am (UTC)', at('2025-12-30T12:00:00Z'), 'UTC')?.at).toBe(
      at('2026-01-02T09:00:00Z'),
    );
  });

  it("a reset in December read in January is last year's, long past: ralph falls back to its backoff, not to next December", () => {
    expect(resetFromText('resets Dec 30 at 9am (UTC)', at('2026-01-02T12:00:00Z'), 'UTC')).toBeUndefined();
  });

  // 180 days before 2026-07-01T09:00Z is 2026-01-02T09:00Z; 180 days after it, 2026-12-28T09:00Z.
  const now = at('2026-07-01T09:00:00Z');

  it("a date exactly half a year (180 days) back is this year's, long past: no reset", () => {
    expect(resetFromText('resets Jan 2 at 9am (UTC)', now, 'UTC')).toBeUndefined();
  });

  it("a date a minute more than half a year back is next year's", () => {
    expect(resetFromText('resets Jan 2 at 8:59am (UTC)', now, 'UTC')?.at).toBe(at('2027-01-02T08:59:00Z'));
  });

  it("a date exactly half a year ahead is this year's", () => {
    expect(resetFromText('resets Dec 28 at 9am (UTC)', now, 'UTC')?.at).toBe(at('2026-12-28T09:00:00Z'));
  });

  it("a date a minute more than half a year ahead is last year's, long past: no reset", () => {
    expect(resetFromText('resets Dec 28 at 9:01am (UTC)', now, 'UTC')).toBeUndefined();
  });
});

describe('a dated reset that has passed', () => {
  const now = at('2026-03-24T10:00:00Z');

  it("a date earlier today or yesterday is that moment (ralph retries at once), not next year's", () => {
    expect(resetFromText('resets Mar 23 at 9pm (UTC)', now, 'UTC')).toEqual({
      at: at('2026-03-23T21:00:00Z'),
      source: 'dated',
    });
  });

  it('a date later today is read as it is', () => {
    expect(resetFromText('resets Mar 24 at 3pm (UTC)', now, 'UTC')).toEqual({
      at: at('2026-03-24T15:00:00Z'),
      source: 'dated',
    });
  });

  it('a date a full day back is no reset to wait for', () => {
    expect(resetFromText('resets Mar 23 at 10am (UTC)', now, 'UTC')).toBeUndefined();
    expect(resetFromText('resets Mar 23 at 10:01am (UTC)', now, 'UTC')?.at).toBe(at('2026-03-23T10:01:00Z'));
  });
});

describe('a reset on an ISO date', () => {
  // The API's spend-limit wording, anthropics/claude-code#2127: "You will regain access on 2025-07-01 at 00:00 UTC."
  it('keeps the year it names, across new year', () => {
    expect(
      resetFromText('You will regain access on 2027-01-01 at 00:00 UTC.', at('2026-12-30T12:00:00Z'), 'UTC'),
    ).toEqual({ at: at('2027-01-01T00:00:00Z'), source: 'dated' });
  });

  it("names its year, so a date months back is no reset, not next year's", () => {
    expect(
      resetFromText('You will regain access on 2026-01-01 at 00:00 UTC.', at('2026-07-15T00:00:00Z'), 'UTC'),
    ).toBeUndefined();
  });

  it('is read in the local zone when it names none', () => {
    expect(
      resetFromText('You will regain access on 2026-04-01 at 09:00.', at('2026-03-23T00:00:00Z'), 'Asia/Tokyo')?.at,
    ).toBe(at('2026-04-01T00:00:00Z'));
  });

  it('is read in the zone it names, not the local zone', () => {
    expect(
      resetFromText('You will regain access on 2026-04-01 at 00:00 UTC.', at('2026-03-23T00:00:00Z'), 'Asia/Tokyo')?.at,
    ).toBe(at('2026-04-01T00:00:00Z'));
  });

  it('reads its words, clock and zone in any case', () => {
    expect(
      resetFromText('YOU WILL REGAIN ACCESS ON 2026-04-01 AT 9:00 PM utc.', at('2026-03-23T00:00:00Z'), 'Asia/Tokyo')
        ?.at,
    ).toBe(at('2026-04-01T21:00:00Z'));
  });
});

describe('a reset at a clock time', () => {
  const now = at('2025-06-15T10:00:00Z');
  const clock = (text: string) => resetFromText(text, now, 'Asia/Tokyo')?.at;

  it.each([
    ['the last minute of an hour', 'resets 2:59pm (UTC)', '2025-06-15T14:59:00Z'],
    ['the last hour of a 24-hour day', 'resets 23:30 (UTC)', '2025-06-15T23:30:00Z'],
    ['GMT as UTC', 'resets 3pm (GMT)', '2025-06-15T15:00:00Z'],
    ['the zone word after the time, in lower case', 'resets 3pm utc', '2025-06-15T15:00:00Z'],
    ['the zone word after a 24-hour time', 'resets 14:00 UTC', '2025-06-15T14:00:00Z'],
    ['a fixed offset', 'resets 3pm (UTC+5)', '2025-06-15T10:00:00Z'],
  ])('reads %s', (_name, text, resetsAt) => {
    expect(clock(text)).toBe(at(resetsAt));
  });

  it.each([
    ['minute 60', 'resets 2:60pm (UTC)'],
    ['hour 24 on a 24-hour clock', 'resets 24:00 (UTC)'],
    ['hour 25', 'resets 25:00 (UTC)'],
    ['0am', 'resets 0am (UTC)'],
    ['13pm', 'resets 13pm (UTC)'],
  ])('takes no time from %s: ralph falls back to its backoff', (_name, text) => {
    expect(clock(text)).toBeUndefined();
  });

  it("with no zone named or given, reads a clock time in the machine's zone: within the next day", () => {
    const reset = resetFromText('5-hour limit reached ∙ resets 2pm', now);
    expect(reset?.source).toBe('clock');
    expect(reset?.at).toBeGreaterThanOrEqual(now - 5 * 60_000);
    // 24 hours, and one more for a clock put back overnight.
    expect(reset?.at).toBeLessThanOrEqual(now + 25 * 3600_000);
  });

  // anthropics/claude-code#2087: "Your limit will reset at 1pm (Etc/GMT+5)", the error logged at 17:56:06Z.
  it('reads Etc/GMT+5 as five hours behind UTC (the IANA sign is inverted)', () => {
    expect(
      resetFromText(
        'Claude usage limit reached. Your limit will reset at 1pm (Etc/GMT+5).',
        at('2025-06-14T17:56:06.833Z'),
        'America/New_York',
      ),
    ).toEqual({ at: at('2025-06-14T18:00:00Z'), source: 'clock' });
  });

  it('takes no time from a zone luxon does not know, even one named like GMT', () => {
    expect(clock('resets 3pm (Mars/GMT)')).toBeUndefined();
    expect(clock('resets 3pm (GMT+5)')).toBeUndefined();
  });
});

describe('a retry-after', () => {
  const now = at('2026-06-25T12:53:45Z');

  it.each([
    ['a bare count, as the header gives it', 'retry-after: 990', 990],
    ['the header without a space', 'retry-after:120', 120],
    ['the header without a colon', 'Retry-After 30', 30],
    ['seconds after the number', 'Retry in 156s.', 156],
    ['seconds spelt out', 'Please retry after 30 seconds', 30],
    ['one second', 'retry after 1 second', 1],
    ['wide spaces', 'retry  in  45 secs', 45],
    ['one minute', 'retry in 1 minute', 60],
    ['minutes spelt out', 'Please retry after 2 minutes.', 120],
    ['minutes, short', 'retry in 5 min', 300],
    ['minutes, short and plural', 'retry in 5 mins', 300],
    ['minutes, one letter, no space', 'retry in 30m', 1800],
    ['minutes in capitals', 'RETRY IN 5 MIN', 300],
    ['one hour', 'retry after 1 hour', 3600],
    ['hours, short', 'retry after 2 hr', 7200],
    ['hours, short and plural', 'retry after 2 hrs', 7200],
    ['hours, one letter', 'retry in 1h', 3600],
  ])('reads %s: %j', (_name, text, seconds) => {
    expect(resetFromText(text, now, 'UTC')).toEqual({ at: now + seconds * 1000, source: 'retry_after' });
  });

  it('takes no wait from a unit it does not know (500ms is not 500 seconds)', () => {
    expect(resetFromText('retry in 500ms', now, 'UTC')).toBeUndefined();
  });

  it("reads the header's count, not a word on the next line, as seconds", () => {
    // router-for-me/CLIProxyAPI#4761: the 429's headers, one a line, joined as a wrapped message is.
    expect(resetFromText('HTTP/1.1 429 Retry-After: 124633 X-Should-Retry: true', now, 'UTC')?.at).toBe(
      now + 124_633_000,
    );
  });
});

describe('an epoch after the bar', () => {
  const now = at('2025-06-15T10:00:00Z');

  it('reads 11 digits as seconds and 12 or more as milliseconds', () => {
    expect(resetFromText('Claude AI usage limit reached|99999999999', now, 'UTC')?.at).toBe(99_999_999_999_000);
    expect(resetFromText('Claude AI usage limit reached|100000000000', now, 'UTC')?.at).toBe(100_000_000_000);
  });
});

describe('a reset on a weekday', () => {
  // 2026-11-25 is a Wednesday; 8pm in Los Angeles (PST, UTC-8) is 04:00 UTC the next day.
  const text = "You've hit your weekly limit · resets Wednesday 8pm (America/Los_Angeles)";

  it('is the next such weekday at that time, in the zone it names', () => {
    // Monday 23 November, 10:00 in Los Angeles.
    expect(resetFromText(text, at('2026-11-23T18:00:00Z'), 'Asia/Tokyo')).toEqual({
      at: at('2026-11-26T04:00:00Z'),
      source: 'dated',
    });
  });

  it("is today's when the day is that weekday and the time is still to come", () => {
    expect(resetFromText(text, at('2026-11-25T20:00:00Z'), 'UTC')?.at).toBe(at('2026-11-26T04:00:00Z'));
  });

  it("is next week's once the time has passed, and the printed minute itself is now", () => {
    expect(resetFromText(text, at('2026-11-26T04:03:00Z'), 'UTC')?.at).toBe(at('2026-11-26T04:00:00Z'));
    expect(resetFromText(text, at('2026-11-26T05:00:00Z'), 'UTC')?.at).toBe(at('2026-12-03T04:00:00Z'));
  });

  it('takes the weekday in the named zone, not in UTC: Wednesday there may be Thursday here', () => {
    // Thursday 26 November 02:00 UTC is still Wednesday 18:00 in Los Angeles.
    expect(resetFromText(text, at('2026-11-26T02:00:00Z'), 'UTC')?.at).toBe(at('2026-11-26T04:00:00Z'));
  });

  it.each([
    [
      'an abbreviation with minutes, as claude.ai prints it (anthropics/claude-code#69082)',
      'Resets Fri 4:00 PM',
      '2026-11-27T16:00:00Z',
    ],
    ['"on" and "at"', 'access returns on Sunday at 09:30 (UTC)', '2026-11-29T09:30:00Z'],
    ['a dotted abbreviation', 'resets Thurs. 7am', '2026-11-26T07:00:00Z'],
  ])('reads %s', (_name, text, resetsAt) => {
    expect(resetFromText(text, at('2026-11-25T12:00:00Z'), 'UTC')?.at).toBe(at(resetsAt));
  });

  it('takes no time from a weekday without a time, or a word that only starts like one', () => {
    expect(resetFromText('resets Wednesday', at('2026-11-25T12:00:00Z'), 'UTC')).toBeUndefined();
    expect(resetFromText('on sunny 12:00 days', at('2026-11-25T12:00:00Z'), 'UTC')).toBeUndefined();
  });
});
