import type { Notification } from '../notify-events.js';

/** A target as read from its text, or why the text is not one. */
export type Reading<T> = { ok: true; target: T } | { ok: false; error: string };

/** What a delivery is given besides the notification: where it runs, and when to give up. */
export interface DeliveryContext {
  root: string;
  env: NodeJS.ProcessEnv;
  platform: NodeJS.Platform;
  signal: AbortSignal;
  /** This machine cannot take the target at all (no display): not a failure, said once a run. */
  skipped(why: string): void;
}

/**
 * One kind of notification target, whole: how its text is read (when the settings resolve, so a
 * bad target refuses the run before it starts) and how a notification is delivered to it.
 */
export interface TargetKind<T extends { kind: string }> {
  /** The `kind` of every target it reads. */
  name: T['kind'];
  /** How the kind is written, for the message that lists every kind (`cmd:<command>`). */
  expected: string;
  /**
   * Reads a text as this kind: undefined when it is not of this kind. An error ends in `got`
   * (`, got '<value>'`, masked), which the error line of the settings then leaves alone.
   */
  read(text: string, got: string): Reading<T> | undefined;
  /** Delivers one notification; rejects when it failed. */
  deliver(target: T, notification: Notification, context: DeliveryContext): Promise<void>;
}
