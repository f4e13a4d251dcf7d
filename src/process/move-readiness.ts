import { close, constants, openSync, write } from 'node:fs';
import { join } from 'node:path';
import { findOwnCgroup } from './cgroup.js';
import { monotonicMs } from './monotonic-clock.js';

/**
 * Moving a process into a cgroup takes the kernel's cgroup_threadgroup_rwsem for writing. The first
 * move after a quiet while waits for an RCU grace period while the rwsem leaves its fast mode
 * (6–12 ms on a quiet machine here, 20–30 ms while ralph starts), and holds cgroup_mutex as it
 * waits: the wrapper that moves each agent and gate (cgroup.ts `inCgroup`) paid it on the way to
 * its first instruction. For a while after a move, the next one is free. So while a scope is about
 * to start, ralph moves itself every few milliseconds: its own pid written to the cgroup it is in
 * moves nothing, the wait is taken in libuv's pool while ralph loads and checks the start, and the
 * wrapper finds the kernel ready.
 */
export class MoveReadiness {
  private readyUntil = 0;
  /** The moves under way, from the first ask to the end of the time asked for. */
  private mover: SelfMover | undefined;
  /** A move refused once (no write access to its own cgroup): it is never tried again. */
  private refused = false;
  /** The scope started since the last ask: the next move waiting is not made. */
  private started = false;

  constructor(
    private readonly ports: {
      /** Gets ready to move ralph into the cgroup it is in; throws when it cannot be. */
      startMoving: () => SelfMover;
      now: () => number;
      later: (step: () => void, ms: number) => void;
    },
  ) {}

  /** Keeps the kernel ready for the next `forMs` milliseconds (or longer, if asked before). */
  keep(forMs: number): void {
    this.readyUntil = Math.max(this.readyUntil, this.ports.now() + forMs);
    this.started = false;
    if (this.mover || this.refused) return;
    try {
      this.mover = this.ports.startMoving();
    } catch {
      this.refused = true;
      return;
    }
    this.step(this.mover);
  }

  /**
   * The scope has started (its wrapper runs and moves itself next): no move after the one under
   * way. The kernel stays ready for a grace period after a move, long enough for the wrapper's,
   * and each move more is a write and a wake of libuv's pool, paid in CPU an iteration.
   */
  enough(): void {
    this.readyUntil = Math.min(this.readyUntil, this.ports.now());
    this.started = true;
  }

  private step(mover: SelfMover): void {
    mover.move().then(
      () => {
        if (this.ports.now() >= this.readyUntil) return this.end(mover);
        this.ports.later(() => (this.started ? this.end(mover) : this.step(mover)), MOVE_INTERVAL_MS);
      },
      () => {
        this.refused = true;
        this.end(mover);
      },
    );
  }

  private end(mover: SelfMover): void {
    this.mover = undefined;
    mover.stop();
  }
}

/** ralph's moves into its own cgroup, for as long as they are wanted. */
export interface SelfMover {
  /** One move; rejects when the kernel refuses it. */
  move(): Promise<void>;
  /** No more moves: what they held open is closed. */
  stop(): void;
}

/**
 * Well inside one grace period: the kernel's window stays open from one move to the next. A move
 * that finds it open is a write of a few microseconds.
 */
const MOVE_INTERVAL_MS = 4;

/**
 * ralph's own. The first move must begin at once, while the main thread is busy with ralph's
 * start: so cgroup.procs is opened here (close-on-exec: no child inherits it) and each move is one
 * write in libuv's pool. Where ralph is, is read when the moves begin; they last at most a few
 * hundred milliseconds.
 */
export const moveReadiness = new MoveReadiness({
  startMoving: () => {
    const home = findOwnCgroup();
    if ('why' in home) throw new Error(home.why);
    const fd = openSync(join(home.dir, 'cgroup.procs'), constants.O_WRONLY);
    const pid = Buffer.from(String(process.pid));
    return {
      move: () =>
        new Promise<void>((resolve, reject) =>
          write(fd, pid, 0, pid.length, 0, (error) => (error ? reject(error) : resolve())),
        ),
      stop: () => close(fd, () => undefined),
    };
  },
  now: monotonicMs,
  later: (step, ms) => setTimeout(step, ms).unref(),
});
