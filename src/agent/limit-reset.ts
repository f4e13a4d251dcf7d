import { createRequire } from 'node:module';
import type { DateTime } from 'luxon';
import type { LimitReset } from '../domain/usage.js';
import type * as Luxon from 'luxon';

// luxon is needed only when a limit message names a wall-clock time: loaded then, not at start-up.
// Required, not imported, because the reading of a limit is synchronous. This is ralph's only use
// of luxon, so its CommonJS copy is the only one loaded.
const requireFromHere = createRequire(import.meta.url);
let luxon: typeof Luxon | undefined;
const loadLuxon = (): typeof Luxon => (luxon ??= requireFromHere('luxon') as typeof Luxon);

/** A clock time up to this far in the past means "now" (the message was printed at that minute), not tomorrow. */
const JUST_PASSED_MS = 5 * 60_000;

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
// Claude AI usage limit reached|1751234400 (epoch seconds after the bar)
const EPOCH = /(?<=\S)\|\s*(\d{9,13})\b/;
// A date counts only where the text says the limit lifts then, not in a log line's timestamp.
const WHEN = String.raw`\b(?:resets?|reset\s+(?:on|at)|on|until|try again at)\s+`;
const ZONE = String.raw`(?:\s*\(([^()\s]{1,64})\)|\s+(UTC|GMT)\b)?`;
// The space before a meridiem is its own: taken alone, it would hide the space before `UTC`.
const CLOCK = String.raw`(\d{1,2})(?::(\d{2}))?(?:\s*([ap]\.?m\.?))?`;
// resets Feb 22 at 9:30am · resets May 5 at 9pm (America/New_York) · resets Oct 6, 1pm (Europe/Paris) · Apr 23 at 4pm
// · Codex's "try again at Sep 26th, 2026 3:05 PM." (another day than today: a date, a year, a local clock time)
const DATED_NAME = new RegExp(
  String.raw`${WHEN}([a-z]{3})[a-z]*\.?\s+(\d{1,2})(?:st|nd|rd|th)?,?\s+(?:(\d{4}),?\s+)?(?:at\s+)?${CLOCK}${ZONE}`,
  'gi',
);
// resets Wednesday 8pm (America/Los_Angeles) · Resets Fri 4:00 PM: a weekly limit's reset within the week.
const WEEKDAY_NAMES = 'monday|tuesday|wednesday|thursday|friday|saturday|sunday|mon|tues?|wed|thu(?:rs?)?|fri|sat|sun';
const WEEKDAY = new RegExp(String.raw`${WHEN}(${WEEKDAY_NAMES})\.?,?\s+(?:at\s+)?${CLOCK}${ZONE}`, 'i');
// You will regain access on 2026-04-01 at 00:00 UTC.
const DATED_ISO = new RegExp(String.raw`${WHEN}(\d{4})-(\d{2})-(\d{2})(?:\s+at)?\s+${CLOCK}${ZONE}`, 'i');
/** A date without a year is taken within this much of now, before or after. */
const HALF_YEAR = { days: 180 };
/** A date further back than this is no reset to wait for (a misread, or a message long stale). */
const STALE_MS = 24 * 3600_000;
// retry-after: 120 · Retry in 156s · retry after 30 seconds · retry in 2 minutes
const RETRY_AFTER =
  /\bretry(?:-after:?\s*|\s+(?:in|after)\s+)(\d{1,6})\s*(seconds?|secs?|s|minutes?|mins?|m|hours?|hrs?|h)?\b/i;
/** Seconds in a retry-after's unit, by its first letter; seconds, and no unit, are 1. */
const UNIT_SECONDS: Readonly<Record<string, number>> = { m: 60, h: 3600 };
// resets 5am · resets 2:30pm (America/New_York) · will reset at 3pm · resets tomorrow at 3pm · resets 14:00 (UTC)
// · Codex's "try again at 8:54 PM." (a local clock time, no date, no zone)
const CLOCK_RESET = new RegExp(
  String.raw`(?:\breset(?:s)?\s+(?:at\s+)?|\btry again at\s+)(?:(tomorrow)\s+(?:at\s+)?)?${CLOCK}${ZONE}`,
  'i',
);

/**
 * The reset instant a limit message names, by the strongest evidence it holds: an epoch, a dated
 * text, a retry-after, a clock time. Wall-clock times are read in the zone they name, else
 * `localZone` (the machine's zone when absent); a zone luxon does not know gives no instant.
 */
export function resetFromText(text: string, now: number, localZone?: string): LimitReset | undefined {
  const epoch = EPOCH.exec(text);
  if (epoch?.[1]) {
    const at = epochToMs(Number(epoch[1]));
    if (at !== undefined) return { at, source: 'epoch' };
  }
  const dated = datedReset(text, now, localZone) ?? weekdayReset(text, now, localZone);
  if (dated !== undefined && dated > now - STALE_MS) return { at: dated, source: 'dated' };
  const retry = RETRY_AFTER.exec(text);
  if (retry?.[1]) return { at: now + retryAfterSeconds(Number(retry[1]), retry[2]) * 1000, source: 'retry_after' };
  const clock = clockReset(text, now, localZone);
  return clock === undefined ? undefined : { at: clock, source: 'clock' };
}

