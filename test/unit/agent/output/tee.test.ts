import { Writable } from 'node:stream';
import { finished } from 'node:stream/promises';
import { describe, expect, it } from 'vitest';
import { neutralisedLog } from '../../../../src/agent/output/neutralised-log.js';
import { tee } from '../../../../src/agent/output/tee.js';

/** A log that takes each write a few milliseconds later, as a busy disk does; it refuses writes after its end. */
function slowLog() {
  const written: string[] = [];
  const log = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      setTimeout(() => {
        written.push(chunk.toString());
        callback();
      }, 2);
    },
  });
  return { log, written };
}

describe('tee', () => {
  it('finishes only once what its own targets took has reached the log beneath: the log may close then', async () => {
    const { log, written } = slowLog();
    const crashes: Error[] = [];
    log.on('error', (error) => crashes.push(error));
    const readable = neutralisedLog(log);
    const output = tee([readable], (error) => crashes.push(error), undefined, [readable]);
    for (let line = 0; line < 50; line++) output.write(`line ${line}\n`);
    output.end();
    await finished(output);
    // What the iteration's logs do next: end the file.
    log.end();
    await finished(log);
    expect(crashes).toEqual([]);
    expect(written.join('')).toBe(Array.from({ length: 50 }, (_, line) => `line ${line}\n`).join(''));
  });
});
