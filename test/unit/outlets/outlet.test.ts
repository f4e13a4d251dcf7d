import { describe, expect, it } from 'vitest';
import { fanOut } from '../../../src/outlets/combined-listeners.js';
import type { EndingNote, Outlet } from '../../../src/outlets/run-listener.js';

const note = { report: { reason: 'complete', exitCode: 0 }, paths: { root: '/r' } } as unknown as EndingNote;

describe('fanOut', () => {
  it('delivers to every outlet in order; a failing one is one warning line and the rest still run', async () => {
    const heard: string[] = [];
    const warnings: string[] = [];
    const outlet = (name: string, fail = false): Outlet => ({
      name,
      async deliver(received) {
        heard.push(`${name}:${received.report.reason}`);
        if (fail) throw new Error('disk full');
      },
    });
    const failed = await fanOut([outlet('a'), outlet('b', true), outlet('c')], note, (line) => warnings.push(line));
    expect(heard).toEqual(['a:complete', 'b:complete', 'c:complete']);
    expect(failed).toBe(1);
    expect(warnings).toEqual(['ralph: warning: the b could not be written: disk full']);
  });
});
