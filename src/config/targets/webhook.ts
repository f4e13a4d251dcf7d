import type { Notification } from '../notify-events.js';
import type { TargetKind } from './target-kind.js';

export interface WebhookTarget {
  kind: 'webhook';
  url: URL;
}

/** Plain http only to this machine: a webhook's secret never crosses a network in clear text. */
const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

/** An https:// URL, or plain http:// to this machine, POSTed the notification as JSON. */
export const webhookTarget: TargetKind<WebhookTarget> = {
  name: 'webhook',
  expected: 'an https:// URL (http:// only to localhost)',
  read(text, got) {
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
  },
  deliver: (target, notification, { signal }) => postWebhook(target.url, notification, signal),
};

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
async function postWebhook(url: URL, notification: Notification, signal: AbortSignal): Promise<void> {
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
