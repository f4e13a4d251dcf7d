import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  detectServerBusy,
  detectUsageLimit,
  isLimitStatus,
  usageLimitFromEvent,
} from '../../../src/agent/usage-limit.js';

const at = (iso: string) => Date.parse(iso);
const fixture = (name: string) => readFileSync(new URL(`../../fixtures/claude/${name}`, import.meta.url), 'utf8');

describe('detectUsageLimit: reset times in the zone the message names', () => {
  // A fixed clock: 10:00 UTC on a summer Sunday.
  const now = at('2025-06-15T10:00:00Z');

  it.each([
    [
      'rolls a past time to the next day (Amsterdam, 12:00 local now)',
      "You've hit your limit · resets 5am (Europe/Amsterdam)",
      '2025-06-16T03:00:00Z',
    ],
    [
      'reads the session-limit wording (Berlin)',
      "You've hit your session limit · resets 9am (Europe/Berlin)",
      '2025-06-16T07:00:00Z',
    ],
    [
      'keeps a later time today, with minutes (New York, 06:00 local now)',
      "You've hit your limit · resets 2:30pm (America/New_York)",
      '2025-06-15T18:30:00Z',
    ],
    [
      'reads a half-hour zone (Kolkata, 15:30 local now)',
      "You've hit your limit · resets 4pm (Asia/Kolkata)",
      '2025-06-15T10:30:00Z',
    ],
    [
      'reads a quarter-hour zone (Kathmandu, 15:45 local now)',
      "You've hit your limit · resets 3pm (Asia/Kathmandu)",
      '2025-06-16T09:15:00Z',
    ],
    [
      'reads a zone across the date line (Auckland, 22:00 local now)',
      "You've hit your limit · resets 1am (Pacific/Auckland)",
      '2025-06-15T13:00:00Z',
    ],
    [
      'reads a zone with a three-part name',
      "You've hit your limit · resets 8am (America/Argentina/Buenos_Aires)",
      '2025-06-15T11:00:00Z',
    ],
    ['reads UTC', "You've hit your limit · resets 11am (UTC)", '2025-06-15T11:00:00Z'],
    ['reads 12am as midnight', "You've hit your limit · resets 12am (UTC)", '2025-06-16T00:00:00Z'],
    ['reads 12pm as noon', "You've hit your limit · resets 12pm (UTC)", '2025-06-15T12:00:00Z'],
    [
      'reads a reset at exactly now as now, not tomorrow',
      "You've hit your limit · resets 10am (UTC)",
      '2025-06-15T10:00:00Z',
    ],
    ['reads a 24-hour clock', "You've hit your limit · resets 14:05 (UTC)", '2025-06-15T14:05:00Z'],
    ['reads upper-case and dotted meridiems', "You've hit your limit · resets 3 P.M. (UTC)", '2025-06-15T15:00:00Z'],
    ['reads a typographic apostrophe', 'You’ve hit your limit · resets 3pm (UTC)', '2025-06-15T15:00:00Z'],
    ['reads "resets tomorrow at"', "You've hit your limit · resets tomorrow at 3pm (UTC)", '2025-06-16T15:00:00Z'],
    [
      'reads the older "will reset at" wording',
      'Claude usage limit reached. Your limit will reset at 3pm (America/New_York).',
      '2025-06-15T19:00:00Z',
    ],
    [
      'reads a date with "at"',
      'Weekly limit reached · resets Jun 22 at 9:30am (America/Los_Angeles)',
      '2025-06-22T16:30:00Z',
    ],
    [
      'reads a date with a comma',
      'Opus weekly limit reached ∙ resets Jul 6, 1pm (Europe/Paris)',
      '2025-07-06T11:00:00Z',
    ],
    ['reads epoch seconds after the bar', 'Claude AI usage limit reached|1751234400', '2025-06-29T22:00:00Z'],
  ])('%s', (_name, text, resetsAt) => {
    expect(detectUsageLimit(text, now)).toMatchObject({ message: text, reset: { at: at(resetsAt) } });
  });

  it('takes a date in January from a December message as next year', () => {
    const limit = detectUsageLimit('Weekly limit reached · resets Jan 2 at 9am (UTC)', at('2025-12-30T12:00:00Z'));
    expect(limit?.reset?.at).toBe(at('2026-01-02T09:00:00Z'));
  });

  it('refuses a date that does not exist instead of rolling it over', () => {
    expect(detectUsageLimit('Weekly limit reached · resets Feb 30 at 9am (UTC)', now)).toEqual({
      message: 'Weekly limit reached · resets Feb 30 at 9am (UTC)',
    });
  });
});

