import { Writable } from 'node:stream';

/**
 * A writable that shows each chunk to `onChunk`, copies it every chunk to each target and accepts the next chunk only when
 * all targets took this one, so a fast agent is slowed to the speed of the log instead of
 * piling output up in memory. A target that fails is dropped (and reported through
 * `onError`), never allowed to stall the agent. Owners attach their own 'error' listeners.
 */
export function tee(
  targets: readonly (Writable | undefined)[],
  onError: (error: Error) => void,
  onChunk?: (chunk: Buffer) => void,
): Writable {
  const live = new Set(targets.filter((target): target is Writable => target !== undefined));
  return new Writable({
    write(chunk: Buffer, _encoding, callback) {
      onChunk?.(chunk);
      let pending = live.size;
      if (pending === 0) return callback();
      const done = () => {
        if (--pending === 0) callback();
      };
      for (const target of [...live]) {
        if (target.destroyed || target.writableEnded) {
          live.delete(target);
          done();
          continue;
        }
        target.write(chunk, (error) => {
          if (error && live.delete(target)) onError(error);
          done();
        });
      }
    },
  });
}