/** Epoch seconds (or milliseconds, when the number is that large) as epoch milliseconds. */
export function epochToMs(value: number): number | undefined {
  if (!Number.isFinite(value) || value <= 0) return undefined;
  return value >= 1e11 ? Math.round(value) : Math.round(value * 1000);
}

/** A retry-after count in seconds: `2 minutes` is 120. */
function retryAfterSeconds(count: number, unit: string | undefined): number {
  return count * (unit === undefined ? 1 : (UNIT_SECONDS[unit.charAt(0).toLowerCase()] ?? 1));
}

/** A reset on a named date (`Apr 23 at 4pm`, `2026-04-01 at 00:00 UTC`). */
function datedReset(text: string, now: number, localZone: string | undefined): number | undefined {
  const iso = DATED_ISO.exec(text);
  if (iso) {
    const [, year, month, day, hour, minute, meridiem, zone, word] = iso;
    const base = zoned(now, zone ?? word ?? localZone);
    const clock = toClock(Number(hour), minute, meridiem);
    if (!base || !clock) return undefined;
    return onDate(base.set({ year: Number(year) }), Number(month), Number(day), clock, false);
  }
  // "attempt 4" and other words that start like no month are no date.
  const named = [...text.matchAll(DATED_NAME)].find((match) => monthOf(match[1]) > 0);
  if (!named) return undefined;
  const [, monthName, day, year, hour, minute, meridiem, zone, word] = named;
  const month = monthOf(monthName);
  const base = zoned(now, zone ?? word ?? localZone);
  const clock = toClock(Number(hour), minute, meridiem);
  if (!base || !clock) return undefined;
  // A year named is kept; without one, the year that puts the date nearest now.
  return year
    ? onDate(base.set({ year: Number(year) }), month, Number(day), clock, false)
    : onDate(base, month, Number(day), clock, true);
}

/**
 * A reset on a weekday (`resets Wednesday 8pm`): the next such day at that time, in the zone named,
 * from now on; today's when the time is still to come (or passed only a few minutes ago).
 */
function weekdayReset(text: string, now: number, localZone: string | undefined): number | undefined {
  const found = WEEKDAY.exec(text);
  if (!found) return undefined;
  const [, name, hour, minute, meridiem, zone, word] = found;
  const clock = toClock(Number(hour), minute, meridiem);
  const base = zoned(now, zone ?? word ?? localZone);
  if (!clock || !base) return undefined;
  // luxon's weekday: 1 for Monday to 7 for Sunday; the names' first two letters tell them apart.
  const weekday = ['mo', 'tu', 'we', 'th', 'fr', 'sa', 'su'].indexOf((name ?? '').slice(0, 2).toLowerCase()) + 1;
  const today = base.startOf('day').set(clock);
  const ahead = (weekday - base.weekday + 7) % 7;
  const candidate = today.plus({ days: ahead }).toMillis();
  return candidate >= now - JUST_PASSED_MS ? candidate : today.plus({ days: ahead + 7 }).toMillis();
}

/** 1 to 12 for the first three letters of a month's name, else 0. */
function monthOf(name: string | undefined): number {
  return MONTHS.indexOf((name ?? '').toLowerCase()) + 1;
}

/** A clock time with no date: today's, or tomorrow's when it passed more than a few minutes ago. */
function clockReset(text: string, now: number, localZone: string | undefined): number | undefined {
  const reset = CLOCK_RESET.exec(text);
  if (!reset) return undefined;
  const [, tomorrow, hour, minute, meridiem, zone, word] = reset;
  const clock = toClock(Number(hour), minute, meridiem);
  const base = zoned(now, zone ?? word ?? localZone);
  if (!clock || !base) return undefined;
  const today = base.startOf('day');
  if (tomorrow) return today.plus({ days: 1 }).set(clock).toMillis();
  const sameDay = today.set(clock).toMillis();
  return sameDay >= now - JUST_PASSED_MS ? sameDay : today.plus({ days: 1 }).set(clock).toMillis();
}

/**
 * `now` in a zone (the machine's when none is named), or undefined for a zone luxon does not know.
 * luxon itself reads `UTC` and `GMT` in any case, and `UTC+5` as a fixed offset.
 */
function zoned(now: number, zone: string | undefined): DateTime | undefined {
  const base = loadLuxon().DateTime.fromMillis(now, { zone: zone ?? 'system' });
  return base.isValid ? base : undefined;
}

/**
 * A reset on a date; without a year, the year that puts it within half a year of now: a December
 * message about January is next year's, a January message about December last year's (long past).
 */
function onDate(base: DateTime, month: number, day: number, clock: Clock, guessYear: boolean): number | undefined {
  const candidate = base.set({ month, day, ...clock });
  // luxon rolls a date that does not exist over, into another month (Feb 30 to March, month 13 to
  // January): refuse it. A day from 0 to 99 cannot roll round to the month it started in.
  if (candidate.month !== month) return undefined;
  const at = candidate.toMillis();
  if (!guessYear) return at;
  const years = at < base.minus(HALF_YEAR).toMillis() ? 1 : at > base.plus(HALF_YEAR).toMillis() ? -1 : 0;
  return candidate.plus({ years }).toMillis();
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