describe('detectUsageLimit across daylight-saving changes (wall-clock time, not a fixed offset)', () => {
  it.each([
    // Europe springs forward on 30 March 2025: 9am the next morning is CEST (+2), not CET (+1).
    ['Berlin, the night before spring forward', '2025-03-29T22:00:00Z', '9am (Europe/Berlin)', '2025-03-30T07:00:00Z'],
    // Europe falls back on 26 October 2025: 9am that morning is CET (+1), not CEST (+2).
    ['Berlin, the night of fall back', '2025-10-25T22:00:00Z', '9am (Europe/Berlin)', '2025-10-26T08:00:00Z'],
    // The US springs forward on 9 March 2025.
    [
      'New York, the evening before spring forward',
      '2025-03-08T23:00:00Z',
      '5am (America/New_York)',
      '2025-03-09T09:00:00Z',
    ],
    // Sydney springs forward on 5 October 2025 (AEST +10 to AEDT +11).
    [
      'Sydney, the evening before spring forward',
      '2025-10-04T12:00:00Z',
      '9am (Australia/Sydney)',
      '2025-10-04T22:00:00Z',
    ],
    // 2:30am does not exist in New York on 9 March 2025; the clock jumps to 3:30am EDT.
    [
      'a time inside the spring-forward gap',
      '2025-03-09T05:00:00Z',
      '2:30am (America/New_York)',
      '2025-03-09T07:30:00Z',
    ],
    // 1:30am happens twice in New York on 2 November 2025; the first (EDT) is taken.
    [
      'a time that happens twice at fall back',
      '2025-11-02T04:00:00Z',
      '1:30am (America/New_York)',
      '2025-11-02T05:30:00Z',
    ],
  ])('%s', (_name, now, reset, resetsAt) => {
    expect(detectUsageLimit(`You've hit your limit · resets ${reset}`, at(now))?.reset?.at).toBe(at(resetsAt));
  });
});

describe('detectUsageLimit: a reset time without a zone', () => {
  const now = at('2025-06-15T10:00:00Z');

  it.each([
    ['UTC', '2025-06-15T14:00:00Z'],
    ['Asia/Tokyo', '2025-06-16T05:00:00Z'],
    ['America/New_York', '2025-06-15T18:00:00Z'],
  ])('reads it in the given local zone %s', (zone, resetsAt) => {
    expect(detectUsageLimit('5-hour limit reached ∙ resets 2pm', now, zone)).toEqual({
      message: '5-hour limit reached ∙ resets 2pm',
      reset: { at: at(resetsAt), source: 'clock' },
    });
  });

  it('prefers the zone the message names over the local zone', () => {
    expect(detectUsageLimit("You've hit your limit · resets 2pm (UTC)", now, 'Asia/Tokyo')?.reset?.at).toBe(
      at('2025-06-15T14:00:00Z'),
    );
  });
});

describe('detectUsageLimit: a clock time just passed is now, not tomorrow', () => {
  it.each([
    ['30 seconds after the printed minute', '2025-06-15T14:00:30', '2025-06-15T14:00:00'],
    ['five minutes after', '2025-06-15T14:05:00', '2025-06-15T14:00:00'],
    ['a second more than five minutes after: tomorrow', '2025-06-15T14:05:01', '2025-06-16T14:00:00'],
  ])('%s', (_name, localNow, localReset) => {
    const zone = 'Europe/Berlin';
    // 14:00 in Berlin in June is 12:00 UTC.
    const toUtc = (local: string) => Date.parse(`${local}+02:00`);
    expect(detectUsageLimit('5-hour limit reached ∙ resets 2pm', toUtc(localNow), zone)?.reset).toEqual({
      at: toUtc(localReset),
      source: 'clock',
    });
  });
});

