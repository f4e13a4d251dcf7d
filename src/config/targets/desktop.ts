import { findExecutable } from '../../process/find-executable.js';
import type { Notification } from '../notify-events.js';
import { runCommand } from './command.js';
import type { TargetKind } from './target-kind.js';
import { slackEscape } from './webhook.js';

export interface DesktopTarget {
  kind: 'desktop';
}

/** `desktop`: this machine's own notifications, or one warning a run when it has none. */
export const desktopTarget: TargetKind<DesktopTarget> = {
  name: 'desktop',
  expected: 'desktop',
  read: (text) => (text === 'desktop' ? { ok: true, target: { kind: 'desktop' } } : undefined),
  async deliver(_target, notification, context) {
    const desktop = await desktopCommand(notification, context.platform, context.env);
    if (desktop.ok) return runCommand(desktop.argv, notification, context);
    context.skipped(desktop.why);
  },
};

/** How this machine shows a desktop notification: the program and its argv, or why it cannot. */
export type DesktopCommand = { ok: true; argv: [string, ...string[]] } | { ok: false; why: string };

/**
 * notify-send on Linux (its body takes markup: `&`, `<`, `>` escaped, as for Slack), osascript
 * on macOS (the text as arguments of the script, never inside its source). Without a display
 * (`DISPLAY`, `WAYLAND_DISPLAY`), in CI, or without the program, there is no desktop to notify.
 */
export async function desktopCommand(
  notification: Notification,
  platform: NodeJS.Platform,
  env: NodeJS.ProcessEnv,
): Promise<DesktopCommand> {
  const body = notification.lines.slice(1).join('\n') || notification.lines[0] || '';
  if (platform === 'darwin') {
    if (env.SSH_CONNECTION && !env.DISPLAY) return { ok: false, why: 'a remote session has no display' };
    return {
      ok: true,
      argv: [
        'osascript',
        '-e',
        'on run argv',
        '-e',
        'display notification (item 2 of argv) with title (item 1 of argv)',
        '-e',
        'end run',
        notification.title,
        body,
      ],
    };
  }
  if (platform !== 'linux') return { ok: false, why: `no desktop notifications on ${platform}` };
  if (!env.DISPLAY && !env.WAYLAND_DISPLAY) return { ok: false, why: 'no display (DISPLAY and WAYLAND_DISPLAY unset)' };
  if (!(await findExecutable('notify-send', '/', env.PATH ?? '')))
    return { ok: false, why: 'notify-send is not installed (Debian: libnotify-bin)' };
  return { ok: true, argv: ['notify-send', '--app-name=ralph', '--', notification.title, slackEscape(body)] };
}
