import { Writable } from 'node:stream';
import { finished } from 'node:stream/promises';
import { setImmediate as turn } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { neutralisedLog } from '../../../../src/agent/output/neutralised-log.js';

/** A log whose writes land only when the test says so, as a disk that has fallen behind. */
function heldLog(highWaterMark: number) {
  const landing: (() => void)[] = [];
  const written: string[] = [];
  const log = new Writable({
    highWaterMark,
    write(chunk: Buffer, _encoding, callback) {
      landing.push(() => (written.push(chunk.toString()), callback()));
    },
  });
  const land = async () => {
    while (landing.length > 0) {
      for (const write of landing.splice(0)) write();
      await turn();
    }
  };
  return { log, written, land };
}

describe('neutralisedLog', () => {
  it('takes the next chunk while the log has room, not after each write lands, and waits when it is full', async () => {
    const { log, written, land } = heldLog(10);
    const readable = neutralisedLog(log);
    const taken: string[] = [];
    readable.write('abc', () => taken.push('abc'));
    readable.write('def', () => taken.push('def'));
    await turn();
    // Nothing has reached the disk, and both are taken: 6 bytes wait in a buffer of 10.
    expect(written).toEqual([]);
    expect(taken).toEqual(['abc', 'def']);
    readable.write('ghijklmno', () => taken.push('ghijklmno'));
    readable.write('p', () => taken.push('p'));
    await turn();
    // 15 bytes wait now: the agent is held back until the log drains.
    expect(taken).toEqual(['abc', 'def']);
    await land();
    expect(taken).toEqual(['abc', 'def', 'ghijklmno', 'p']);
    readable.end();
    await finished(readable);
    await land();
    expect(written.join('')).toBe('abcdefghijklmnop');
  });

  it('shows the controls it passes on and drops colour, a sequence split across two chunks judged whole', async () => {
    const written: string[] = [];
    const log = new Writable({
      write: (chunk: Buffer, _encoding, callback) => (written.push(String(chunk)), callback()),
    });
    const readable = neutralisedLog(log);
    readable.write(Buffer.from('red \u001b['));
    readable.write(Buffer.from('31mtext\u001b[0m and a bell \u0007\n'));
    readable.end();
    await finished(readable);
    // The colour dropped (a file is no colour terminal), the bell shown as its control picture.
    expect(written.join('')).toBe('red text and a bell \u2407\n');
  });
});
