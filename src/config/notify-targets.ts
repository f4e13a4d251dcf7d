import { maskTarget } from './mask-secrets.js';
import { NOTIFY_EVENTS, type NotifyEvent } from './notify-events.js';
import { EXPECTED_TARGET, parseTarget } from './targets/target-kinds.js';
import { lazyKind, type ValueKind } from './value-kinds.js';

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
