import { describe, expect, it } from 'vitest';
import { combinedEvents, fanOut } from '../../../src/outlets/combined-listeners.js';
import type { EndingNote, Outlet, RunListener } from '../../../src/outlets/run-listener.js';
import type { IterationRow } from '../../../src/loop/port-data.js';

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

describe('combinedEvents', () => {
  const finished = { row: { iteration: 4 } as IterationRow, committed: true };

  it('hands an iteration’s end to each listener once the one before has written its record', async () => {
    const heard: string[] = [];
    const writer: RunListener = {
      name: 'writer',
      events: {
        iterationFinished: async ({ row }) => {
          heard.push(`writing ${row.iteration}`);
          for (let turn = 0; turn < 5; turn += 1) await Promise.resolve();
          heard.push(`written ${row.iteration}`);
        },
      },
    };
    const screen: RunListener = { name: 'screen', events: { iterationFinished: () => void heard.push('shown') } };
    const ended = combinedEvents([writer, screen]).iterationFinished(finished);
    heard.push('returned');
    await ended;
    expect(heard).toEqual(['writing 4', 'returned', 'written 4', 'shown']);
  });

  it('rejects when a record cannot be written, and the listeners after it do not hear the end', async () => {
    const heard: string[] = [];
    const writer: RunListener = {
      name: 'writer',
      events: { iterationFinished: () => Promise.reject(new Error('disk full')) },
    };
    const screen: RunListener = { name: 'screen', events: { iterationFinished: () => void heard.push('shown') } };
    await expect(combinedEvents([writer, screen]).iterationFinished(finished)).rejects.toThrow('disk full');
    expect(heard).toEqual([]);
  });
});
