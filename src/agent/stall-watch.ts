import type { FatalAgentFailure } from '../domain/agent-failure.js';
import { AwakeClock, type AwakeTimer } from '../process/awake-clock.js';
import type { AgentDialect } from './dialect.js';

/** How long a client may do nothing but retry before ralph calls its network unreachable. */
export const RETRY_ONLY_LIMIT_MS = 2 * 60_000;

/** The variable the end-to-end tests shorten the window with, so a retrying client ends in seconds. */
export const RETRY_WINDOW_VARIABLE = 'RALPH_TEST_RETRY_WINDOW_MS';

/**
 * The window, from ralph's own environment: never the agent's, which could not change it anyway,
 * and never ralph/config.json, which the agent may write. It can only be shortened (down to one
 * second), so nothing that sets it can let a client retry for longer than two minutes.
 */
export function retryOnlyLimit(env: NodeJS.ProcessEnv): number {
  const ms = Number(env[RETRY_WINDOW_VARIABLE]);
  return Number.isInteger(ms) && ms >= 1000 && ms < RETRY_ONLY_LIMIT_MS ? ms : RETRY_ONLY_LIMIT_MS;
}

/**
 * Ends a client that will never do any work: one that only reports retries (Codex reconnects
 * forever without a network), or that prints a login prompt and waits for a code no one will paste
 * (Amp without a key). Such a client keeps printing, so no idle timeout catches it; without this it
 * would cost the whole iteration timeout. The verdict is the failure the loop ends on.
 */
export class StallWatch {
  private timer: AwakeTimer | undefined;
  private lastNote = '';
  private decided = false;

  constructor(
    private readonly dialect: Pick<AgentDialect, 'name' | 'classifyFailure' | 'hints'>,
    private readonly onVerdict: (failure: FatalAgentFailure) => void,
    private readonly limitMs = RETRY_ONLY_LIMIT_MS,
    /** The iteration's awake time: a machine asleep while the client retried does not count. */
    private readonly clock = new AwakeClock(),
  ) {}

  /** The client reported a retry: the clock starts at the first of an unbroken run of them. */
  retry(note: string): void {
    if (note) this.lastNote = note;
    this.timer ??= this.clock.timer(this.limitMs, () => {
      const said = this.lastNote ? `: ${this.lastNote}` : '';
      const [count, unit] = spanOf(this.limitMs);
      this.decide({
        kind: 'setup',
        cause: 'network',
        message: `${this.dialect.name} did nothing but retry for ${count} ${unit}${count === 1 ? '' : 's'}${said}`,
        hint: this.dialect.hints.network,
      });
    });
  }

  /** The client did something else than retry: it is working. */
  progress(): void {
    this.timer?.clear();
    this.timer = undefined;
  }

  /** A line outside the client's stream (a prompt on stdout): a login prompt ends the call at once. */
  plainLine(line: string): void {
    const failure = this.dialect.classifyFailure(line);
    if (failure?.kind === 'auth') this.decide(failure);
  }

  stop(): void {
    this.timer?.clear();
  }

  private decide(failure: FatalAgentFailure): void {
    if (this.decided) return;
    this.decided = true;
    this.stop();
    this.onVerdict(failure);
  }
}

/** The window in whole minutes, or in seconds when the tests shortened it below one. */
function spanOf(ms: number): [number, 'minute' | 'second'] {
  return ms >= 60_000 ? [Math.round(ms / 60_000), 'minute'] : [Math.round(ms / 1000), 'second'];
}
