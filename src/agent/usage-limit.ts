import { createRequire } from 'node:module';
import type { DateTime } from 'luxon';
import { truncate } from './output/summary-text.js';

// luxon is needed only when a limit message names a wall-clock time: loaded then, not at start-up.
// Required, not imported, because the reading of a limit is synchronous. This is ralph's only use
// of luxon, so its CommonJS copy is the only one loaded.
const requireFromHere = createRequire(import.meta.url);
let luxon: typeof import('luxon') | undefined;
const loadLuxon = (): typeof import('luxon') => (luxon ??= requireFromHere('luxon') as typeof import('luxon'));

/** A usage or rate limit the agent ran into, and when it lifts if the agent said so. */
export interface UsageLimit {
  /** The agent's own words (one line, trimmed), or a description of the event. */
  message: string;
  /** Epoch milliseconds at which the limit resets. */
  resetsAt?: number;
}

const MAX_MESSAGE = 300;

/**
 * The phrasings the client prints when a limit stops it. Each needs more than the words
 * "usage limit": prose such as "I will check the usage limit docs" must not match.
 */
const LIMIT_PHRASES: readonly RegExp[] = [
  // You've hit your limit · resets 5am (Europe/Amsterdam) / You've hit your session limit …
  /\byou(?:'|’|`)?ve (?:hit|reached) your (?:[\w-]+ ){0,3}limit\b/i,
  // Claude AI usage limit reached|1751234400 · 5-hour limit reached ∙ resets 2pm · Weekly limit reached
  /\b(?:claude(?: ai)?|\d+-hour|five-hour|session|daily|weekly|monthly|opus|sonnet)(?: [\w-]+){0,2} limit reached\b/i,
  // API Error: Request rejected (429) · The usage limit has been reached
  /\busage limit has been reached\b/i,
  /\bout of extra usage\b/i,
  // API Error: 529 Overloaded · API Error: 429 {"type":"error",…} · Request rejected (429)
  /\bAPI Error:[^\n]{0,80}?\b(?:429|529)\b/i,
  /\b(?:rate_limit_error|overloaded_error)\b/,
  /\b529\b[^\n]{0,20}\boverloaded\b/i,
  /\b429\b[^\n]{0,5}\btoo many requests\b/i,
  /\b(?:HTTP(?:\/[\d.]+)?|status(?: code)?|error)[:= ]{1,3}429\b/i,
  /\brate[ -]limit(?:ed| exceeded| reached)\b/i,
];

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
// resets 5am · resets 2:30pm (America/New_York) · will reset at 3pm · resets tomorrow at 3pm ·
// resets Feb 22 at 9:30am · resets Oct 6, 1pm (Europe/Paris) · resets 14:00 (UTC)
const RESET_TIME =
  /\breset(?:s)?\s+(?:at\s+)?(?:(tomorrow)\s+(?:at\s+)?|([a-z]{3})[a-z]*\.?\s+(\d{1,2})(?:st|nd|rd|th)?,?\s+(?:at\s+)?)?(\d{1,2})(?::(\d{2}))?\s*([ap]\.?m\.?)?(?:\s*\(([^()\s]{1,64})\))?/i;
// Claude AI usage limit reached|1751234400 (epoch seconds after the bar)
const RESET_EPOCH = /\|\s*(\d{9,13})\b/;

/**
 * Recognises a usage or rate limit in text the caller knows is the agent's own error output
 * (stderr, an error result): the first matching line, and its reset time when it names one.
 * Wall-clock reset times are read in the zone they name, else `localZone`, else this machine's zone.
 */
export function detectUsageLimit(text: string, now: number, localZone?: string): UsageLimit | undefined {
  for (const rawLine of text.split(/\r?\n/)) {
    const line = rawLine.trim();
    if (!LIMIT_PHRASES.some((phrase) => phrase.test(line))) continue;
    const resetsAt = resetFromLine(line, now, localZone);
    const message = truncate(line, MAX_MESSAGE);
    return resetsAt === undefined ? { message } : { message, resetsAt };
  }
  return undefined;
}

/** A limit from a parsed stream-json `rate_limit_event` whose status is `rejected`; `allowed` and `allowed_warning` are not limits. */
export function usageLimitFromEvent(event: unknown): UsageLimit | undefined {
  if (!isRecord(event) || event.type !== 'rate_limit_event') return undefined;
  const info = event.rate_limit_info;
  if (!isRecord(info) || info.status !== 'rejected') return undefined;
  const kind = typeof info.rateLimitType === 'string' && info.rateLimitType ? ` (${info.rateLimitType.slice(0, 40)})` : '';
  const message = `usage limit reached${kind}`;
  const resetsAt = typeof info.resetsAt === 'number' ? epochToMs(info.resetsAt) : undefined;
  return resetsAt === undefined ? { message } : { message, resetsAt };
}

/** Whether an `api_error_status` (from a `result` event) means a rate limit (429) or an overloaded API (529). */
export function isLimitStatus(status: unknown): boolean {
  return status === 429 || status === 529;
}

/** The reset time a limit line names, or undefined when it names none or an unknown zone. */
function resetFromLine(line: string, now: number, localZone: string | undefined): number | undefined {
  const epoch = RESET_EPOCH.exec(line);
  if (epoch?.[1]) return epochToMs(Number(epoch[1]));
  const reset = RESET_TIME.exec(line);
  if (!reset) return undefined;
  const [, tomorrow, month, day, hourText, minuteText, meridiem, zone] = reset;
  const clock = toClock(Number(hourText), minuteText, meridiem);
  if (!clock) return undefined;
  const base = loadLuxon().DateTime.fromMillis(now, { zone: zone ?? localZone ?? 'system' });
  if (!base.isValid) return undefined;
  const today = base.startOf('day');
  if (month !== undefined) return datedReset(base, MONTHS.indexOf(month.toLowerCase()) + 1, Number(day), clock);
  if (tomorrow) return today.plus({ days: 1 }).set(clock).toMillis();
  // A time of day without a date is the next time the clock shows it.
  const sameDay = today.set(clock);
  return (sameDay.toMillis() > base.toMillis() ? sameDay : today.plus({ days: 1 }).set(clock)).toMillis();
}

/** A reset on a named date: this year, or next year when the date lies months back (a December message about January). */
function datedReset(base: DateTime, month: number, day: number, clock: Clock): number | undefined {
  if (month < 1) return undefined;
  const candidate = base.set({ month, day, ...clock });
  // luxon rolls Feb 30 over to March: refuse dates that do not exist.
  if (!candidate.isValid || candidate.month !== month || candidate.day !== day) return undefined;
  return (candidate.toMillis() < base.minus({ days: 180 }).toMillis() ? candidate.plus({ years: 1 }) : candidate).toMillis();
}

interface Clock {
  hour: number;
  minute: number;
  second: 0;
  millisecond: 0;
}

/** A 12-hour (`2pm`, `2:30pm`) or 24-hour (`14:30`) clock reading, or undefined when it is not a time (a bare `5`). */
function toClock(hour: number, minuteText: string | undefined, meridiem: string | undefined): Clock | undefined {
  const minute = minuteText === undefined ? 0 : Number(minuteText);
  if (minute > 59) return undefined;
  if (meridiem === undefined) {
    return minuteText !== undefined && hour <= 23 ? { hour, minute, second: 0, millisecond: 0 } : undefined;
  }
  if (hour < 1 || hour > 12) return undefined;
  const pm = meridiem.toLowerCase().startsWith('p');
  return { hour: (hour % 12) + (pm ? 12 : 0), minute, second: 0, millisecond: 0 };
}

/** Epoch seconds (or milliseconds, when the number is that large) as epoch milliseconds. */
function epochToMs(value: number): number | undefined {
  if (!Number.isFinite(value) || value <= 0) return undefined;
  return value >= 1e11 ? Math.round(value) : Math.round(value * 1000);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
