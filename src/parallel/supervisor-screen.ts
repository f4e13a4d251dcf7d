import type { WriteStream } from 'node:fs';
import { join } from 'node:path';
import type { Writable } from 'node:stream';
import { finished } from 'node:stream/promises';
import { createOwnFile } from '../files/own-file.js';
import { stopToken } from '../ui/runner-fence.js';
import { oneLine } from '../text/neutralise.js';
import { LiveBoard, nameWidth } from './live-board.js';
import { loopLine, type LoopView } from './loop-view.js';
import { prefixedLines } from './prefixed-lines.js';

/** Where the supervisor shows the loops: their output, its own lines, the loops' live lines. */
export interface SupervisorScreen {
  /** Where one of a loop's streams goes: finished once every line of it was handed on. */
  output(list: string, stream: 'stdout' | 'stderr'): Writable;
  changed(views: readonly LoopView[]): void;
  say(list: string, text: string): void;
  /** A line of the supervisor's own, about the run as a whole (the summary). */
  line(text: string): void;
  close(): Promise<void>;
}

/**
 * Off a terminal (a pipe, a CI log): every loop's lines, each with its list's name in front; the
 * live lines are not drawn. On GitHub Actions the runner's commands stay stopped from the first
 * line to the last, under a token no loop ever sees, and no forwarded line starts at column 0.
 */
export function prefixedScreen(
  out: NodeJS.WritableStream,
  names: readonly string[],
  github: boolean,
): SupervisorScreen {
  const width = nameWidth(names);
  const prefix = (name: string) => `${name.padEnd(width)} │ `;
  const token = github ? stopToken() : undefined;
  if (token) out.write(`::stop-commands::${token}\n`);
  return {
    output: (list) => prefixedLines(prefix(list), out),
    changed: () => undefined,
    say: (list, text) => out.write(`${prefix(list)}${shown(text)}\n`),
    line: (text) => out.write(`${shown(text)}\n`),
    close: () =>
      new Promise((resolve) => {
        if (token) out.write(`::${token}::\n`);
        out.write('', () => resolve());
      }),
  };
}

/**
 * On a terminal: one live line per loop below the supervisor's own lines; each loop's output goes
 * to its own file under ralph/logs/parallel/ (its iteration logs are in its worktree as ever).
 */
export async function liveScreen(
  out: NodeJS.WritableStream & { columns?: number },
  root: string,
  logsDir: string,
  names: readonly string[],
  stamp: string,
): Promise<SupervisorScreen> {
  const board = new LiveBoard(out, () => out.columns);
  const width = nameWidth(names);
  const logs = new Map<string, WriteStream>();
  for (const name of names) {
    const path = join(logsDir, 'parallel', `${stamp}-${name}.log`);
    const log = (await createOwnFile(root, path)).createWriteStream();
    // A full disk costs that loop's log, said once, never the run: the loop goes on unheld.
    log.once('error', (error) => board.print(shown(`${name.padEnd(width)}  its log ${path} failed: ${error.message}`)));
    logs.set(name, log);
  }
  const onResize = () => board.resized();
  out.on('resize', onResize);
  return {
    output: (list) => prefixedLines('', logs.get(list)!),
    changed: (views) => board.show(views.map((view) => loopLine(view, width))),
    say: (list, text) => board.print(`${list.padEnd(width)}  ${shown(text)}`),
    line: (text) => board.print(shown(text)),
    async close() {
      out.off('resize', onResize);
      board.close();
      // Every line handed to a log is on disk before the run ends (or its failure was said).
      await Promise.all([...logs.values()].map((log) => (log.end(), finished(log).catch(() => undefined))));
    },
  };
}

/**
 * The supervisor's lines quote what loops reported (file names, a branch name, a usage-limit
 * message): each stays one line.
 */
function shown(text: string): string {
  return oneLine(text);
}
