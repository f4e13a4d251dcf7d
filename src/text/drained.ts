import type { Writable } from 'node:stream';

/** Resolves when a full target drains — or errs or closes, which must not stall the agent either. */
export function drained(target: NodeJS.WritableStream): Promise<void> {
  return new Promise((resolve) => {
    if ((target as Partial<Writable>).destroyed) return resolve();
    const done = () => {
      target.off('drain', done);
      target.off('error', done);
      target.off('close', done);
      resolve();
    };
    target.on('drain', done);
    target.on('error', done);
    target.on('close', done);
  });
}
