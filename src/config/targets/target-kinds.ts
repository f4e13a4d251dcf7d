import { maskTarget } from '../mask-secrets.js';
import type { Notification } from '../notify-events.js';
import { commandTarget } from './command.js';
import { desktopTarget } from './desktop.js';
import type { DeliveryContext, Reading, TargetKind } from './target-kind.js';
import { webhookTarget } from './webhook.js';

/**
 * The kinds of notification target, the one list of them: a kind is one file of this folder (its
 * reading and its delivery) and one row here. A text is read by the first kind that knows it;
 * one no kind knows is a mistyped target.
 */
const TARGET_KINDS = [desktopTarget, webhookTarget, commandTarget] as const;

type Kind = (typeof TARGET_KINDS)[number];
/** Where a notification goes: a target of one of the kinds. */
export type NotifyTarget = Kind extends TargetKind<infer T> ? T : never;

/** Every kind as it is written: `desktop, an https:// URL (…), or cmd:<command>`. */
export const EXPECTED_TARGET = TARGET_KINDS.map((kind, index) =>
  index === TARGET_KINDS.length - 1 ? `or ${kind.expected}` : kind.expected,
).join(', ');

/**
 * Reads one target. An error ends in `, got '<value>'` with the value masked, since a mistyped
 * webhook still holds its secret (and the config's error line then adds no raw value of its own).
 */
export function parseTarget(text: string): Reading<NotifyTarget> {
  const got = `, got '${maskTarget(text)}'`;
  for (const kind of TARGET_KINDS) {
    const reading = kind.read(text, got);
    if (reading) return reading;
  }
  return { ok: false, error: `expected ${EXPECTED_TARGET}${got}` };
}

/** Delivers the notification to one target, by the kind that read it; rejects when it failed. */
export function deliver(target: NotifyTarget, notification: Notification, context: DeliveryContext): Promise<void> {
  // Each kind reads only targets named by it, so the kind found by name is the one that read this one.
  const kind = TARGET_KINDS.find(({ name }) => name === target.kind) as TargetKind<NotifyTarget>;
  return kind.deliver(target, notification, context);
}
