import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { findOwnCgroup } from './cgroup.js';

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
  private moving = false;
  /** A move refused once (no write access to its own cgroup): it is never tried again. */
  private refused = false;

  constructor(
    private readonly ports: {
      /** Moves ralph into the cgroup it is in; rejects when the kernel refuses. */
      moveSelf: () => Promise<void>;
      now: () => number;
      later: (step: () => void, ms: number) => void;
    },
  ) {}

  /** Keeps the kernel ready for the next `forMs` milliseconds (or longer, if asked before). */
  keep(forMs: number): void {
    this.readyUntil = Math.max(this.readyUntil, this.ports.now() + forMs);
    if (!this.moving && !this.refused) this.step();
  }

  private step(): void {
    this.moving = true;
    this.ports.moveSelf().then(
      () => {
        if (this.ports.now() >= this.readyUntil) this.moving = false;
        else this.ports.later(() => this.step(), MOVE_INTERVAL_MS);
      },
      () => {
        this.moving = false;
        this.refused = true;
      },
    );
  }
}

/**
 * Well inside one grace period: the kernel's window stays open from one move to the next. A move
 * that finds it open is a write of a few microseconds.
 */
const MOVE_INTERVAL_MS = 4;

let mountinfo: string | undefined;

/**
 * ralph's own. Its cgroup is read again at every move: one that someone else moved ralph to is
 * where it stays (but for the moment between the read and the write).
 */
export const moveReadiness = new MoveReadiness({
  moveSelf: async () => {
    // The mounts are read once: each move reads only where ralph is, off the main thread.
    mountinfo ??= await readFile('/proc/self/mountinfo', 'utf8');
    const home = findOwnCgroup(mountinfo, await readFile('/proc/self/cgroup', 'utf8'));
    if ('why' in home) throw new Error(home.why);
    await writeFile(join(home.dir, 'cgroup.procs'), String(process.pid));
  },
  now: () => performance.now(),
  later: (step, ms) => setTimeout(step, ms).unref(),
});
