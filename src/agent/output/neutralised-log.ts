import { Writable } from 'node:stream';
import { drained } from '../../text/drained.js';
import { Neutraliser } from '../../text/neutralise.js';

/**
 * The readable `.log` as the agent's bytes become text a person may `cat` or `tail -f`: controls
 * shown, colour dropped (see `neutralise`). The raw bytes of stream-json output stay in the `.jsonl`.
 */
export function neutralisedLog(log: Writable): Writable {
  const neutraliser = new Neutraliser({ color: false });
  const decoder = new TextDecoder('utf-8');
  // The next chunk is taken at once while the log's buffer has room, and only after it drains
  // when full: waiting for each write to land would cost a disk round trip per chunk. A failed
  // write is the log's to report (its owner listens); it never stalls or throws here.
  const pass = (text: string, callback: (error?: Error | null) => void) => {
    if (text === '' || log.write(text)) return callback();
    void drained(log).then(() => callback());
  };
  return new Writable({
    write: (chunk: Buffer, _encoding, callback) =>
      pass(neutraliser.push(decoder.decode(chunk, { stream: true })), callback),
    final: (callback) => pass(neutraliser.push(decoder.decode()) + neutraliser.end(), callback),
  });
}
