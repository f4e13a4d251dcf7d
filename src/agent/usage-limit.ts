import type { ExhaustedCause, ServerBusy, UsageLimit } from '../domain/usage.js';
import { epochToMs, resetFromText } from './limit-reset.js';
import { truncate } from './output/summary-text.js';

const MAX_MESSAGE = 300;
/** How many following lines a wrapped message may continue on. */
const WRAP_LINES = 2;

/**
 * The phrasings the client prints when a limit stops it. Each needs more than the words
 * "usage limit": prose such as "I will check the usage limit docs" must not match.
 */
const LIMIT_PHRASES: readonly RegExp[] = [
  // You've hit your limit · resets 5am (Europe/Amsterdam) · You've hit your org's monthly usage limit
  /\byou(?:'|’|`)?ve (?:hit|reached) your (?:[\w'’-]+ ){0,3}limit\b/i,
  // Claude AI usage limit reached|1751234400 · 5-hour limit reached ∙ resets 2pm · Weekly limit reached
  /\b(?:claude(?: ai)?|\d+-hour|five-hour|session|daily|weekly|monthly|opus|sonnet)(?: [\w-]+){0,2} limit reached\b/i,
  // API Error: Request rejected (429) · The usage limit has been reached
  /\busage limit has been reached\b/i,
  /\bout of extra usage\b/i,
  /\bhave reached your specified API usage limits\b/i,
  // API Error: 429 {"type":"error","error":{"type":"rate_limit_error",…}} · Request rejected (429)
  /\bAPI Error:[^\n]{0,80}?\b429\b/i,
  /\brate_limit_error\b/,
  /\b429\b[^\n]{0,5}\btoo many requests\b/i,
  /\b(?:HTTP(?:\/[\d.]+)?|status(?: code)?|error)[:= ]{1,3}429\b/i,
  /\brate[ -]limit(?:ed| exceeded| reached)\b/i,
];

/**
 * A model's limit the client already switched away from (`Claude Opus 4 limit reached, now using
 * Sonnet 4`) stops nothing.
 */
const FALLBACK_NOTICE = /\bnow using\b/i;

/** Wordings (from the client's own messages) of limits that do not lift within a run. */
const EXHAUSTED: readonly { cause: ExhaustedCause; phrase: RegExp }[] = [
  // Your usage allocation has been disabled by your admin · Your group's usage limit is set to $0 ·
  // Your seat type doesn't include usage credits
  {
    cause: 'allocation_disabled',
    phrase:
      /\b(?:usage allocation has been disabled|usage limit is set to \$0|seat type doesn(?:'|’)?t include (?:extra )?usage)/i,
  },
  // You're out of usage credits · Your org is out of usage · add funds to continue
  { cause: 'out_of_credits', phrase: /\b(?:out of usage credits|org is out of usage\b)/i },
  // You've hit your org's monthly usage limit · monthly spend limit · You have reached your specified API usage limits
  { cause: 'monthly_cap', phrase: /\b(?:monthly (?:usage|spend) limit|specified API usage limits)\b/i },
];

/** Server-side throttling, which the client itself says is not the usage limit, and an overloaded API. */
const SERVER_BUSY: readonly { kind: ServerBusy['kind']; phrase: RegExp }[] = [
  // API Error: Server is temporarily limiting requests (not your usage limit) · Rate limited
  { kind: 'rate_limited', phrase: /\b(?:temporarily limiting requests|not your usage limit)\b/i },
  // API Error: 529 Overloaded · API Error (529 {"type":"overloaded_error",…}) · API Error: 500
  // {…"message":"Overloaded"}
  {
    kind: 'overloaded',
    phrase: /\boverloaded_error\b|\b529\b[^\n]{0,40}\boverloaded\b|\bAPI Error\b[^\n]{0,80}\bOverloaded\b/i,
  },
];

/**
 * Recognises a usage limit in text the caller knows is the agent's own error output (stderr, an
 * error result, the last plain lines): the first matching message, a message wrapped across
 * lines joined first, with its reset instant when it names one and its cause when no wait fixes it.
 */
export function detectUsageLimit(text: string, now: number, localZone?: string): UsageLimit | undefined {
  const isLimit = (message: string) =>
    !FALLBACK_NOTICE.test(message) &&
    (EXHAUSTED.some(({ phrase }) => phrase.test(message)) || LIMIT_PHRASES.some((phrase) => phrase.test(message)));
  const found = findMessage(text, isLimit);
  if (found === undefined) return undefined;
  const exhausted = EXHAUSTED.find(({ phrase }) => phrase.test(found.message))?.cause;
  const reset = resetFromText(found.withFollowing, now, localZone);
  return {
    message: truncate(found.message, MAX_MESSAGE),
    ...(reset ? { reset } : {}),
    ...(exhausted ? { exhausted } : {}),
  };
}

/** Recognises server-side throttling or an overloaded API in the agent's own error output. */
export function detectServerBusy(text: string, now: number): ServerBusy | undefined {
  const found = findMessage(text, (message) => SERVER_BUSY.some(({ phrase }) => phrase.test(message)));
  if (found === undefined) return undefined;
  const kind = SERVER_BUSY.find(({ phrase }) => phrase.test(found.message))?.kind ?? 'overloaded';
  const reset = resetFromText(found.withFollowing, now);
  const retryAt = reset?.source === 'retry_after' ? reset.at : undefined;
  return { kind, message: truncate(found.message, MAX_MESSAGE), ...(retryAt === undefined ? {} : { retryAt }) };
}

/**
 * A limit from a parsed stream-json `rate_limit_event` whose status is `rejected`; `allowed` and
 * `allowed_warning` are not limits.
 */
export function usageLimitFromEvent(event: unknown): UsageLimit | undefined {
  if (!isRecord(event) || event.type !== 'rate_limit_event') return undefined;
  const info = event.rate_limit_info;
  // overageStatus "rejected" on an allowed event only says extra usage is unavailable.
  if (!isRecord(info) || info.status !== 'rejected') return undefined;
  const kind =
    typeof info.rateLimitType === 'string' && info.rateLimitType ? ` (${info.rateLimitType.slice(0, 40)})` : '';
  const message = `usage limit reached${kind}`;
  const at = typeof info.resetsAt === 'number' ? epochToMs(info.resetsAt) : undefined;
  return at === undefined ? { message } : { message, reset: { at, source: 'event' } };
}

/** Whether an `api_error_status` (from a `result` event) means a rate limit (429). */
export function isLimitStatus(status: unknown): boolean {
  return status === 429;
}

/**
 * The first line (or a line and the next, joined: a message wrapped by a terminal) that `matches`,
 * trimmed; `withFollowing` adds the lines after it, where a wrapped reset time continues.
 */
function findMessage(
  text: string,
  matches: (message: string) => boolean,
): { message: string; withFollowing: string } | undefined {
  const lines = text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== '');
  for (const [index, line] of lines.entries()) {
    const next = lines[index + 1];
    // Joined only when the phrase spans the break: a next line that matches alone is its own message.
    const message = matches(line)
      ? line
      : next !== undefined && !matches(next) && matches(`${line} ${next}`)
        ? `${line} ${next}`
        : undefined;
    if (message === undefined) continue;
    return { message, withFollowing: lines.slice(index, index + 1 + WRAP_LINES).join(' ') };
  }
  return undefined;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
