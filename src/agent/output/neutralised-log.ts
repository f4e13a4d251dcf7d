import { Writable } from 'node:stream';
import { Neutraliser } from '../../ui/neutralise.js';

/**
 * The readable `.log` as the agent's bytes become text a person may `cat` or `tail -f`: controls
 * shown, colour dropped (see `neutralise`). The raw bytes of stream-json output stay in the `.jsonl`.
 */
export function neutralisedLog(log: Writable): Writable {
  const neutraliser = new Neutraliser({ color: false });
  const decoder = new TextDecoder('utf-8');
  const pass = (text: string, callback: (error?: Error | null) => void) => {
    if (text === '') return callback();
    // A failed write is the log's to report (its owner listens); this one never stalls or throws.
    log.write(text, () => callback());
  };
  return new Writable({
    write: (chunk: Buffer, _encoding, callback) =>
      pass(neutraliser.push(decoder.decode(chunk, { stream: true })), callback),
    final: (callback) => pass(neutraliser.push(decoder.decode()) + neutraliser.end(), callback),
  });
}
