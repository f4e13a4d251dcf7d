import type { Notification } from './notification.js';

/**
 * Slack's escaping of message text: `&`, `<` and `>` only, so that agent text cannot write a
 * mention (`<!channel>`), a link or a user reference; everything else is shown as it is.
 */
export function slackEscape(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** The POST body: Slack's `text` first, then the structured fields as data. */
export function webhookBody(notification: Notification): string {
  return JSON.stringify({ text: slackEscape(notification.lines.join('\n')), ...notification.fields });
}

/**
 * POSTs the notification as JSON. A redirect is refused (it could lead the body to plain http or
 * elsewhere); anything but a 2xx answer is a failure. The response body is discarded unread.
 */
export async function postWebhook(url: URL, notification: Notification, signal: AbortSignal): Promise<void> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: webhookBody(notification),
    redirect: 'error',
    signal,
  });
  await response.body?.cancel().catch(() => undefined);
  if (!response.ok) throw new Error(`the server answered HTTP ${response.status}`);
}