describe('detectUsageLimit: the order of evidence in the text', () => {
  const now = at('2026-03-23T23:08:46Z');

  it.each([
    [
      'an epoch beats a clock time',
      'Claude AI usage limit reached|1774310400 · resets 2pm (UTC)',
      { at: 1_774_310_400_000, source: 'epoch' },
    ],
    [
      'a dated text in its named zone',
      'You have reached your specified API usage limits. You will regain access on 2026-04-01 at 00:00 UTC.',
      { at: at('2026-04-01T00:00:00Z'), source: 'dated' },
    ],
    [
      'a month-named date',
      "You've hit your limit · resets Apr 23 at 4pm (America/New_York)",
      { at: at('2026-04-23T20:00:00Z'), source: 'dated' },
    ],
    [
      'a retry-after beats a clock time',
      'API Error: 429 rate_limit_error · retry-after: 120 · resets 2pm (UTC)',
      { at: now + 120_000, source: 'retry_after' },
    ],
    [
      'Retry in Ns',
      'API Error: 429 · Rate limit exceeded. Retry in 156s.',
      { at: now + 156_000, source: 'retry_after' },
    ],
  ])('%s', (_name, text, reset) => {
    expect(detectUsageLimit(text, now)?.reset).toEqual(reset);
  });

  it('joins a message wrapped across terminal lines', () => {
    const text =
      'API Error: 400 {"type":"error","error":{"type":"invalid_request_error","message":"You\n    have reached your specified API usage limits. You will regain access on 2025-07-01 at\n    00:00 UTC."}}';
    expect(detectUsageLimit(text, at('2025-06-16T01:47:32Z'))).toMatchObject({
      exhausted: 'monthly_cap',
      reset: { at: at('2025-07-01T00:00:00Z'), source: 'dated' },
    });
  });

  it('takes no date from a log line, and none that lies more than a day back', () => {
    expect(
      detectUsageLimit(
        "You've hit your limit\n[wrapper] exited at 2026-03-23T23:00:00Z\nMon Mar 23 23:00:00 UTC 2026",
        now,
      )?.reset,
    ).toBeUndefined();
    expect(
      detectUsageLimit(
        'You have reached your specified API usage limits. You will regain access on 2026-03-01 at 00:00 UTC.',
        now,
      )?.reset,
    ).toBeUndefined();
  });

  it('reads no limit in a notice that the client switched to another model', () => {
    expect(detectUsageLimit('Claude Opus 4 limit reached, now using Sonnet 4', now)).toBeUndefined();
  });
});

describe('detectUsageLimit: limits no wait lifts', () => {
  const now = at('2026-05-01T10:00:00Z');

  it.each([
    ["You've hit your org's monthly usage limit", 'monthly_cap'],
    [
      'Your usage allocation has been disabled by your admin · run /usage-credits to ask your admin for a higher limit',
      'allocation_disabled',
    ],
    ["You're out of usage credits. Switch to another model to keep working.", 'out_of_credits'],
    ['Your org is out of usage · add funds to continue', 'out_of_credits'],
    [
      'You have reached your specified API usage limits. You will regain access on 2026-06-01 at 00:00 UTC.',
      'monthly_cap',
    ],
  ])('%s', (text, exhausted) => {
    expect(detectUsageLimit(text, now)).toMatchObject({ message: text, exhausted });
  });
});

describe('detectServerBusy', () => {
  const now = at('2026-06-25T12:53:45Z');

  it.each([
    [
      'API Error: Server is temporarily limiting requests (not your usage limit) · Rate limited',
      'rate_limited',
      undefined,
    ],
    ['Server is temporarily limiting requests (not your usage limit). Retry in 156s.', 'rate_limited', now + 156_000],
    ['API Error: 529 Overloaded', 'overloaded', undefined],
    ['API Error: Repeated 529 Overloaded errors', 'overloaded', undefined],
    ['API Error: {"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}', 'overloaded', undefined],
    ['API Error: 500 {"type":"error","error":{"type":"api_error","message":"Overloaded"}}', 'overloaded', undefined],
  ])('%s', (text, kind, retryAt) => {
    expect(detectServerBusy(text, now)).toEqual({ kind, message: text, ...(retryAt === undefined ? {} : { retryAt }) });
  });

  it.each(["You've hit your limit · resets 2pm", 'Overloaded operators are confusing', 'Tests: 529 passed'])(
    '%j is no busy server',
    (text) => {
      expect(detectServerBusy(text, now)).toBeUndefined();
    },
  );
});

