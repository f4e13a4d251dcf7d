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

/** One notification, before any target shapes it: a title, plain lines, and the structured fields. */
export interface Notification {
  event: NotifyEvent;
  title: string;
  /** Plain text; each target escapes it for itself. */
  lines: string[];
  /** Flat, JSON-ready: the webhook's fields, the command's stdin and its RALPH_EVENT_* variables. */
  fields: Record<string, string | number>;
}
