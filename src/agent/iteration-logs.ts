import type { WriteStream } from 'node:fs';
import { finished } from 'node:stream/promises';
import { ioError, ownFile, type RalphError } from '../errors.js';
import { createOwnFile } from '../files/own-file.js';

/** How much log output may wait in memory for the disk before the agent is held back. */
const LOG_BUFFER_BYTES = 1024 * 1024;

/**
 * One iteration's logs: the readable log and (stream-json) the raw one. A write that fails is
 * warned about once and kept as `fault`, so the run ends once this iteration is over (io_error):
 * no line is lost silently.
 */
export class IterationLogs {
  /** The first write failure, as the error that ends the run. */
  fault: RalphError | undefined;
  private warned = false;
  private constructor(private readonly warn: (error: Error) => void) {}

  /** The readable log, and the raw stream-json log when there is one. */
  log!: WriteStream;
  jsonl: WriteStream | undefined;

  /** Opens the logs; ralph/logs removed during the run is made again. */
  static async open(
    paths: { root: string; log: string; jsonl?: string },
    warn: (error: Error) => void,
  ): Promise<IterationLogs> {
    const logs = new IterationLogs(warn);
    logs.log = await logs.openOne(paths.root, paths.log);
    if (paths.jsonl !== undefined) logs.jsonl = await logs.openOne(paths.root, paths.jsonl);
    return logs;
  }

  /** Reports a failed write of the agent's output (a log or the terminal) once. */
  readonly onError = (error: Error): void => {
    if (!this.warned) this.warn(error);
    this.warned = true;
  };

  /** Ends the logs and waits until they are on disk (or failed). */
  async close(): Promise<void> {
    const all = this.jsonl ? [this.log, this.jsonl] : [this.log];
    await Promise.all(all.map(async (log) => (log.end(), await finished(log).catch(() => undefined))));
  }

  private async openOne(root: string, path: string): Promise<WriteStream> {
    return ownFile(path, 'write', async () => {
      // A new file in a real ralph/logs: never through a link the agent left.
      const file = await createOwnFile(root, path);
      // A generous buffer lets writes coalesce (writev) while one is in flight, instead of a round trip per chunk.
      const log = file.createWriteStream({ highWaterMark: LOG_BUFFER_BYTES });
      log.on('error', this.onError);
      log.on('error', (error: Error) => (this.fault ??= ioError(error, path, 'write')));
      return log;
    });
  }
}
