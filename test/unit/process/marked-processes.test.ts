import { spawn } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { endMarked, MARKER_VARIABLE } from '../../../src/process/marked-processes.js';
import { bootTicksNow, hasProc, readProcStat } from '../../../src/process/proc.js';

const children: number[] = [];
afterEach(() => {
  for (const pid of children.splice(0)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // Already ended by the test.
    }
  }
});

/** A marked `sleep` and its start tick, once it runs. */
async function markedSleep(marker: string): Promise<{ pid: number; startTicks: number }> {
  const child = spawn('sleep', ['30'], { env: { ...process.env, [MARKER_VARIABLE]: marker }, stdio: 'ignore' });
  children.push(child.pid!);
  await new Promise((resolve) => child.once('spawn', resolve));
  return { pid: child.pid!, startTicks: Number(readProcStat(child.pid!)!.startTicks) };
}

describe.skipIf(!hasProc())('the marker sweep', () => {
  it('skips a marked process that started before the scope, and finds it when the scope is older', async () => {
    const marker = `test${process.pid}:scope`;
    const { pid, startTicks } = await markedSleep(marker);
    expect(await endMarked({ exact: marker, sinceTicks: startTicks + 1 }, { graceMs: 0 })).toEqual([]);
    expect(readProcStat(pid)?.state).not.toBe('Z');
    const ended = await endMarked({ exact: marker, sinceTicks: startTicks }, { graceMs: 1000 });
    expect(ended.map((found) => found.pid)).toEqual([pid]);
  });

  it('counts boot ticks on the clock /proc/PID/stat uses (less its one-second margin)', async () => {
    const { startTicks } = await markedSleep(`test${process.pid}:clock`);
    // bootTicksNow() is now less 100 ticks; the sleep started a moment (under 5 s) before now.
    const now = bootTicksNow()! + 100;
    // One tick of slack: uptime and the start field round their hundredths apart.
    expect(startTicks).toBeLessThanOrEqual(now + 1);
    expect(startTicks).toBeGreaterThan(now - 500);
  });
});
