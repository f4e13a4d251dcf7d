import { splitCommand } from './command-words.js';
import { maskTarget } from './mask-secrets.js';
import { lazyKind, type ValueKind } from './value-kinds.js';

/** Where a notification goes: the desktop, a webhook, or a command run without a shell. */
export type NotifyTarget =
  { kind: 'desktop' } | { kind: 'webhook'; url: URL } | { kind: 'command'; argv: [string, ...string[]] };

/** The events a notification can be about (docs/notifications.md). */
export const NOTIFY_EVENTS = [
  'ended',
  'blocked',
  'decide',
  'usage_limit_wait',
  'network_wait',
  'stuck_warning',
] as const;
export type NotifyEvent = (typeof NOTIFY_EVENTS)[number];

/** Plain http only to this machine: a webhook's secret never crosses a network in clear text. */
const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

const EXPECTED_TARGET = 'desktop, an https:// URL (http:// only to localhost), or cmd:<command>';

/** One kind of target's reading of a text: undefined when the text is not of its kind. */
type TargetReading = (text: string, got: string) => ParsedTarget | undefined;

type ParsedTarget = { ok: true; target: NotifyTarget } | { ok: false; error: string };

/**
 * The kinds of target, each by how its text is read, tried in order (a URL last: anything else is
 * a mistyped target). The one list of them: outlets/target-deliveries.ts delivers each kind, and
 * the compiler asks for a delivery of every kind in NotifyTarget.
 */
const TARGET_KINDS: readonly TargetReading[] = [
  (text) => (text === 'desktop' ? { ok: true, target: { kind: 'desktop' } } : undefined),
  (text, got) => {
    if (!text.startsWith('cmd:')) return undefined;
    const split = splitCommand(text.slice(4));
    if (!split.ok) return { ok: false, error: `${split.error}${got}` };
    return { ok: true, target: { kind: 'command', argv: split.argv as [string, ...string[]] } };
  },
  webhookReading,
];

/**
 * Reads one target. An error ends in `, got '<value>'` with the value masked, since a mistyped
 * webhook still holds its secret (and the config's error line then adds no raw value of its own).
 */
export function parseTarget(text: string): ParsedTarget {
  const got = `, got '${maskTarget(text)}'`;
  for (const reading of TARGET_KINDS) {
    const parsed = reading(text, got);
    if (parsed) return parsed;
  }
  return { ok: false, error: `expected ${EXPECTED_TARGET}${got}` };
}

/** An https:// URL, or plain http:// to this machine. */
function webhookReading(text: string, got: string): ParsedTarget | undefined {
  let url: URL | undefined;
  try {
    url = new URL(text);
  } catch {
    return undefined;
  }
  if (url.protocol === 'https:' && url.hostname !== '') return { ok: true, target: { kind: 'webhook', url } };
  if (url.protocol !== 'http:') return undefined;
  if (LOOPBACK.has(url.hostname)) return { ok: true, target: { kind: 'webhook', url } };
  return { ok: false, error: `plain http:// only to localhost, 127.0.0.1 or ::1 (else https://)${got}` };
}

/** A value that is not a list of strings, shown masked all the same. */
function shownInput(input: unknown): string {
  return typeof input === 'string' ? `'${maskTarget(input)}'` : maskTarget(JSON.stringify(input) ?? String(input));
}

/**
 * `--notify <target>` (repeatable), config `notify` (a list), `RALPH_NOTIFY` (comma-separated): the
 * targets are kept as written and shown masked.
 */
export function notifyTargets(): ValueKind<string[]> {
  return lazyKind({
    build: (zod) =>
      zod
        .array(zod.string({ error: (issue) => `expected a target as a string, got ${shownInput(issue.input)}` }), {
          error: (issue) => `expected a list of targets (["desktop"]), got ${shownInput(issue.input)}`,
        })
        .check(
          zod.superRefine((targets, context) => {
            for (const target of targets) {
              const parsed = parseTarget(target);
              if (!parsed.ok) context.addIssue({ code: 'custom', message: parsed.error, input: target });
            }
          }),
        ),
    fromText: splitList,
    expected: EXPECTED_TARGET,
    format: (targets) => (targets.length === 0 ? 'none' : targets.map(maskTarget).join(', ')),
  });
}

/** `--notify-on <events>`: a comma-separated list of event names. */
export function notifyEvents(): ValueKind<NotifyEvent[]> {
  const expected = `a comma-separated list of ${NOTIFY_EVENTS.join(', ')}`;
  return lazyKind({
    build: (zod) =>
      zod
        .array(zod.enum(NOTIFY_EVENTS, { error: `expected ${expected}` }))
        .check(zod.minLength(1, { error: `expected ${expected}` })),
    fromText: splitList,
    expected,
  });
}

/** `a, b,,c` → `["a", "b", "c"]`. */
function splitList(text: string): string[] {
  return text
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part !== '');
}
