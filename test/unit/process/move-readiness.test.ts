import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { MoveReadiness, moveReadiness } from '../../../src/process/move-readiness.js';
import { cgroupWritable } from '../../helpers/cgroup.js';

/** A readiness on a hand-driven clock: `settle` lets the pending move finish, `tick` runs the next step. */
function drivenReadiness(answer: () => Promise<void> = () => Promise.resolve(), opens: () => void = () => undefined) {
  let now = 0;
  let moves = 0;
  let inFlight = 0;
  let most = 0;
  let open = 0;
  const pending: { step: () => void; at: number }[] = [];
  const readiness = new MoveReadiness({
    startMoving: () => {
      opens();
      open += 1;
      return {
        move: async () => {
          moves += 1;
          inFlight += 1;
          most = Math.max(most, inFlight);
          try {
            await answer();
          } finally {
            inFlight -= 1;
          }
        },
        stop: () => (open -= 1),
      };
    },
    now: () => now,
    later: (step, ms) => pending.push({ step, at: now + ms }),
  });
  const settle = () => new Promise((resolve) => setImmediate(resolve));
  /** Runs the next step when it is due: false when nothing is waiting. */
  const tick = async () => {
    await settle();
    const next = pending.shift();
    if (!next) return false;
    now = Math.max(now, next.at);
    next.step();
    await settle();
    return true;
  };
  return {
    readiness,
    tick,
    settle,
    advance: (ms: number) => (now += ms),
    counts: () => ({ moves, most, waiting: pending.length, open }),
  };
}

describe('MoveReadiness', () => {
  it('moves at once, then every few milliseconds until the time asked for has passed', async () => {
    const driven = drivenReadiness();
    driven.readiness.keep(20);
    while (await driven.tick());
    // At 0, 4, 8, 12, 16 and 20 ms: the last one finds the time up.
    expect(driven.counts()).toEqual({ moves: 6, most: 1, waiting: 0, open: 0 });
  });

  it('a second ask while it moves lengthens the time, and never starts a second chain of moves', async () => {
    const driven = drivenReadiness();
    driven.readiness.keep(8);
    await driven.tick();
    driven.readiness.keep(20);
    driven.readiness.keep(1);
    while (await driven.tick());
    // Asked at 4 ms for 20 more: moves at 0, 4, 8, … 24.
    expect(driven.counts()).toEqual({ moves: 7, most: 1, waiting: 0, open: 0 });
  });

  it('asked again after it stopped, it starts again', async () => {
    const driven = drivenReadiness();
    driven.readiness.keep(0);
    while (await driven.tick());
    expect(driven.counts().moves).toBe(1);
    driven.advance(1000);
    driven.readiness.keep(0);
    await driven.settle();
    expect(driven.counts().moves).toBe(2);
  });

  it('enough: no move after the one under way, and asked again later, it moves again', async () => {
    const driven = drivenReadiness();
    driven.readiness.keep(30);
    await driven.tick();
    await driven.tick();
    // Moved at 0, 4 and 8 ms; the scope starts while the move at 8 ms is under way.
    driven.readiness.enough();
    while (await driven.tick());
    expect(driven.counts()).toEqual({ moves: 3, most: 1, waiting: 0, open: 0 });
    driven.advance(1000);
    driven.readiness.keep(10);
    while (await driven.tick());
    expect(driven.counts().moves).toBe(3 + 4);
  });

  it('enough while nothing moves changes nothing', async () => {
    const driven = drivenReadiness();
    driven.readiness.enough();
    driven.readiness.keep(8);
    while (await driven.tick());
    expect(driven.counts()).toEqual({ moves: 3, most: 1, waiting: 0, open: 0 });
  });

  it('a move the kernel refuses is never tried again', async () => {
    const driven = drivenReadiness(() => Promise.reject(new Error('EACCES')));
    driven.readiness.keep(50);
    while (await driven.tick());
    driven.readiness.keep(50);
    while (await driven.tick());
    expect(driven.counts()).toEqual({ moves: 1, most: 1, waiting: 0, open: 0 });
  });

  it('where cgroup.procs cannot be opened, nothing is moved, and it is not tried again', async () => {
    let tries = 0;
    const driven = drivenReadiness(undefined, () => {
      tries += 1;
      throw new Error('EACCES');
    });
    driven.readiness.keep(50);
    driven.readiness.keep(50);
    while (await driven.tick());
    expect(tries).toBe(1);
    expect(driven.counts()).toEqual({ moves: 0, most: 0, waiting: 0, open: 0 });
  });
});

describe('moveReadiness', () => {
  it.skipIf(!cgroupWritable)('moves nothing: ralph stays in the cgroup it is in', async () => {
    const before = readFileSync('/proc/self/cgroup', 'utf8');
    moveReadiness.keep(20);
    // The writes are libuv's; a moment later they are done.
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(readFileSync('/proc/self/cgroup', 'utf8')).toBe(before);
  });

  it.skipIf(!cgroupWritable)('a process started while it moves gets no handle on ralph’s cgroup.procs', () => {
    moveReadiness.keep(200);
    const open = execFileSync('sh', ['-c', 'ls -l /proc/$$/fd'], { encoding: 'utf8' });
    expect(open).not.toContain('cgroup.procs');
    // The handle is there to be inherited, or this test proves nothing.
    expect(readdirSync('/proc/self/fd').map((fd) => readlinkOr(`/proc/self/fd/${fd}`))).toContainEqual(
      expect.stringMatching(/cgroup\.procs$/),
    );
  });
});

function readlinkOr(path: string): string {
  try {
    return readlinkSync(path);
  } catch {
    return '';
  }
}