describe('detectUsageLimit: limits without a usable reset time', () => {
  const now = at('2025-06-15T10:00:00Z');

  it.each([
    ['an unknown zone', "You've hit your limit · resets 5am (Mars/Olympus_Mons)"],
    ['an hour that is no hour', "You've hit your limit · resets 13pm (UTC)"],
    ['minutes past 59', "You've hit your limit · resets 2:75pm (UTC)"],
    ['a bare number', "You've hit your limit · resets 5 (UTC)"],
    ['no reset at all', "You've hit your limit"],
    ['the request-rejected wording', 'API Error: Request rejected (429) · The usage limit has been reached'],
    [
      'a 429 body',
      'API Error: 429 {"type":"error","error":{"type":"rate_limit_error","message":"Number of request tokens has exceeded your per-minute rate limit"}}',
    ],
    ['a bare rate_limit_error', '{"type":"rate_limit_error"}'],
    ['HTTP 429', 'HTTP 429 Too Many Requests'],
    ['HTTP/1.1 429', 'HTTP/1.1 429'],
    ['a status code', 'request failed with status code 429'],
    ['429 Too Many Requests', 'Error: 429 Too Many Requests'],
    ['rate limit exceeded', 'Rate limit exceeded, please retry later'],
    ['rate-limited', 'You are being rate-limited'],
    ['extra usage used up', "You're out of extra usage · add funds to continue"],
  ])('recognises %s, without a reset time', (_name, text) => {
    expect(detectUsageLimit(text, now)).toEqual({ message: text });
  });

  it('ignores a zone-less time when the local zone given is unknown', () => {
    expect(detectUsageLimit('5-hour limit reached ∙ resets 2pm', now, 'Not/AZone')).toEqual({
      message: '5-hour limit reached ∙ resets 2pm',
    });
  });
});

describe('detectUsageLimit: what the message is', () => {
  const now = at('2025-06-15T10:00:00Z');

  it('is the first matching line, trimmed, from text of several lines', () => {
    const text =
      "Starting…\r\n   \tYou've hit your limit · resets 5am (UTC)  \r\nYou've hit your limit · resets 6am (UTC)\n";
    expect(detectUsageLimit(text, now)).toEqual({
      message: "You've hit your limit · resets 5am (UTC)",
      reset: { at: at('2025-06-16T05:00:00Z'), source: 'clock' },
    });
  });

  it('is shortened when the line is very long', () => {
    const limit = detectUsageLimit(`API Error: 429 ${'x'.repeat(10_000)}`, now);
    expect(limit?.message.length).toBe(300);
    expect(limit?.message.endsWith('…')).toBe(true);
  });
});

describe('detectUsageLimit: ordinary text is no limit', () => {
  const now = at('2025-06-15T10:00:00Z');

  it.each([
    'I will check the usage limit docs',
    'usage limit',
    'The usage limit is documented in docs/limits.md',
    'Approaching usage limit · resets at 3pm',
    'resets 5am (Europe/Amsterdam)',
    'Tests: 429 passed, 0 failed',
    '529 files changed, 12 insertions(+)',
    'The rate limit docs say 50 requests per minute',
    'Overloaded operators are confusing',
    "You've hit your stride",
    'Error: ENOENT: no such file or directory',
    'Not logged in · Please run /login',
    '',
  ])('%j', (text) => {
    expect(detectUsageLimit(text, now)).toBeUndefined();
  });

  it.each([
    'not-logged-in.text.stdout',
    'not-logged-in.stream.jsonl',
    'not-logged-in.json.stdout',
    'root-refusal.stderr',
    'no-network.stream.jsonl',
  ])('finds none in the real client output %s', (name) => {
    expect(detectUsageLimit(fixture(name), now)).toBeUndefined();
  });
});

