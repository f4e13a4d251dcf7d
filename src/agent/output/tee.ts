import { Writable } from 'node:stream';
import { finished } from 'node:stream/promises';
import { drained } from '../../text/drained.js';

/**
 * A writable that shows each chunk to `onChunk`, copies it to each target, and accepts the next
 * chunk at once unless a target is full — then only after that target drains. So a fast agent is
 * slowed to the speed of the log instead of piling output up in memory, without a round trip per
 * chunk. A target that fails is dropped (and reported through `onError`), never allowed to stall
 * the agent. Owners attach their own 'error' listeners. The `owned` targets are the tee's own: ended
 * with it, and waited for.
 */
export function tee(
  targets: readonly (Writable | undefined)[],
  onError: (error: Error) => void,
  onChunk?: (chunk: Buffer) => void,
  owned: readonly Writable[] = [],
): Writable {
  const live = new Set(targets.filter((target): target is Writable => target !== undefined));
  return new Writable({
    // A target of its own (a transform on the way to a log) still holds what it took: it is ended
    // with the tee, and the tee finishes only once that has gone beneath — before the log closes.
    final(callback) {
      for (const target of owned) if (!target.writableEnded) target.end();
      void Promise.all(owned.map((target) => finished(target).catch(() => undefined))).then(() => callback());
    },
    write(chunk: Buffer, _encoding, callback) {
      onChunk?.(chunk);
      const full: Promise<void>[] = [];
      for (const target of [...live]) {
        if (target.destroyed || target.writableEnded) {
          live.delete(target);
          continue;
        }
        const accepted = target.write(chunk, (error) => {
          if (error && live.delete(target)) onError(error);
        });
        if (!accepted) full.push(drained(target));
      }
      if (full.length === 0) callback();
      else void Promise.all(full).then(() => callback());
    },
  });
}
