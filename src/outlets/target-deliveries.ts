import type { NotifyTarget } from '../config/notify-targets.js';
import { runCommand } from './command-target.js';
import { desktopCommand } from './desktop-target.js';
import type { Notification } from './notification.js';
import { postWebhook } from './webhook-target.js';

/** What a delivery is given besides the notification: where it runs, and when to give up. */
export interface DeliveryContext {
  root: string;
  env: NodeJS.ProcessEnv;
  platform: NodeJS.Platform;
  signal: AbortSignal;
  /** This machine cannot take the target at all (no display): not a failure, said once a run. */
  skipped(why: string): void;
}

type Delivery<K extends NotifyTarget['kind']> = (
  target: Extract<NotifyTarget, { kind: K }>,
  notification: Notification,
  context: DeliveryContext,
) => Promise<void>;

/**
 * How each kind of target (config/notify-targets.ts lists them) is delivered: one file each,
 * one row here, which the compiler asks for.
 */
const DELIVERIES: { [K in NotifyTarget['kind']]: Delivery<K> } = {
  webhook: (target, notification, { signal }) => postWebhook(target.url, notification, signal),
  command: (target, notification, context) => runCommand(target.argv, notification, context),
  desktop: async (_target, notification, context) => {
    const desktop = await desktopCommand(notification, context.platform, context.env);
    if (desktop.ok) return runCommand(desktop.argv, notification, context);
    context.skipped(desktop.why);
  },
};

/** Delivers the notification to one target; rejects when it failed. */
export function deliver(target: NotifyTarget, notification: Notification, context: DeliveryContext): Promise<void> {
  return (DELIVERIES[target.kind] as Delivery<NotifyTarget['kind']>)(target, notification, context);
}