describe('usageLimitFromEvent', () => {
  it('reads a rejected rate_limit_event and its reset time in epoch seconds', () => {
    const event = JSON.parse(
      '{"type":"rate_limit_event","rate_limit_info":{"status":"rejected","rateLimitType":"five_hour","resetsAt":1783173600}}',
    );
    expect(usageLimitFromEvent(event)).toEqual({
      message: 'usage limit reached (five_hour)',
      reset: { at: 1_783_173_600_000, source: 'event' },
    });
  });

  it('reads a rejected event without a type or reset time', () => {
    expect(usageLimitFromEvent({ type: 'rate_limit_event', rate_limit_info: { status: 'rejected' } })).toEqual({
      message: 'usage limit reached',
    });
  });

  it.each([
    [
      'allowed',
      {
        type: 'rate_limit_event',
        rate_limit_info: { status: 'allowed', resetsAt: 1783173600, rateLimitType: 'five_hour' },
      },
    ],
    [
      'allowed_warning',
      { type: 'rate_limit_event', rate_limit_info: { status: 'allowed_warning', resetsAt: 1783173600 } },
    ],
    ['an unknown status', { type: 'rate_limit_event', rate_limit_info: { status: 'REJECTED' } }],
    ['no info', { type: 'rate_limit_event' }],
    ['info that is not an object', { type: 'rate_limit_event', rate_limit_info: 'rejected' }],
    ['another event type', { type: 'result', rate_limit_info: { status: 'rejected' } }],
    ['the status at the top level', { type: 'rate_limit_event', status: 'rejected' }],
    ['null', null],
    ['a string', 'rate_limit_event'],
    ['an array', [{ type: 'rate_limit_event', rate_limit_info: { status: 'rejected' } }]],
  ])('ignores %s', (_name, event) => {
    expect(usageLimitFromEvent(event)).toBeUndefined();
  });

  it.each([
    ['a string', '1783173600'],
    ['zero', 0],
    ['a negative number', -5],
    ['infinity', Number.POSITIVE_INFINITY],
  ])('drops a reset time that is %s', (_name, resetsAt) => {
    expect(
      usageLimitFromEvent({ type: 'rate_limit_event', rate_limit_info: { status: 'rejected', resetsAt } }),
    ).toEqual({ message: 'usage limit reached' });
  });

  it('takes a reset time already in milliseconds as it is', () => {
    expect(
      usageLimitFromEvent({
        type: 'rate_limit_event',
        rate_limit_info: { status: 'rejected', resetsAt: 1_783_173_600_000 },
      })?.reset?.at,
    ).toBe(1_783_173_600_000);
  });

  it('finds no limit in any line of the real not-logged-in and no-network streams', () => {
    for (const name of ['not-logged-in.stream.jsonl', 'no-network.stream.jsonl']) {
      const events = fixture(name)
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line) as unknown);
      expect(events.length).toBeGreaterThan(2);
      expect(events.map(usageLimitFromEvent).filter(Boolean)).toEqual([]);
    }
  });
});

describe('isLimitStatus: 429 is a limit, 529 an overloaded server', () => {
  it.each([
    [429, true],
    [529, false],
    [401, false],
    [500, false],
    [null, false],
    ['429', false],
    [undefined, false],
  ])('%j → %s', (status, expected) => {
    expect(isLimitStatus(status)).toBe(expected);
  });
});

