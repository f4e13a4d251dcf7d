import type { NotifyEvent } from '../config/notify-events.js';
import { midRunNotices } from './mid-run-notices.js';
import { createNotifier, NOTIFY_TIMEOUT_MS, type Notifier } from './notifier.js';
import type { LoopPlace } from './notification.js';
import type { Outlet, RunListener } from './run-listener.js';

/**
 * A test knob, not a setting (docs/notifications.md): the e2e suite shortens the 10 s bound with it
 * so that a hanging command is ended in a second.
 */
export const TIMEOUT_TEST_KNOB = 'RALPH_TEST_NOTIFY_TIMEOUT_MS';

/** The ending as a notification: after every mid-run one has finished, so they arrive in order. */
export function notifyOutlet(notifier: Notifier, reportPath: string | undefined): Outlet {
  return {
    name: 'notifications',
    async deliver({ report }) {
      await notifier.settled();
      await notifier.notify({ event: 'ending', report, ...(reportPath ? { reportPath } : {}) });
    },
  };
}

/** What the notifications read of the run's settings. */
export interface NotifySettings {
  notify: readonly string[];
  notifyOn: readonly NotifyEvent[] | undefined;
  report: boolean;
}

/** Where the notifications are sent from, and how they name the loop. */
export interface NotifyContext {
  root: string;
  place?: LoopPlace;
  env: NodeJS.ProcessEnv;
  warn: (line: string) => void;
}

/**
 * The run's notifications as one listener, when the settings name a target: the mid-run notices
 * as the loop reports them, the ending's after them, the failures counted in the record.
 */
export function notificationsListener(
  settings: NotifySettings & { maxStuck: number },
  context: NotifyContext,
): RunListener | undefined {
  const notifications = notificationsFor(settings, context);
  if (!notifications) return undefined;
  const { notifier, outlet } = notifications;
  return { ...outlet, events: midRunNotices(notifier, settings.maxStuck), pending: notifier };
}

/** The run's notifier and its ending outlet, when the settings name a target. */
export function notificationsFor(
  settings: NotifySettings,
  context: NotifyContext,
): { notifier: Notifier; outlet: Outlet } | undefined {
  if (settings.notify.length === 0) return undefined;
  const knob = Number(context.env[TIMEOUT_TEST_KNOB]);
  const notifier = createNotifier({
    targets: settings.notify,
    chosen: settings.notifyOn,
    root: context.root,
    ...(context.place ? { place: context.place } : {}),
    env: context.env,
    warn: context.warn,
    timeoutMs: Number.isInteger(knob) && knob > 0 ? knob : NOTIFY_TIMEOUT_MS,
  });
  return { notifier, outlet: notifyOutlet(notifier, settings.report ? 'ralph/logs/report.html' : undefined) };
}
