import { formatDuration } from './format.js';
import type { Console } from './screen.js';
import type { Mode } from '../loop/mode.js';
import { formatUsage, type UsageWindow } from '../domain/usage.js';

/** The one status line redrawn each second while an agent works: elapsed time, tool calls, cost so far, usage. */
export class LiveStatus {
  private live:
    { iteration: number; mode: Mode; startedAt: number; toolCalls: number; timer: NodeJS.Timeout } | undefined;
  private costUsd = 0;
  private windows: UsageWindow[] = [];

  constructor(
    private readonly out: Console,
    private readonly now: () => number,
  ) {}

  /** An agent started: draw the line now and every second until `end`. */
  start(iteration: number, mode: Mode): void {
    const timer = setInterval(() => this.draw(), 1000);
    timer.unref();
    this.live = { iteration, mode, startedAt: this.now(), toolCalls: 0, timer };
    this.draw();
  }

  /** One more tool call, shown at the next redraw. */
  toolCall(): void {
    if (this.live) this.live.toolCalls++;
  }

  /** The newest usage windows, shown at once. */
  usage(windows: UsageWindow[]): void {
    this.windows = windows;
    this.draw();
  }

  /** The agent finished: stop redrawing, clear the line, and add its cost to the run's. */
  end(costUsd: number): void {
    this.costUsd += costUsd;
    if (!this.live) return;
    clearInterval(this.live.timer);
    this.live = undefined;
    this.out.status(undefined);
  }

  private draw(): void {
    if (!this.live) return;
    const { iteration, mode, startedAt, toolCalls } = this.live;
    const cost = this.costUsd > 0 ? ` · $${this.costUsd.toFixed(2)} so far` : '';
    const used = this.windows.length > 0 ? ` · usage ${formatUsage(this.windows)}` : '';
    this.out.status(
      `⋯ iteration ${iteration} · ${mode} · ${formatDuration(this.now() - startedAt)} · ${toolCalls} tool calls${cost}${used}`,
    );
  }
}
