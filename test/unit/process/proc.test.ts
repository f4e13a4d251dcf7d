import { describe, expect, it } from 'vitest';
import { environHas, parseProcStat, processStartTime } from '../../../src/process/proc.js';

// The layout of /proc/PID/stat is proc(5)'s: "pid (comm) state ppid pgrp session … starttime(22) …".
const stat = (comm: string) =>
  `4242 (${comm}) S 1 4240 4240 0 -1 4194560 120 0 0 0 3 1 0 0 20 0 1 0 987654 1245184 300 18446744073709551615 1 1 0 0 0 0 0 0 0 0 0 0 17 1 0 0 0 0 0`;

describe('parseProcStat', () => {
  it('reads state, process group and start tick', () => {
    expect(parseProcStat(stat('sleep'))).toEqual({ comm: 'sleep', state: 'S', pgrp: 4240, startTicks: '987654' });
  });

  it('counts fields from the last parenthesis: a name may hold spaces and ") ("', () => {
    expect(parseProcStat(stat('a) (b c) Z 9'))).toEqual({
      comm: 'a) (b c) Z 9',
      state: 'S',
      pgrp: 4240,
      startTicks: '987654',
    });
  });

  it('refuses a truncated line', () => {
    expect(parseProcStat('4242 (sleep) S 1 4240')).toBeUndefined();
  });
});

describe('environHas', () => {
  const environ = Buffer.from('PATH=/bin\0XRALPH_RUN_MARKER=run1:agent-1\0RALPH_RUN_MARKER=run2:agent-10\0', 'latin1');

  it('matches whole variables only, exactly or by prefix', () => {
    expect(environHas(environ, 'RALPH_RUN_MARKER=run2:agent-10', true)).toBe(true);
    expect(environHas(environ, 'RALPH_RUN_MARKER=run2:agent-1', true)).toBe(false);
    expect(environHas(environ, 'RALPH_RUN_MARKER=run2:', false)).toBe(true);
    // Inside another variable's name: not a match.
    expect(environHas(environ, 'RALPH_RUN_MARKER=run1:', false)).toBe(false);
  });

  it('matches the first variable, which has no NUL before it', () => {
    expect(
      environHas(Buffer.from('RALPH_RUN_MARKER=r:gate-1-x\0', 'latin1'), 'RALPH_RUN_MARKER=r:gate-1-x', true),
    ).toBe(true);
  });
});

describe('processStartTime', () => {
  it('is stable for a running process and absent for one that is not', () => {
    const mine = processStartTime(process.pid);
    expect(mine).toMatch(/^\d+@/);
    expect(processStartTime(process.pid)).toBe(mine);
    expect(processStartTime(2 ** 22 + 7)).toBeUndefined();
  });
});
