/** The outcome of reading a duration: milliseconds, or an error that states the expected form. */
export type DurationResult = { ok: true; ms: number } | { ok: false; error: string };

const EXAMPLES = '45s, 90m, 2h or 1h30m';
// Hours, minutes, seconds: each at most once, in this order, whole numbers.
const GRAMMAR = /^(?:(\d+)h)?(?:(\d+)m)?(?:(\d+)s)?$/;
const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
/**
 * The longest duration accepted: Node's timers hold at most 2^31-1 ms (about 24.8 days); a longer
 * delay fires after 1 ms instead, so a 1000h timeout would kill the agent at once.
 */
export const MAX_DURATION_MS = 2 ** 31 - 1;

/** Reads the one duration grammar of every duration option: `45s`, `90m`, `2h`, `1h30m`, `1h30m15s`. */
export function parseDuration(text: string): DurationResult {
  const shown = text.length > 40 ? `${text.slice(0, 40)}…` : text;
  const match = GRAMMAR.exec(text.trim());
  const [, hours, minutes, seconds] = match ?? [];
  if (!match || (hours === undefined && minutes === undefined && seconds === undefined)) {
    const hint = /^\s*\d+\s*$/.test(text) ? ` (add a unit: ${text.trim()}s or ${text.trim()}m)` : '';
    return { ok: false, error: `expected a duration like ${EXAMPLES}, got '${shown}'${hint}` };
  }
  const ms = Number(hours ?? 0) * HOUR + Number(minutes ?? 0) * MINUTE + Number(seconds ?? 0) * SECOND;
  if (ms === 0) {
    return { ok: false, error: `expected a duration longer than zero like ${EXAMPLES}, got '${shown}'` };
  }
  if (!(ms <= MAX_DURATION_MS)) {
    return {
      ok: false,
      error: `expected a duration of at most ${formatDurationSpec(MAX_DURATION_MS)} like ${EXAMPLES}, got '${shown}'`,
    };
  }
  return { ok: true, ms };
}

/**
 * The canonical spelling of a duration (`1h30m`, `45s`), for printing resolved configuration, limits
 * and timeouts; sub-second parts are dropped, and a duration under a second (a test's) is `300ms`.
 */
export function formatDurationSpec(ms: number): string {
  if (!Number.isFinite(ms) || ms < 0) throw new RangeError(`not a duration: ${ms} ms`);
  if (ms > 0 && ms < SECOND) return `${Math.floor(ms)}ms`;
  let rest = Math.floor(ms / SECOND);
  const hours = Math.floor(rest / 3600);
  rest -= hours * 3600;
  const minutes = Math.floor(rest / 60);
  const seconds = rest - minutes * 60;
  const spec = `${hours ? `${hours}h` : ''}${minutes ? `${minutes}m` : ''}${seconds ? `${seconds}s` : ''}`;
  return spec || '0s';
}
