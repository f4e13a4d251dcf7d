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
    log.write(text, (error) => callback(error ?? null));
  };
  return new Writable({
    write: (chunk: Buffer, _encoding, callback) =>
      pass(neutraliser.push(decoder.decode(chunk, { stream: true })), callback),
    final: (callback) => pass(neutraliser.push(decoder.decode()) + neutraliser.end(), callback),
  });
}
