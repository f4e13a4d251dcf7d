import { realpath } from 'node:fs/promises';
import { relative, isAbsolute } from 'node:path';
import { findExecutable } from '../../process/find-executable.js';
import { signalGroup } from '../../process/process-group.js';
import { startInGroup } from '../../process/start-in-group.js';
import { splitCommand } from '../command-words.js';
import type { Notification } from '../notify-events.js';
import type { TargetKind } from './target-kind.js';

export interface CommandTarget {
  kind: 'command';
  argv: [string, ...string[]];
}

/** `cmd:<command>`: a program run without a shell, told the notification on stdin and in its environment. */
export const commandTarget: TargetKind<CommandTarget> = {
  name: 'command',
  expected: 'cmd:<command>',
  read(text, got) {
    if (!text.startsWith('cmd:')) return undefined;
    const split = splitCommand(text.slice(4));
    if (!split.ok) return { ok: false, error: `${split.error}${got}` };
    return { ok: true, target: { kind: 'command', argv: split.argv as [string, ...string[]] } };
  },
  deliver: (target, notification, context) => runCommand(target.argv, notification, context),
};

/** `costUsd` → `RALPH_EVENT_COST_USD`; the event's own name is `RALPH_EVENT_NAME`. */
export function eventVariable(field: string): string {
  if (field === 'event') return 'RALPH_EVENT_NAME';
  return `RALPH_EVENT_${field.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toUpperCase()}`;
}

/** The notification as the command's environment: its fields, and the plain text. */
export function eventEnvironment(notification: Notification): Record<string, string> {
  const variables: Record<string, string> = { RALPH_EVENT_TEXT: notification.lines.join('\n') };
  for (const [field, value] of Object.entries(notification.fields)) variables[eventVariable(field)] = String(value);
  return variables;
}

/** What the command reads on stdin: the same fields as a webhook's, `text` in plain words. */
export function eventJson(notification: Notification): string {
  return `${JSON.stringify({ text: notification.lines.join('\n'), ...notification.fields })}\n`;
}

/**
 * Runs a `cmd:` target: argv as split from the config, never a shell, in its own process group,
 * its output discarded (it may echo agent text; it never reaches the terminal). An executable inside
 * the repository is refused: the agent can rewrite it. When the signal fires the group is killed;
 * once the command exits, whatever it left running in its group is ended too.
 */
export async function runCommand(
  argv: readonly [string, ...string[]],
  notification: Notification,
  options: { root: string; env: NodeJS.ProcessEnv; signal: AbortSignal },
): Promise<void> {
  const [name, ...args] = argv;
  const file = await findExecutable(name, options.root, options.env.PATH ?? '');
  if (file === undefined) throw new Error(`no executable ${name} (on PATH or as a path)`);
  // Before and after links: a link inside the repository is the agent's to point anywhere.
  const root = await realpath(options.root);
  if (within(options.root, file) || within(root, await realpath(file)))
    throw new Error(`${name} is inside the repository, where the agent can rewrite it; use a command outside it`);
  if (options.signal.aborted) throw new Error('it did not finish in time and was ended');
  const { child, ended } = startInGroup(file, args, {
    cwd: options.root,
    env: { ...withoutEvents(options.env), ...eventEnvironment(notification) },
    stdio: ['pipe', 'ignore', 'ignore'],
  });
  // A command that exits without reading all of it (EPIPE) has still been told.
  child?.stdin?.on('error', () => undefined);
  child?.stdin?.end(eventJson(notification));
  const kill = () => {
    if (child?.pid !== undefined) signalGroup(child.pid, 'SIGKILL');
  };
  options.signal.addEventListener('abort', kill, { once: true });
  try {
    const result = await ended;
    if (options.signal.aborted) throw new Error('it did not finish in time and was ended');
    if (result.error) throw new Error(`it could not start: ${result.error.code ?? result.error.message}`);
    if (result.signal) throw new Error(`it was ended by ${result.signal}`);
    if (result.exitCode !== 0) throw new Error(`it exited with ${result.exitCode}`);
  } finally {
    options.signal.removeEventListener('abort', kill);
    kill();
  }
}

function within(root: string, path: string): boolean {
  const inside = relative(root, path);
  return inside === '' || (!inside.startsWith('..') && !isAbsolute(inside));
}

/** The environment without RALPH_EVENT_* variables a parent left: only this event's are set. */
function withoutEvents(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(env).filter(([name]) => !name.startsWith('RALPH_EVENT_')));
}
