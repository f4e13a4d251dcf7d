import { maskTarget, maskTokens } from '../config/mask-secrets.js';
import type { NotifyEvent } from '../config/notify-events.js';
import { deliver, parseTarget, type NotifyTarget } from '../config/targets/target-kinds.js';
import { checkoutPlace, notificationOf, wanted, type Happening, type LoopPlace } from './notification.js';

/** How long one notification may take before it is given up (its command killed, its request aborted). */
export const NOTIFY_TIMEOUT_MS = 10_000;

/** What the notifier is told once, as the run's settings resolve. */
export interface NotifierOptions {
  targets: readonly string[];
  chosen: readonly NotifyEvent[] | undefined;
  /** The repository: a `cmd:` program inside it is refused (the agent can rewrite it); the command runs there. */
  root: string;
  /** How the notifications name the loop; the repository's own checkout when absent. */
  place?: LoopPlace;
  env: NodeJS.ProcessEnv;
  /** One warning line in the transcript. */
  warn: (line: string) => void;
  platform?: NodeJS.Platform;
  timeoutMs?: number;
}

/** Sends the run's notifications: each bounded, none able to change the run; it counts the failures. */
export interface Notifier {
  /** Sends to every target at once; resolves when each has succeeded, failed or timed out. Never rejects. */
  notify(happening: Happening): Promise<void>;
  /** The same, mid-run, without holding the loop up: `settled` waits for it. */
  notifyLater(happening: Happening): void;
  /** Resolves once every notification sent so far has finished. */
  settled(): Promise<void>;
  /** How many notifications failed (one per target and event). */
  failed(): number;
}

export function createNotifier(options: NotifierOptions): Notifier {
  const targets = options.targets.map((text) => ({ shown: maskTarget(text), target: targetOf(text) }));
  const place = options.place ?? checkoutPlace(options.root);
  const pending = new Set<Promise<void>>();
  let skipSaid = false;
  const timeoutMs = options.timeoutMs ?? NOTIFY_TIMEOUT_MS;
  let failed = 0;
  // Not a failure: this machine has no desktop. Said once a run.
  const skipped = (why: string) => {
    if (!skipSaid) options.warn(`ralph: desktop notifications skipped: ${why}`);
    skipSaid = true;
  };
  const platform = options.platform ?? process.platform;
  const notify = async (happening: Happening) => {
    if (targets.length === 0 || !wanted(happening, options.chosen, options.env)) return;
    const notification = notificationOf(happening, place, options.env);
    await Promise.all(
      targets.map(async ({ target, shown }) => {
        const signal = AbortSignal.timeout(timeoutMs);
        try {
          await deliver(target, notification, { root: options.root, env: options.env, platform, signal, skipped });
        } catch (error) {
          failed += 1;
          options.warn(
            `ralph: warning: the ${notification.event} notification to ${shown} failed: ${why(error, timeoutMs)}`,
          );
        }
      }),
    );
  };
  return {
    notify,
    notifyLater(happening) {
      const sent = notify(happening).finally(() => pending.delete(sent));
      pending.add(sent);
    },
    async settled() {
      await Promise.all([...pending]);
    },
    failed: () => failed,
  };
}

function targetOf(text: string): NotifyTarget {
  const parsed = parseTarget(text);
  // The settings checked every target as they resolved: a bad one here is a bug.
  if (!parsed.ok) throw new Error(`unchecked notification target: ${parsed.error}`);
  return parsed.target;
}

/** Why a delivery failed, in one line with nothing token-like in it. */
function why(error: unknown, timeoutMs: number): string {
  const name = (error as Error).name;
  if (name === 'TimeoutError' || name === 'AbortError') return `no answer within ${timeoutMs / 1000} s`;
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  const detail = cause?.code ?? cause?.message;
  const message = `${(error as Error).message}${detail ? ` (${detail})` : ''}`;
  return maskTokens(message.split('\n')[0] ?? '');
}