describe('detectUsageLimit: the wordings a limit comes in', () => {
  const now = at('2025-06-15T10:00:00Z');

  it.each([
    ['the apostrophe lost', 'Youve hit your limit · resets 5am (UTC)'],
    ['a backtick for the apostrophe', 'You`ve hit your limit · resets 5am (UTC)'],
    ['"hit your limit for"', "You've hit your limit for Claude messages · resets 5am (UTC)"],
    ['a window of any number of hours', '12-hour limit reached ∙ resets 5am (UTC)'],
  ])('recognises %s', (_name, text) => {
    expect(detectUsageLimit(text, now)).toEqual({
      message: text,
      reset: { at: at('2025-06-16T05:00:00Z'), source: 'clock' },
    });
  });

  it.each([
    // The first line of the /work/shared/claude-cli.md variant, as a narrow terminal leaves it alone.
    ['an API error with its 429 in brackets', 'API Error: Request rejected (429)'],
    ['a 429 and its reason apart', '429 - Too Many Requests'],
    ['HTTP 429 alone', 'HTTP 429'],
    ['a status field', 'upstream status: 429'],
    ['a status with an equals sign', 'status=429'],
    ['an error code alone', 'Error: 429'],
  ])('recognises %s, without a reset time', (_name, text) => {
    expect(detectUsageLimit(text, now)).toEqual({ message: text });
  });

  // The allocation wordings of Claude Code's client bundle, as src/agent/usage-limit.ts quotes them.
  it.each([
    "Your seat type doesn't include usage credits",
    'Your seat type doesn’t include extra usage',
    'Your seat type doesnt include usage credits',
  ])('%j: no wait lifts it', (text) => {
    expect(detectUsageLimit(text, now)).toEqual({ message: text, exhausted: 'allocation_disabled' });
  });
});

describe('detectUsageLimit: a message over several lines', () => {
  it('joins a phrase the terminal broke in two, and reads the reset from the lines after it', () => {
    // anthropics/claude-code#2127's message, wrapped narrower than the issue shows it.
    const text =
      'You have reached your specified\nAPI usage limits. You will regain access on 2025-07-01 at\n00:00 UTC.';
    expect(detectUsageLimit(text, at('2025-06-16T01:47:32Z'), 'America/Los_Angeles')).toEqual({
      message: 'You have reached your specified API usage limits. You will regain access on 2025-07-01 at',
      reset: { at: at('2025-07-01T00:00:00Z'), source: 'dated' },
      exhausted: 'monthly_cap',
    });
  });

  it('skips blank lines: a reset two blank lines down is still the next line', () => {
    // anthropics/claude-code#9236's wrapped message, with blank lines between.
    const text = 'Claude usage limit reached. Your limit will reset\n\n\n     at 3pm (America/Santiago).';
    expect(detectUsageLimit(text, at('2025-10-09T12:00:00Z'), 'UTC')?.reset).toEqual({
      at: at('2025-10-09T18:00:00Z'),
      source: 'clock',
    });
  });

  it('reads the reset only from the message and the two lines after it', () => {
    const text =
      "You've hit your limit\n/usage-credits to finish what you’re working on.\n[wrapper] waiting\nThe nightly backup resets at 6am (UTC)";
    expect(detectUsageLimit(text, at('2025-06-15T10:00:00Z'), 'UTC')).toEqual({ message: "You've hit your limit" });
  });
});

describe('detectServerBusy: a message over several lines', () => {
  it('joins a throttling notice the terminal broke in two', () => {
    // anthropics/claude-code#64905's message, wrapped narrower than the issue shows it.
    const text = 'API Error: Server is temporarily\nlimiting requests (not your usage\nlimit) · Rate limited';
    expect(detectServerBusy(text, at('2026-06-03T12:00:00Z'))).toEqual({
      kind: 'rate_limited',
      message: 'API Error: Server is temporarily limiting requests (not your usage',
    });
  });

  it.each(['Error 529 - Overloaded', 'Repeated 529 Overloaded errors'])('%j is an overloaded API', (text) => {
    expect(detectServerBusy(text, at('2026-06-03T12:00:00Z'))).toEqual({ kind: 'overloaded', message: text });
  });
});

describe('usageLimitFromEvent: the message', () => {
  it('cuts a limit type longer than 40 characters', () => {
    const rateLimitType = 'x'.repeat(60);
    expect(
      usageLimitFromEvent({ type: 'rate_limit_event', rate_limit_info: { status: 'rejected', rateLimitType } }),
    ).toEqual({ message: `usage limit reached (${'x'.repeat(40)})` });
  });
});
